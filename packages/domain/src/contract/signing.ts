import { z } from 'zod';
import {
  IDENTITY_DOCUMENT_KINDS,
  PERSON_TYPES,
  SIGNER_STATES,
  VERIFICATION_STATUSES,
  VERIFICATION_TYPES,
} from '../signing.js';
import { callsSharing, defineCall, refusals } from './call.js';
import {
  contractEvidenceRoute,
  contractPdfRoute,
  identityCheckRoute,
  identityDocumentsRoute,
  identityPhotoRoute,
  identityPhotosRoute,
  signContractRoute,
  signingLinkRoute,
  verificationStatusRoute,
} from './routes/signing.js';

const personType = z.enum(PERSON_TYPES);
const verificationStatus = z.enum(VERIFICATION_STATUSES);

/** Route params of the signing calls: SPEC §7 puts the user type first (`/v1/users/{user_type_id}/{user_id}/…`). */
export const signerParams = z.object({ type: z.enum(['SK']), id: z.uuid('Usuario inválido.') });
export type SignerParams = z.input<typeof signerParams>;

/**
 * POST /ops/v1/users/:type/:id/contract-links (operator API key; the back office later): a
 * signing link for the shopkeeper (titular) or one of their approved guarantors (collateral,
 * with aval_id), sent by SMS.
 */
export const contractLinkBody = z.object({
  person_type: personType,
  aval_id: z.uuid('Aval inválido.').optional(),
});
export const contractLinkResponse = z.object({
  data: z.object({
    link_id: z.string(),
    signer_id: z.string(),
    person_type: personType,
    url: z.string(),
    expires_at: z.string(),
  }),
});

/** The verification flow the signing page shows (the provider's public settings, never a secret). */
export const identityWidgetSchema = z.discriminatedUnion('provider', [
  z.object({ provider: z.literal('builtin') }),
  z.object({
    provider: z.literal('metamap'),
    client_id: z.string(),
    /** The verification flow, or the re-verification flow when a mati_identity_id exists (SPEC §2.4). */
    flow_id: z.string(),
    /** SPEC §3 widget metadata, plus the signer (a shopkeeper may have several guarantors). */
    metadata: z.object({
      account_id: z.string(),
      account_type_id: z.string(),
      person_type: personType,
      signer_id: z.string(),
      /** The server's proof that this signer id is the link's (checked when MetaMap's answer arrives). */
      signer_proof: z.string(),
    }),
  }),
]);
export type IdentityWidget = z.infer<typeof identityWidgetSchema>;

/** The longest a status request may wait for the verifier's answer (seconds): under any proxy's idle limit. */
export const STATUS_WAIT_MAX_SECONDS = 20;

/**
 * GET /v1/users/:type/:id/mati-status?verification_type=…&person_type=… (SPEC §3, §7). With `wait`
 * (issue 27) the server answers as soon as the current check has an answer, or after `wait`
 * seconds: the review screen shows an answer the moment the server has it. `previous` names a
 * check the screen is not waiting for (the one before the widget ran): its answer does not count.
 */
export const verificationStatusQuery = z.object({
  verification_type: z.enum(VERIFICATION_TYPES).default('VERIFICATION'),
  person_type: personType,
  wait: z.coerce.number().int().min(0).max(STATUS_WAIT_MAX_SECONDS).optional(),
  previous: z.uuid('Verificación inválida.').optional(),
});
export const verificationStatusResponse = z.object({
  data: z.object({
    /** null: no answer yet (or no check started). */
    status: verificationStatus.nullable(),
    /** null = unknown; 0 or less = no further attempt (SPEC §5). */
    verifications_left: z.number().int().nullable(),
    mati_identity_id: z.string().nullable(),
    /** The signer's current check (null: none yet), whose answer `status` is. */
    verification_id: z.string().nullable(),
    /**
     * Seconds left of the review screen's countdown (SPEC §4: 300 from the check's start) by the
     * server's clock; null without a check. A reloaded review screen goes on from here.
     */
    review_seconds_left: z.number().int().nullable(),
  }),
});
export type VerificationStatusAnswer = z.infer<typeof verificationStatusResponse>['data'];

/**
 * GET /v1/users/:type/:id/contract-link (the link's token): whose link it is and where the signer
 * stands. An expired, altered or used link answers 401/409 (the page's on-load modal).
 */
