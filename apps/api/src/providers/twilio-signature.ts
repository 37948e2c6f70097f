import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Twilio signs each webhook call in X-Twilio-Signature: base64 HMAC-SHA1, keyed with the auth
 * token, of the full URL it called followed by every POST parameter name and value, names sorted
 * (https://www.twilio.com/docs/usage/security#validating-requests). Inbound messages (reverse OTP,
 * replies) and status callbacks alike.
 */
export const TWILIO_SIGNATURE_HEADER = 'x-twilio-signature';

/** An empty TwiML document: received, no reply message. */
export const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';

/** The POST parameters as Twilio signs them: a name repeated keeps each of its values. */
function formParams(rawBody: string): Map<string, string[]> {
  const params = new Map<string, string[]>();
  for (const [name, value] of new URLSearchParams(rawBody)) params.set(name, [...(params.get(name) ?? []), value]);
  return params;
}

/**
 * The X-Twilio-Signature Twilio sends for a call to `url` with these POST parameters. A name with
 * several values contributes each distinct value, sorted (as Twilio's own libraries compute it).
 */
export function twilioSignature(
  authToken: string,
  url: string,
  params: Iterable<readonly [string, string | readonly string[]]>,
): string {
  const grouped = new Map<string, string[]>();
  for (const [name, value] of params) grouped.set(name, [...(grouped.get(name) ?? []), ...[value].flat()]);
  let data = url;
  for (const name of [...grouped.keys()].sort()) {
    for (const value of [...new Set(grouped.get(name))].sort()) data += name + value;
  }
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

/** The URL as configured and, when it has no port, with the scheme's default port: Twilio may sign either. */
function urlVariants(url: string): string[] {
  const parsed = new URL(url);
  if (parsed.port) return [parsed.toString()];
  const withPort = `${parsed.protocol}//${parsed.host}:${parsed.protocol === 'https:' ? 443 : 80}${parsed.pathname}${parsed.search}`;
  return [parsed.toString(), withPort];
}

function sameSignature(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Whether a call to `requestUrl` (path and query, as this server saw it) was signed by Twilio. */
export function verifyTwilioSignature(
  options: { authToken: string; publicBaseUrl: string },
  rawBody: string,
  headers: Record<string, string | string[] | undefined>,
  requestUrl: string,
): boolean {
  const header = headers[TWILIO_SIGNATURE_HEADER];
  if (typeof header !== 'string' || header.length === 0) return false;
  let variants: string[];
  try {
    // The URL Twilio called is the public one (the Host header is the proxy's business).
    variants = urlVariants(`${options.publicBaseUrl.replace(/\/+$/, '')}${requestUrl}`);
  } catch {
    return false;
  }
  const params = formParams(rawBody);
  // Every variant is computed, so the time taken does not tell which one matched.
  return variants
    .map((url) => sameSignature(header, twilioSignature(options.authToken, url, params)))
    .reduce((any, match) => any || match, false);
}
