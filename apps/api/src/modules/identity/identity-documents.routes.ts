import multipart from '@fastify/multipart';
import {
  identityDocumentsCall,
  IDENTITY_DOCUMENT_KINDS,
  PERSON_TYPES,
  type IdentityDocumentKind,
  type PersonType,
} from '@provee/domain';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { bearerRoute, register } from '../../contract/register.js';
import { AppError, invalidFields } from '../../errors.js';
import type { App } from '../../types.js';
import { identityDeps } from './deps.js';
import { submitDocuments } from './documents.js';
import { requireBuiltinWidget } from './identity-check.js';
import { MAX_IMAGE_BYTES } from './image.js';
import type { IdentityRouteOptions } from './route-parts.js';

const DOCUMENT_FIELDS = z.object({
  person_type: z.enum(PERSON_TYPES).optional(),
  verification_type: z.enum(['VERIFICATION', 'REVERIFICATION']).optional(),
});

/** The built-in widget's upload: multipart, three images, each checked by content. */
export async function identityDocumentRoutes(app: App, { gate }: IdentityRouteOptions): Promise<void> {
  const { signingLink, signerAccess } = gate;
  const deps = identityDeps(app);
  await app.register(multipart, {
    limits: { fileSize: MAX_IMAGE_BYTES, files: IDENTITY_DOCUMENT_KINDS.length, fields: 4, fieldSize: 200, parts: 8 },
  });
  // The body is a multipart form (read below, not by a schema); 503: the image work over its time
  // bound or its waiting line (decision 021).
  register(
    app,
    identityDocumentsCall,
    {
      ...bearerRoute(signingLink, 'Fotos de la identificación (frente y reverso) y selfie: inicia la verificación'),
      // Three photos of at most 8 MB each, and the form around them.
      bodyLimit: IDENTITY_DOCUMENT_KINDS.length * MAX_IMAGE_BYTES + 64 * 1024,
    },
    async (request) => {
      const access = await signerAccess(request, request.params.id);
      requireBuiltinWidget(deps);
      const { files, fields } = await readDocuments(request);
      if (fields.person_type && fields.person_type !== access.signer.personType)
        throw new AppError(403, 'FORBIDDEN', 'forbidden', 'No tienes permiso para ver esta información.');
      return { data: await submitDocuments(deps, access.signer, files) };
    },
  );
}

const TOO_LARGE = new AppError(413, 'FILE_TOO_LARGE', 'file too large', 'Cada foto puede pesar como máximo 8 MB.');

async function readDocuments(request: FastifyRequest) {
  if (!request.isMultipart())
    throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'multipart expected', 'Envía las fotos como un formulario.');
  const files: Partial<Record<IdentityDocumentKind, Buffer>> = {};
  const raw: Record<string, string> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const kind = part.fieldname as IdentityDocumentKind;
        const bytes = await part.toBuffer();
        if (!(IDENTITY_DOCUMENT_KINDS as readonly string[]).includes(kind))
          throw invalidFields({ [part.fieldname.slice(0, 40)]: 'Este archivo no se esperaba.' });
        files[kind] = bytes;
      } else {
        raw[part.fieldname] = String(part.value);
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw TOO_LARGE;
    // Too many parts, files or fields (FST_…), or a malformed form: the form parser's own errors
    // (a form cut short, a boundary that never comes) carry no code. Only the body is read here.
    throw new AppError(400, 'BAD_REQUEST', 'malformed multipart', 'El formulario enviado no es válido.');
  }
  const fields = DOCUMENT_FIELDS.safeParse(raw);
  if (!fields.success) throw invalidFields({ person_type: 'Tipo de persona inválido.' });
  return { files, fields: fields.data as { person_type?: PersonType } };
}