export const signingLinkResponse = z.object({
  data: z.object({
    user_id: z.string(),
    user_type_id: z.literal('SK'),
    person_type: personType,
    signer_name: z.string(),
    titular_full_name: z.string(),
    collateral_full_name: z.string(),
    state: z.enum(SIGNER_STATES),
    verification: verificationStatusResponse.shape.data,
    widget: identityWidgetSchema,
    /** The SHA-256 of the unsigned contract 'Ver Contrato' shows; the signature echoes it. */
    document_sha256: z.string(),
    expires_at: z.string(),
  }),
});
export type SigningLink = z.infer<typeof signingLinkResponse>['data'];

/**
 * POST /v1/users/:type/:id/identity-documents (multipart/form-data): fields person_type and
 * verification_type, files id_front, id_back and selfie (JPEG, PNG or WebP; 8 MB and 40
 * megapixels at most each). Starts a verification.
 */
export const identityDocumentsResponse = z.object({
  data: z.object({
    verification_id: z.string(),
    verification_type: z.enum(VERIFICATION_TYPES),
    verifications_left: z.number().int().nullable(),
  }),
});
export type IdentityDocumentsAnswer = z.infer<typeof identityDocumentsResponse>['data'];

/** An identity photo's SHA-256 (hex) as the phone computed it over the bytes it sends. */
const photoSha256 = z.string().regex(/^[0-9a-f]{64}$/, 'La huella de la foto no es válida.');
const documentKind = z.enum(IDENTITY_DOCUMENT_KINDS);

/**
 * PUT /v1/users/:type/:id/identity-photos/:kind/:sha256 (issue 27, decision 024): one photo of the
 * built-in widget, sent as soon as it is accepted; the body is the image (Content-Type image/jpeg,
 * image/png or image/webp; 8 MB and 40 megapixels at most) whose SHA-256 the path names. Sending
 * the same photo again changes nothing; another photo of the same kind replaces it.
 */
export const identityPhotoParams = signerParams.extend({ kind: documentKind, sha256: photoSha256 });
export type IdentityPhotoParams = z.input<typeof identityPhotoParams>;
const storedPhoto = z.object({ kind: documentKind, sha256: z.string() });
export const identityPhotoResponse = z.object({ data: storedPhoto });
/** GET /v1/users/:type/:id/identity-photos: the photos the server holds for the next check (a phone resuming). */
export const identityPhotosResponse = z.object({ data: z.object({ photos: z.array(storedPhoto) }) });
export type IdentityPhotosAnswer = z.infer<typeof identityPhotosResponse>['data'];

/**
 * POST /v1/users/:type/:id/identity-checks: starts a verification with the three photos already
 * sent, named by their SHA-256. 409 PHOTOS_MISSING (with `missing`, the kinds to send again) when
 * the server does not hold one of them. Answers as the identity-documents upload does.
 */
export const identityCheckBody = z.object({
  person_type: personType,
  verification_type: z.enum(VERIFICATION_TYPES).optional(),
  photos: z.object({ id_front: photoSha256, id_back: photoSha256, selfie: photoSha256 }),
});
export type IdentityCheckPayload = z.input<typeof identityCheckBody>;

/** PUT /v1/users/:type/:id/contract (SPEC §3): the handwritten signature. */
export const signContractBody = z.object({
  person_type: personType,
  /** Base64 PNG without the data-URL prefix, trimmed to the drawn area. */
  signature: z
    .string()
    .min(1, 'Firma el contrato dentro del recuadro.')
    .max(1_500_000, 'La firma es demasiado grande.'),
  /** The browser's geolocation result, serialised (SPEC §3); empty when the user did not allow it. */
  metadata: z.string().max(4000).optional().default(''),
  /** The document_sha256 of the signing page: refused (409) if the contract changed since. */
  document_sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'El documento indicado no es válido.')
    .optional(),
});
export type SignContractPayload = z.input<typeof signContractBody>;
export const signContractResponse = z.object({
  data: z.object({
    person_type: personType,
    signed_at: z.string(),
    /** SHA-256 of the signed PDF now served by GET …/contract. */
    contract_sha256: z.string(),
  }),
});
export type SignContractAnswer = z.infer<typeof signContractResponse>['data'];

/**
 * The lender's seal on the fully signed PDF (PAdES), its RFC 3161 time-stamp ('waiting' while the
 * authority has not answered) and, in Mexico, its NOM-151 conservation certificate.
 */
export const contractSealSchema = z.object({
  certificate_name: z.string(),
  certificate_sha256: z.string(),
  /** Sealed with a development certificate: no legal value. */
  development: z.boolean(),
  sealed_at: z.string(),
  sealed_sha256: z.string(),
  timestamp: z.object({
    status: z.enum(['waiting', 'stamped']),
    authority: z.string().nullable(),
    time: z.string().nullable(),
    serial: z.string().nullable(),
    attempts: z.number(),
  }),
  nom151: z.object({
    status: z.enum(['not_required', 'waiting', 'issued']),
    provider: z.string().nullable(),
    reference: z.string().nullable(),
    issued_at: z.string().nullable(),
    /** The document's SHA-256 the certificate covers. */
    sha256: z.string().nullable(),
    /** The provider's certificate (an RFC 3161 TimeStampResp, DER) in base64. */
    certificate: z.string().nullable(),
  }),
});
export type ContractSeal = z.infer<typeof contractSealSchema>;

