import {
  identityCheckBody,
  identityDocumentsResponse,
  identityPhotoParams,
  identityPhotoResponse,
  identityPhotosResponse,
  signerParams,
} from '@provee/domain';
import type { FastifyRequest } from 'fastify';
import { AppError, errorResponseSchema, invalidFields } from '../../errors.js';
import type { App } from '../../types.js';
import { FORBIDDEN } from './identity-check.js';
import { receivePhoto, stagedPhotos, submitStagedPhotos } from './identity-photos.js';
import { MAX_IMAGE_BYTES } from './image.js';
import { requireSigningLink } from './link-token.js';
import { signingErrors, signingLink } from './route-parts.js';
import { signerAccess } from './signing.service.js';

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
async function beforePhotoBody(request: FastifyRequest): Promise<void> {
  await requireSigningLink(request);
  const params = identityPhotoParams.safeParse(request.params);
  if (!params.success)
    throw invalidFields(
      Object.fromEntries(params.error.issues.map((issue) => [issue.path.join('.'), issue.message])),
      'params',
    );
  await signerAccess(request, params.data.id);
}

/**
 * The built-in widget's photos one at a time, and the check that takes them (issue 27, decision
 * 024; identity-photos.ts). Every call needs the signing link's token (401 before the body is read).
 */
export async function identityPhotoRoutes(app: App): Promise<void> {
  // Only these routes read an image body, as it came (8 MB at most).
  app.addContentTypeParser(IMAGE_TYPES, { parseAs: 'buffer', bodyLimit: MAX_IMAGE_BYTES }, (_request, body, done) =>
    done(null, body),
  );

  app.put(
    '/v1/users/:type/:id/identity-photos/:kind/:sha256',
    {
      preParsing: beforePhotoBody,
      schema: {
        summary: 'Una foto de la verificación (frente, reverso o selfie), enviada al aceptarla',
        security: [{ bearer: [] }],
        consumes: IMAGE_TYPES,
        params: identityPhotoParams,
        // 503: the image work over its time bound or its waiting line (decision 021).
        response: { 200: identityPhotoResponse, ...signingErrors, 415: errorResponseSchema, 503: errorResponseSchema },
      },
      bodyLimit: MAX_IMAGE_BYTES,
    },
    async (request) => {
      const { signer } = await signerAccess(request, request.params.id);
      if (!Buffer.isBuffer(request.body)) throw NOT_AN_IMAGE;
      const { kind, sha256 } = request.params;
      return { data: await receivePhoto(app, signer, kind, sha256, request.body) };
    },
  );

  app.get(
    '/v1/users/:type/:id/identity-photos',
    {
      preParsing: signingLink,
      schema: {
        summary: 'Las fotos de la verificación que el servidor ya tiene (para reanudar un envío)',
        security: [{ bearer: [] }],
        params: signerParams,
        response: { 200: identityPhotosResponse, ...signingErrors },
      },
    },
    async (request) => {
      const { signer } = await signerAccess(request, request.params.id);
      return { data: await stagedPhotos(app, signer) };
    },
  );

  app.post(
    '/v1/users/:type/:id/identity-checks',
    {
      preParsing: signingLink,
      schema: {
        summary: 'Inicia la verificación con las tres fotos ya enviadas',
        security: [{ bearer: [] }],
        params: signerParams,
        body: identityCheckBody,
        response: { 200: identityDocumentsResponse, ...signingErrors, 503: errorResponseSchema },
      },
      // Three hashes and two words: no image comes this way.
      bodyLimit: 4096,
    },
    async (request) => {
      const { signer } = await signerAccess(request, request.params.id);
      if (request.body.person_type !== signer.personType) throw FORBIDDEN;
      return { data: await submitStagedPhotos(app, signer, request.body.photos) };
    },
  );
}
