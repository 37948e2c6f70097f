import { timestampRequest, tokenFromResponse } from '../../pki/tsp.js';
import { TimestampUnavailable, type TimestampAuthority } from './types.js';

/** RFC 3161 over HTTP (its section 3.4): the DER request POSTed, the DER answer read back. */
export function httpAuthority(url: string, timeoutMs: number): TimestampAuthority {
  return {
    name: url,
    async stamp(data) {
      const request = timestampRequest(data);
      let answer: Response;
      try {
        answer = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/timestamp-query', accept: 'application/timestamp-reply' },
          body: request.der,
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        throw new TimestampUnavailable(`the authority did not answer: ${(error as Error).message}`);
      }
      if (!answer.ok) throw new TimestampUnavailable(`the authority answered HTTP ${answer.status}`);
      const body = new Uint8Array(await answer.arrayBuffer());
      try {
        return await tokenFromResponse(body, request);
      } catch (error) {
        throw new TimestampUnavailable((error as Error).message);
      }
    },
  };
}
