import { identityCheckCall, identityPhotoCall, identityPhotoParams, identityPhotosCall } from '@provee/domain';
import type { FastifyRequest } from 'fastify';
import { bearerRoute, register } from '../../contract/register.js';
import { AppError, invalidFields } from '../../errors.js';
import type { App } from '../../types.js';
import { identityDeps } from './deps.js';
import { FORBIDDEN } from './identity-check.js';
import { MAX_IMAGE_BYTES } from './image.js';
import { receivePhoto, stagedPhotos, submitStagedPhotos } from './photos.js';
import type { IdentityRouteOptions, SignerGate } from './route-parts.js';

/** What a photo may be sent as; the bytes themselves are checked by content (image.ts, decode.ts). */
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'];

const NOT_AN_IMAGE = new AppError(
  415,
  'UNSUPPORTED_MEDIA_TYPE',
  'image expected',
  'Envía la foto como una imagen JPEG, PNG o WebP.',
);

/**
 * Before a photo's bytes are read (up to 8 MB): the link's token (401), a path that names a photo
 * (400), and a link that may still act for the signer the path names (signerAccess: replaced, used,
 * expired or another person's link → 4xx).
 */
const beforePhotoBody =
  ({ signingLink, signerAccess }: SignerGate) =>
  async (request: FastifyRequest): Promise<void> => {
    await signingLink(request);
    const params = identityPhotoParams.safeParse(request.params);
    if (!params.success)
      throw invalidFields(
        Object.fromEntries(params.error.issues.map((issue) => [issue.path.join('.'), issue.message])),
        'params',
      );
    await signerAccess(request, params.data.id);
  };

/**
 * The built-in widget's photos one at a time, and the check that takes them (issue 27, decision
 * 024; photos.ts). Every call needs the signing link's token (401 before the body is read).
 */
export async function identityPhotoRoutes(app: App, { gate }: IdentityRouteOptions): Promise<void> {
  const { signingLink, signerAccess } = gate;
  const deps = identityDeps(app);
  // Only these routes read an image body, as it came (8 MB at most).
  app.addContentTypeParser(IMAGE_TYPES, { parseAs: 'buffer', bodyLimit: MAX_IMAGE_BYTES }, (_request, body, done) =>
    done(null, body),
  );

  // The body is the image (IMAGE_TYPES, this plugin's parser); 503: the image work over its time
  // bound or its waiting line (decision 021).
  register(
    app,
    identityPhotoCall,
    {
      ...bearerRoute(
        beforePhotoBody(gate),
        'Una foto de la verificación (frente, reverso o selfie), enviada al aceptarla',
      ),
      bodyLimit: MAX_IMAGE_BYTES,
    },
    async (request) => {
      const { signer } = await signerAccess(request, request.params.id);
      if (!Buffer.isBuffer(request.body)) throw NOT_AN_IMAGE;
      const { kind, sha256 } = request.params;
      return { data: await receivePhoto(deps, signer, kind, sha256, request.body) };
    },
  );

  register(
    app,
    identityPhotosCall,
    bearerRoute(signingLink, 'Las fotos de la verificación que el servidor ya tiene (para reanudar un envío)'),
    async (request) => {
      const { signer } = await signerAccess(request, request.params.id);
      return { data: await stagedPhotos(deps, signer) };
    },
  );

  register(
    app,
    identityCheckCall,
    {
      ...bearerRoute(signingLink, 'Inicia la verificación con las tres fotos ya enviadas'),
      // Three hashes and two words: no image comes this way.
      bodyLimit: 4096,
    },
    async (request) => {
      const { signer } = await signerAccess(request, request.params.id);
      if (request.body.person_type !== signer.personType) throw FORBIDDEN;
      return { data: await submitStagedPhotos(deps, signer, request.body.photos) };
    },
  );
}
