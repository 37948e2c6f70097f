import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * MetaMap (formerly Mati) webhooks. MetaMap signs each delivery with the webhook secret set in its
 * dashboard: header `x-signature` = hex HMAC-SHA256 of the raw body
 * (https://docs.metamap.com/docs/configure-your-webhook-url). Events and fields:
 * https://docs.metamap.com/docs/webhooks and https://docs.metamap.com/docs/webhook-specifications.
 */
export const METAMAP_SIGNATURE_HEADER = 'x-signature';

/**
 * Whether the header is the HMAC of exactly these bytes under the secret (compared in constant
 * time). Verify before parsing: re-serialised JSON is not the body MetaMap signed. A header sent
 * twice (an array) is refused.
 */
export function verifyMetamapSignature(
  rawBody: Buffer,
  signatureHeader: string | string[] | undefined,
  secret: string,
): boolean {
  if (!secret || typeof signatureHeader !== 'string') return false;
  const given = signatureHeader.trim();
  if (!/^[0-9a-f]{64}$/i.test(given)) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(given, 'hex'));
}

export type MappedStatus = 'APPROVED' | 'REJECTED' | 'UNDER_REVIEW';

const STATUS_OF: Record<string, MappedStatus> = {
  verified: 'APPROVED',
  reviewNeeded: 'UNDER_REVIEW',
  rejected: 'REJECTED',
};

/** MetaMap's identityStatus as the screens know it; null for anything that is not a decision (deleted, running, …). */
export function mapMetamapStatus(identityStatus: string | undefined): MappedStatus | null {
  if (identityStatus === undefined || !Object.hasOwn(STATUS_OF, identityStatus)) return null;
  return STATUS_OF[identityStatus] ?? null;
}

/** The events that carry a decision: automatic (completed) or a person's in MetaMap's dashboard (updated). */
export const METAMAP_DECISION_EVENTS = ['verification_completed', 'verification_updated'] as const;

export interface MetamapMetadata {
  account_id: string;
  account_type_id: string;
  person_type: 'titular' | 'collateral';
  /**
   * Which signer, when the widget sent it: account and person type alone do not tell two
   * guarantors of the same shopkeeper apart.
   */
  signer_id?: string;
  /** The server's HMAC over the signer id: metadata the page could alter names no other signer. */
  signer_proof?: string;
}

export interface MetamapEvent {
  eventName: string;
  verificationId: string | null;
  identityId: string | null;
  flowId: string | null;
  /** Only on decision events; null on every other event and on statuses that are not a decision. */
  status: MappedStatus | null;
  /** What the signing page gave the widget; null when absent or not ours. */
  metadata: MetamapMetadata | null;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
/**
 * NUL and half a surrogate pair alone: not text, and PostgreSQL refuses both in the jsonb the
 * event name is kept in (a delivery holding one failed with a 500, and MetaMap would retry it).
 */
// eslint-disable-next-line no-control-regex -- finding NUL is the point
const NOT_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const text = (value: unknown, max = 200): string | null =>
  typeof value === 'string' && value.length > 0 && value.length <= max && !NOT_TEXT.test(value) ? value : null;
/** MetaMap ids are 24-hex ObjectIds; anything id-like is accepted, nothing that could smuggle a path or markup. */
const id = (value: unknown): string | null => {
  const s = text(value, 64);
  return s && /^[A-Za-z0-9_-]+$/.test(s) ? s : null;
};
const lastIdAfter = (url: unknown, segment: string): string | null => {
  const s = text(url, 500);
  const match = s && new RegExp(`/${segment}/([^/?#]+)`).exec(s);
  return match ? id(match[1]) : null;
};

function parseMetadata(raw: unknown): MetamapMetadata | null {
  let value = raw;
  if (typeof raw === 'string') {
    // The web button takes metadata as a JSON string; deliveries usually give it back as an object.
    try {
      value = JSON.parse(raw);
    } catch {
      return null;
    }
  }
  if (!isObject(value)) return null;
  const accountId = text(value.account_id);
  const accountTypeId = text(value.account_type_id, 20);
  const personType = value.person_type;
  if (!accountId || !accountTypeId || (personType !== 'titular' && personType !== 'collateral')) return null;
  const signerId = text(value.signer_id, 64);
  const signerProof = text(value.signer_proof, 128);
  return {
    account_id: accountId,
    account_type_id: accountTypeId,
    person_type: personType,
    ...(signerId ? { signer_id: signerId } : {}),
    ...(signerProof ? { signer_proof: signerProof } : {}),
  };
}

/**
 * A delivery's body, tolerant to missing fields (each event carries a different subset).
 * The verification id ends the `resource` URL (…/v2/verifications/<id>); the identity id is in
 * `identity` or at the end of `matiDashboardUrl` (…/identities/<id>). null when not an object or
 * without an eventName.
 */
export function parseMetamapEvent(body: unknown): MetamapEvent | null {
  if (!isObject(body)) return null;
  const eventName = text(body.eventName, 100);
  if (!eventName) return null;
  const flow = isObject(body.flow) ? body.flow : {};
  const isDecision = (METAMAP_DECISION_EVENTS as readonly string[]).includes(eventName);
  const identityStatus = text(body.identityStatus, 50) ?? text(body.status, 50) ?? undefined;
  return {
    eventName,
    verificationId: lastIdAfter(body.resource, 'verifications') ?? id(body.verificationId) ?? id(body.verification),
    identityId: id(body.identity) ?? id(body.identityId) ?? lastIdAfter(body.matiDashboardUrl, 'identities') ?? null,
    flowId: id(body.flowId) ?? id(flow.id),
    status: isDecision ? mapMetamapStatus(identityStatus) : null,
    metadata: parseMetadata(body.metadata),
  };
}

/**
 * SPEC §2.4: the widget runs the re-verification flow for a person MetaMap already knows (an
 * identity id from an earlier check), the verification flow otherwise.
 */
export function metamapFlowId(
  options: { flowId: string; reverificationFlowId: string },
  matiIdentityId: string | null,
): string {
  return matiIdentityId ? options.reverificationFlowId : options.flowId;
}
