import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { useAgent } from 'request-filtering-agent';

export interface PostOutcome {
  ok: boolean;
  statusCode: number | null;
  /** Why it failed, in a few words (never the receiver's body). */
  error: string | null;
}

/**
 * POSTs a webhook's body. The connection goes only to a public address (request-filtering-agent
 * checks the address DNS answered, so a name that moves to a private one is refused too) unless
 * `allowedNetworks` names it; redirects are not followed; only a 2xx is a delivery. The answer's
 * status is all that is read (its body is dropped), and the whole exchange has `timeoutMs`: a
 * receiver that trickles its answer cannot hold a send past its lease.
 */
export function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { timeoutMs: number; allowedNetworks: string[] },
): Promise<PostOutcome> {
  const agent = useAgent(url, { allowIPAddressList: options.allowedNetworks, keepAlive: false });
  const request = url.startsWith('https:') ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve(outcome);
    };
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const code = res.statusCode ?? 0;
        const ok = code >= 200 && code < 300;
        settle({ ok, statusCode: code, error: ok ? null : `HTTP ${code}` });
        res.destroy();
      },
    );
    const deadline = setTimeout(() => {
      settle({ ok: false, statusCode: null, error: 'sin respuesta a tiempo' });
      req.destroy();
    }, options.timeoutMs);
    req.on('error', (error) => settle({ ok: false, statusCode: null, error: describe(error) }));
    req.end(body);
  });
}

/** A network failure in a few words: its code (ECONNREFUSED…) or the filter's refusal. */
function describe(error: Error & { code?: string }): string {
  if (/is not allowed/.test(error.message)) return 'dirección privada no permitida';
  return (error.code ?? error.message).slice(0, 200);
}
