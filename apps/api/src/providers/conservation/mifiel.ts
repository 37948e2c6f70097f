import { createHash, createHmac } from 'node:crypto';
import { checkConservationRecord } from '../../pki/tsp.js';
import { ConservationUnavailable, type ConservationProvider } from './types.js';

/**
 * NOM-151 constancias from Mifiel's PSC API: we send only the document's SHA-256 and get back the
 * constancia, an RFC 3161 TimeStampResp (DER, base64) over it, which is checked here before it is
 * kept (granted, over our hash, signed by the certificate it carries).
 *
 * Sources:
 * - The endpoint and its fields (POST {base}/psc/nom151 with `hash` and `external_id`; an answer
 *   with `id`, `nom151`, `created_at`, `certificate`, `hash`):
 *   https://blog.mifiel.com/api-nom-151-constancias-conservacion
 * - The authentication, "APIAuth" (HMAC-SHA1 over a canonical string), from Mifiel's API
 *   documentation (github.com/Mifiel/api-doc, "Authentication"), its JS client
 *   (github.com/Mifiel/mifiel-js, packages/api-client-auth, whose test vector is in mifiel.test.ts)
 *   and the gem both are built on, github.com/mgomes/api_auth (the server's check: the same
 *   canonical string, Content-MD5 against the body when sent, the Date within 900 s).
 *
 * Not confirmed from public material, so to check against Mifiel's sandbox before production:
 * - The endpoint, its fields and the answer's shape are as summarized from the blog post above;
 *   Mifiel's API reference (github.com/Mifiel/api-doc) and its clients do not document this
 *   endpoint, and the post itself could not be re-read when this was written.
 * - The body's encoding: JSON is assumed (what mifiel-js sends); Mifiel's API documentation shows
 *   multipart form posts for documents, and a form body may be what this endpoint expects.
 * - The answer's status (201 is assumed; any 2xx is accepted) and its errors' shape.
 * - Whether `hash` is echoed as we sent it (compared here without regard to case).
 * - Which api_auth version Mifiel's servers run. Up to 2.4 the canonical string's third field is
 *   Content-MD5 (checked against the body when sent), as Mifiel's documentation says and as done
 *   here; api_auth 2.5 puts X-Authorization-Content-SHA256 there instead, and such a server would
 *   refuse this signature (401). mifiel-js signs an empty third field and sends Content-MD5 '',
 *   which 1.x and 2.5+ accept but 2.0 to 2.4 refuse (they check even an empty Content-MD5).
 * - The `certificate` field is not relied on: the token carries the signer's certificate.
 */

export interface MifielOptions {
  /** Up to the version, e.g. https://app.mifiel.com/api/v1 (MIFIEL_BASE_URL). */
  baseUrl: string;
  appId: string;
  appSecret: string;
  /** Per request; 15 s unless told. */
  timeoutMs?: number;
  /** The request's Date (what the server compares with its clock). */
  clock?: () => Date;
}

/** Mifiel did not give a constancia; `status` is its HTTP status when it answered. */
export class MifielUnavailable extends ConservationUnavailable {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface ApiAuthParts {
  method: string;
  /** The Content-Type header as sent ('' without one). */
  contentType: string;
  /** The Content-MD5 header as sent ('' without one). */
  contentMd5: string;
  /** Path and query, as the server sees them: '/api/v1/psc/nom151'. */
  requestUri: string;
  /** The Date header as sent (RFC 1123, GMT). */
  date: string;
}

/** api_auth's canonical string: `METHOD,content-type,content-md5,request-uri,date`. */
export const apiAuthCanonicalString = (parts: ApiAuthParts) =>
  [parts.method.toUpperCase(), parts.contentType, parts.contentMd5, parts.requestUri, parts.date].join(',');

/** The signature of a canonical string: base64 of its HMAC-SHA1 under the app secret. */
export const apiAuthSignature = (canonical: string, appSecret: string) =>
  createHmac('sha1', appSecret).update(canonical).digest('base64');

/** The Authorization header's value: `APIAuth <app id>:<signature>`. */
export const apiAuthAuthorization = (parts: ApiAuthParts, appId: string, appSecret: string) =>
  `APIAuth ${appId}:${apiAuthSignature(apiAuthCanonicalString(parts), appSecret)}`;

interface MifielNom151 {
  id?: unknown;
  nom151?: unknown;
  hash?: unknown;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export function createMifielConservation(options: MifielOptions): ConservationProvider {
  const { appId, appSecret } = options;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const clock = options.clock ?? (() => new Date());
  const url = new URL(`${options.baseUrl.replace(/\/+$/, '')}/psc/nom151`);
  // Whatever Mifiel answers goes into our messages (and logs), never the secret.
  const scrub = (text: string) => text.replaceAll(appSecret, '[secret]').slice(0, 300);

  return {
    name: 'mifiel',
    async certify(document, reference) {
      const sha256 = createHash('sha256').update(document).digest('hex');
      const body = JSON.stringify({ hash: sha256, external_id: reference });
      const parts: ApiAuthParts = {
        method: 'POST',
        contentType: 'application/json',
        contentMd5: createHash('md5').update(body).digest('base64'),
        requestUri: `${url.pathname}${url.search}`,
        date: clock().toUTCString(),
      };
      let response: Response;
      let text: string;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': parts.contentType,
            'content-md5': parts.contentMd5,
            date: parts.date,
            authorization: apiAuthAuthorization(parts, appId, appSecret),
            accept: 'application/json',
          },
          body,
          signal: AbortSignal.timeout(timeoutMs),
        });
        text = await response.text();
      } catch (error) {
        throw new MifielUnavailable(`mifiel did not answer: ${scrub((error as Error).message)}`);
      }
      if (!response.ok)
        throw new MifielUnavailable(`mifiel answered HTTP ${response.status}: ${scrub(text)}`, response.status);

      let answer: MifielNom151;
      try {
        answer = JSON.parse(text) as MifielNom151;
      } catch {
        throw new MifielUnavailable('mifiel answered something that is not JSON', response.status);
      }
      const { id, nom151, hash } = answer ?? {};
      if (typeof id !== 'string' || !id || typeof nom151 !== 'string' || !BASE64.test(nom151))
        throw new MifielUnavailable('mifiel’s answer has no id or no constancia (nom151)', response.status);
      if (typeof hash !== 'string' || hash.toLowerCase() !== sha256)
        throw new MifielUnavailable('mifiel’s answer is for another hash', response.status);

      const record = new Uint8Array(Buffer.from(nom151, 'base64'));
      let genTime: Date;
      try {
        ({ genTime } = await checkConservationRecord(record, document));
      } catch (error) {
        throw new MifielUnavailable(`mifiel’s constancia does not hold: ${(error as Error).message}`, response.status);
      }
      return { reference: id, record, issuedAt: genTime };
    },
  };
}
