import { randomBytes } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { invalidFields } from '../../errors.js';

/** A new signing secret in Standard Webhooks' form: `whsec_` and 32 random bytes in base64. */
export const newEndpointSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** Whether the address is a public one, or inside a network the configuration allows. */
function allowedAddress(address: string, allowedNetworks: string[]): boolean {
  const parsed = ipaddr.process(address);
  if (
    allowedNetworks.some((network) => {
      const [range, bits] = ipaddr.parseCIDR(network);
      return range.kind() === parsed.kind() && parsed.match(range, bits);
    })
  )
    return true;
  return parsed.range() === 'unicast';
}

const refuse = (message: string) => invalidFields({ url: message });

/** How long an admin waits for DNS to answer for a new endpoint's host before it is refused. */
const LOOKUP_TIMEOUT_MS = 3_000;

/** The host's addresses, or a failure once `ms` passed (a lookup cannot be cancelled; its answer is dropped). */
function lookupWithin(host: string, ms: number) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('dns timeout')), ms);
  });
  return Promise.race([lookup(host, { all: true }), late]).finally(() => clearTimeout(timer));
}

/**
 * An endpoint's address as an admin typed it: https (http only outside production), no user or
 * password in it, and a host that is, and resolves to, public addresses only, unless its network
 * is allowed (WEBHOOK_ALLOWED_NETWORKS). Each send checks the address again as it connects.
 */
export async function checkEndpointUrl(
  value: string,
  config: { NODE_ENV: string; WEBHOOK_ALLOWED_NETWORKS: string[] },
): Promise<string> {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw refuse('* Escribe una dirección completa, como https://ejemplo.com/webhooks.');
  }
  const httpAllowed = config.NODE_ENV !== 'production';
  if (url.protocol !== 'https:' && !(httpAllowed && url.protocol === 'http:'))
    throw refuse('* La dirección debe empezar con https://.');
  if (url.username || url.password) throw refuse('* La dirección no debe llevar usuario ni contraseña.');
  if (url.hash) throw refuse('* La dirección no debe llevar fragmento (#).');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (ipaddr.isValid(host)) addresses = [host];
  else {
    try {
      addresses = (await lookupWithin(host, LOOKUP_TIMEOUT_MS)).map((entry) => entry.address);
    } catch {
      throw refuse('* No encontramos ese servidor. Revisa la dirección.');
    }
  }
  if (!addresses.every((address) => allowedAddress(address, config.WEBHOOK_ALLOWED_NETWORKS)))
    throw refuse('* La dirección apunta a una red privada o local: no se permite.');
  return url.toString();
}