/** GET /v1/users/:type/:id/contract/evidence: the signing record, as the PDF's evidence pages show it. */
export const signerEvidenceSchema = z.object({
  signer_id: z.string(),
  name: z.string(),
  person_type: personType,
  state: z.enum(SIGNER_STATES),
  signed_at: z.string().nullable(),
  /** The client's address as the server trusted it (TRUST_PROXY). */
  ip: z.string().nullable(),
  /** The address the connection came from (a proxy's, behind one) and X-Forwarded-For as received. */
  peer_ip: z.string().nullable(),
  forwarded_for: z.string().nullable(),
  user_agent: z.string().nullable(),
  /** The browser's position, or null ('no disponible'). */
  geolocation: z.record(z.string(), z.unknown()).nullable(),
  phone_verified_at: z.string().nullable(),
  consent_folio: z.string().nullable(),
  verification: z
    .object({ id: z.string(), provider: z.string(), status: z.string(), identity_id: z.string().nullable() })
    .nullable(),
  signature_sha256: z.string().nullable(),
  /** The application's audit chain's last hash when they signed, printed on their evidence page (issue 36). */
  audit_chain_head: z.string().nullable(),
});
export type SignerEvidence = z.infer<typeof signerEvidenceSchema>;
export const contractEvidenceResponse = z.object({
  data: z.object({
    contract_id: z.string(),
    template_version: z.string(),
    country: z.string(),
    amount: z.number(),
    currency: z.string(),
    unsigned_sha256: z.string(),
    signed_sha256: z.string().nullable(),
    signers: z.array(signerEvidenceSchema),
    /** The lender's seal once everybody signed (issue 36); null before. */
    seal: contractSealSchema.nullable(),
  }),
});
export type ContractEvidence = z.infer<typeof contractEvidenceResponse>['data'];

// ---- calls -------------------------------------------------------------------------------------
/** The error statuses every call of a signing link documents (identity's and the contract's). */
const signingRefusals = refusals(400, 401, 403, 404, 409, 413, 422, 429);
/** The link's token in the address: the PDF and the evidence open in a new window, without headers. */
export const contractTokenQuery = z.object({ token: z.string().max(2000).optional() });

/** A call of the signing link: the signer's params, the signing refusals. */
const signerCall = callsSharing({ params: signerParams }, signingRefusals);

export const signingLinkCall = signerCall(signingLinkRoute, {}, { 200: signingLinkResponse });
export const verificationStatusCall = signerCall(
  verificationStatusRoute,
  { query: verificationStatusQuery },
  { 200: verificationStatusResponse },
);
/** 503: the image or PDF work over its time bound or its waiting line (decision 021). */
export const signContractCall = signerCall(
  signContractRoute,
  { body: signContractBody },
  { 200: signContractResponse, ...refusals(503) },
);
/** The PDF's bytes (no serializer runs for them): the call documents the media type. */
export const contractPdfCall = signerCall(
  contractPdfRoute,
  { query: contractTokenQuery },
  { 200: { description: 'PDF', content: { 'application/pdf': { schema: z.string() } } } },
);
export const contractEvidenceCall = signerCall(
  contractEvidenceRoute,
  { query: contractTokenQuery },
  { 200: contractEvidenceResponse },
);

/**
 * The body is a multipart form (identityDocumentsResponse above says its parts), read by the
 * route's own parser: no JSON schema describes it. 503 as signContractCall.
 */
export const identityDocumentsCall = signerCall(
  identityDocumentsRoute,
  {},
  { 200: identityDocumentsResponse, ...refusals(503) },
);
/** The body is the image itself (image/jpeg, image/png or image/webp), read as bytes by the route's own parser. */
export const identityPhotoCall = defineCall(identityPhotoRoute, {
  params: identityPhotoParams,
  responses: { 200: identityPhotoResponse, ...signingRefusals, ...refusals(415, 503) },
});
export const identityPhotosCall = signerCall(identityPhotosRoute, {}, { 200: identityPhotosResponse });
export const identityCheckCall = signerCall(
  identityCheckRoute,
  { body: identityCheckBody },
  { 200: identityDocumentsResponse, ...refusals(503) },
);
