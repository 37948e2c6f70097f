import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../src/test/test-app.js';

/**
 * Issue 26 §3: a caller without a token learns nothing from validation. Every route of the public
 * API that takes a user id or a bearer token, generated from the OpenAPI document, answers 401 to a
 * request with no token, whatever is wrong with the rest of it (a malformed id, a missing query, an
 * empty or invalid body): the token is checked before anything is parsed. A new route is checked
 * as soon as it exists.
 */
describe('authentication before validation', () => {
  const t = useTestApp();

  it('every route with a user id or a bearer token answers 401, not 400, to a caller without a token', async () => {
    const doc = t.app.swagger() as {
      paths: Record<string, Record<string, { security?: Record<string, unknown>[] }>>;
    };
    const routes = Object.entries(doc.paths)
      .filter(([path]) => /^\/api\/v\d\//.test(path))
      .flatMap(([path, methods]) =>
        Object.entries(methods)
          .filter(
            ([, operation]) =>
              (path.includes('/users/') && /\{id\}/.test(path)) ||
              (operation.security ?? []).some((scheme) => 'bearer' in scheme),
          )
          .map(([method]) => ({ method: method.toUpperCase(), path })),
      );
    expect(routes.length).toBeGreaterThanOrEqual(24);
    const problems: string[] = [];
    for (const { method, path } of routes) {
      // A malformed id and type, no query, and a body that fails every schema.
      const url = path
        .replace('{id}', 'not-a-user-id')
        .replace('{type}', 'ZZ')
        .replace(/\{[^}]+\}/g, 'x');
      const bodies = method === 'GET' ? [undefined] : [undefined, '{}', '{"nip":12,"phone_number":[]}'];
      for (const payload of bodies) {
        const res = await t.app.inject({
          method: method as 'POST',
          url,
          ...(payload === undefined ? {} : { payload, headers: { 'content-type': 'application/json' } }),
        });
        if (res.statusCode !== 401) problems.push(`${method} ${path} ${payload ?? '(no body)'}: ${res.statusCode}`);
        else expect(res.json().readable_message, `${method} ${path}`).toBeTruthy();
      }
    }
    expect(problems).toEqual([]);
  });
});
