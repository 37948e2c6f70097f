import { isIP } from 'node:net';
import { z } from 'zod';

/** More proxies than this in front of one server is a typo, not a deployment. */
export const MAX_PROXY_HOPS = 10;

/** The ranges Fastify's proxy-addr knows by name. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry) || isIP(entry) !== 0) return true;
  const [address = '', prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined || !/^\d{1,3}$/.test(prefix ?? '')) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: which X-Forwarded-For entries to believe (docs/RELIABILITY.md, README). `false` or
 * `0`: none, the connection's address is the client's. A number: that many proxies in front of the
 * server, each appending the address it saw. A comma-separated list of the proxies' addresses or
 * CIDR ranges: a hop is believed only when it came from one of them. Both are what Fastify's
 * `trustProxy` takes. `true` (every hop) is refused: behind a proxy that appends, the first entry is
 * whatever the client wrote, so a client would choose the address in the evidence and escape the
 * per-IP limits.
 */
export const trustProxySchema = z
  .string()
  .trim()
  .transform((value, ctx): false | number | string => {
    if (value === 'false' || value === '0') return false;
    if (value === 'true') {
      ctx.addIssue({
        code: 'custom',
        message:
          "'true' creería cualquier X-Forwarded-For que escriba el cliente: indica el número de proxies delante del servidor (p. ej. 1) o sus direcciones (p. ej. 10.0.0.0/8)",
      });
      return z.NEVER;
    }
    if (/^\d+$/.test(value)) {
      const hops = Number(value);
      if (hops > MAX_PROXY_HOPS) {
        ctx.addIssue({ code: 'custom', message: `como máximo ${MAX_PROXY_HOPS} proxies` });
        return z.NEVER;
      }
      return hops;
    }
    const entries = value
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    // A /0 range is every address: the same hole as `true`.
    const everything = entries.find((entry) => /\/0+$/.test(entry));
    if (everything) {
      ctx.addIssue({
        code: 'custom',
        message: `'${everything}' es cualquier dirección: creería cualquier X-Forwarded-For que escriba el cliente`,
      });
      return z.NEVER;
    }
    const wrong = entries.find((entry) => !isAddressOrRange(entry));
    if (entries.length === 0 || wrong !== undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `'${(wrong ?? value).slice(0, 60)}' no es un número de proxies ni una lista de direcciones IP o rangos CIDR`,
      });
      return z.NEVER;
    }
    return entries.join(',');
  });

/**
 * TRUST_PROXY as Fastify's `trustProxy`. A hop count becomes a function of the hop: Fastify 5.12
 * takes a bare number as "trust nothing" (it cannot check the immediate peer), so the count is
 * spelled out here: the first `hops` addresses from the connection's end of the chain are proxies,
 * the next one is the client. Addresses are Fastify's (proxy-addr's) own.
 */
export function fastifyTrustProxy(
  value: false | number | string,
): boolean | string | ((address: string, hop: number) => boolean) {
  if (typeof value === 'number') return value === 0 ? false : (_address: string, hop: number) => hop < value;
  return value;
}
