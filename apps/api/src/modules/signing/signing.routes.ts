import multipart from '@fastify/multipart';
import {
  contractEvidenceResponse,
  identityDocumentsResponse,
  IDENTITY_DOCUMENT_KINDS,
  PERSON_TYPES,
  signContractBody,
  signContractResponse,
  signerParams,
  signingLinkResponse,
  verificationStatusQuery,
  verificationStatusResponse,
  type IdentityDocumentKind,
  type PersonType,
} from '@provee/domain';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { clientAddress } from '../../client-address.js';
import { AppError, errorResponseSchema, invalidFields } from '../../errors.js';
import { MAX_IMAGE_BYTES } from './image.js';
import { requireBuiltinWidget } from './identity-check.js';
import { metamapWebhookRoutes } from './metamap-webhook.js';
import { identityPhotoRoutes } from './identity-photos.routes.js';
import { signingErrors, signingLink } from './route-parts.js';
import { heldStatusRequests } from './status-wait.js';
import type { App } from '../../types.js';
import {
  contractDocument,
  contractEvidence,
  linkView,
  signContract,
  signerAccess,
  submitDocuments,
  verificationStatus,
} from './signing.service.js';

const errors = signingErrors;

const tokenQuery = z.object({ token: z.string().max(2000).optional() });

/** The signing screens' calls (SPEC §2.4, §7), with the signing link's token. */
export async function signingRoutes(app: App): Promise<void> {
  const heldStatus = heldStatusRequests(app);

  app.get(
    '/v1/users/:type/:id/contract-link',
    {
      preParsing: signingLink,
      schema: {
        summary: 'El enlace de firma: quién firma y en qué punto está',
        security: [{ bearer: [] }],
        params: signerParams,
        response: { 200: signingLinkResponse, ...errors },
      },
    },
    async (request) => ({ data: await linkView(app, await signerAccess(request, request.params.id)) }),
  );

  app.get(
    '/v1/users/:type/:id/mati-status',
    {
      preParsing: signingLink,
      schema: {
        summary: 'Estado de la verificación de identidad del firmante',
        security: [{ bearer: [] }],
        params: signerParams,
        querystring: verificationStatusQuery,
        response: { 200: verificationStatusResponse, ...errors },
      },
    },
    async (request, reply) => {
      const { signer } = await signerAccess(request, request.params.id, {
        personType: request.query.person_type,
        readOnly: true,
      });
      const { wait, previous } = request.query;
      if (!wait) return { data: await verificationStatus(app, signer) };
      // Issue 27: held until the answer is in (or `wait` seconds).
      return { data: await heldStatus(signer, { seconds: wait, previous }, { request, reply }) };
    },
  );

  app.put(
    '/v1/users/:type/:id/contract',
    {
      preParsing: signingLink,
      schema: {
        summary: 'Firma autógrafa del contrato (PNG en base64) con su evidencia',
        security: [{ bearer: [] }],
        params: signerParams,
        body: signContractBody,
        // 503: the image or PDF work over its time bound or its waiting line (decision 021).
        response: { 200: signContractResponse, ...errors, 503: errorResponseSchema },
      },
      // A signature is about 10–100 KB of base64; the default body limit is 1 MB.
      bodyLimit: 2 * 1024 * 1024,
    },
    async (request) => {
      const access = await signerAccess(request, request.params.id, { personType: request.body.person_type });
      return {
        data: await signContract(app, access, request.body, {
          ...clientAddress(request),
          userAgent: request.headers['user-agent'],
        }),
      };
    },
  );

  app.get(
    '/v1/users/:type/:id/contract',
    {
      preParsing: signingLink,
      schema: {
        summary: 'El contrato en PDF (firmado cuando ya hay firmas); se abre en una ventana nueva',
        security: [{ bearer: [] }],
        params: signerParams,
        querystring: tokenQuery,
        response: {
          200: { description: 'PDF', content: { 'application/pdf': { schema: z.string() } } },
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const { signer } = await signerAccess(request, request.params.id, { readOnly: true });
      const document = await contractDocument(app, signer);
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="contrato-${document.contractId}.pdf"`)
        .header('x-content-sha256', document.sha256)
        .send(document.pdf as unknown as string); // bytes as they are: no serializer runs for a Buffer
    },
  );

  app.get(
    '/v1/users/:type/:id/contract/evidence',
    {
      preParsing: signingLink,
      schema: {
        summary: 'La evidencia de la firma del contrato (JSON)',
        security: [{ bearer: [] }],
        params: signerParams,
        querystring: tokenQuery,
        response: { 200: contractEvidenceResponse, ...errors },
      },
    },
    async (request) => {
      const { signer } = await signerAccess(request, request.params.id, { readOnly: true });
      return { data: await contractEvidence(app, signer.contractId) };
    },
  );

  await app.register(identityDocumentRoutes);
  await app.register(identityPhotoRoutes);
  await app.register(metamapWebhookRoutes);
}

const DOCUMENT_FIELDS = z.object({
  person_type: z.enum(PERSON_TYPES).optional(),
  verification_type: z.enum(['VERIFICATION', 'REVERIFICATION']).optional(),
});

/** The built-in widget's upload: multipart, three images, each checked by content. */
async function identityDocumentRoutes(app: App): Promise<void> {
  await app.register(multipart, {
    limits: { fileSize: MAX_IMAGE_BYTES, files: IDENTITY_DOCUMENT_KINDS.length, fields: 4, fieldSize: 200, parts: 8 },
  });
  app.post(
    '/v1/users/:type/:id/identity-documents',
    {
      preParsing: signingLink,
      schema: {
        summary: 'Fotos de la identificación (frente y reverso) y selfie: inicia la verificación',
        security: [{ bearer: [] }],
        consumes: ['multipart/form-data'],
        params: signerParams,
        // 503: the image or PDF work over its time bound or its waiting line (decision 021).
        response: { 200: identityDocumentsResponse, ...errors, 503: errorResponseSchema },
      },
      // Three photos of at most 8 MB each, and the form around them.
      bodyLimit: IDENTITY_DOCUMENT_KINDS.length * MAX_IMAGE_BYTES + 64 * 1024,
    },
    async (request) => {
      const access = await signerAccess(request, request.params.id);
      requireBuiltinWidget(app);
      const { files, fields } = await readDocuments(request);
      if (fields.person_type && fields.person_type !== access.signer.personType)
        throw new AppError(403, 'FORBIDDEN', 'forbidden', 'No tienes permiso para ver esta información.');
      return { data: await submitDocuments(app, access.signer, files) };
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
