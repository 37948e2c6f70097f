/** SPEC §8: which failed calls the web app reports, and how loudly. */
export type ReportLevel = 'skip' | 'warning' | 'error';

interface Expected {
  method: string;
  /** Matched against the path without /api and the query string. */
  path: RegExp;
  statuses: number[];
}

const ID = '[^/]+';
const EXPECTED: Expected[] = [
  { method: 'GET', path: /^\/v1\/users$/, statuses: [404] },
  { method: 'POST', path: /^\/v2\/users$/, statuses: [409, 422] },
  { method: 'PUT', path: new RegExp(`^/v1/users/${ID}/${ID}/nip$`), statuses: [422] },
  { method: 'POST', path: new RegExp(`^/v1/users/${ID}/${ID}/businesses/address$`), statuses: [412] },
  { method: 'POST', path: new RegExp(`^/v1/users/${ID}/${ID}/businesses$`), statuses: [412, 422] },
  { method: 'PUT', path: new RegExp(`^/v1/users/${ID}/${ID}/aval/nip$`), statuses: [422] },
  // Signing (SPEC §2.4): an expired or used link shows the new-link modal; a second signature the already-signed one.
  { method: 'GET', path: new RegExp(`^/v1/users/${ID}/${ID}/contract-link$`), statuses: [401, 409] },
  { method: 'PUT', path: new RegExp(`^/v1/users/${ID}/${ID}/contract$`), statuses: [409] },
];

export function classifyFailedCall(method: string, url: string, status: number): ReportLevel {
  const path = url.split('?')[0]!.replace(/^\/api(?=\/)/, '');
  const upper = method.toUpperCase();
  if (EXPECTED.some((rule) => rule.method === upper && rule.path.test(path) && rule.statuses.includes(status))) {
    return 'skip';
  }
  if (status >= 500 || status === 0) return 'error';
  if (status >= 400) return 'warning';
  return 'skip';
}
