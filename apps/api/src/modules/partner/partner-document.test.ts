// The partner API's document (issue 30): the typed client the API tests use is generated from it,
// and must be what the served document gives now; the document says what a lender needs.
import { readFile } from 'node:fs/promises';
import { APPLICATION_EVENT_TYPES } from '@provee/domain';
import { describe, expect, it } from 'vitest';
import { PARTNER_TYPES_FILE, partnerApiTypes } from '../../test/partner-client/generate.js';
import { useTestApp } from '../../test/test-app.js';

describe('the partner API’s OpenAPI document', () => {
  const t = useTestApp({ JOB_POLL_INTERVAL_MS: '0' });

  it('is served without a key, has only /partner/v1 and its key, and describes the webhooks', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/partner/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const document = res.json();
    const paths = Object.keys(document.paths);
    expect(paths.length).toBe(7);
    expect(paths.every((path) => path.startsWith('/partner/v1/'))).toBe(true);
    expect(document.components.securitySchemes).toEqual({ partnerKey: expect.objectContaining({ scheme: 'bearer' }) });
    for (const type of APPLICATION_EVENT_TYPES) expect(document.info.description).toContain(type);
    expect(document.info.description).toContain('webhook-signature');
  });

  it('the committed client types are the served document’s (npm run partner:client writes them again)', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/partner/v1/openapi.json' })).json();
    const committed = await readFile(PARTNER_TYPES_FILE, 'utf8');
    expect(committed === (await partnerApiTypes(document)), 'stale: run npm run partner:client').toBe(true);
    // The check bites: a document with one more field gives other types.
    document.paths['/partner/v1/events'].get.parameters.push({
      name: 'extra',
      in: 'query',
      schema: { type: 'string' },
    });
    expect(await partnerApiTypes(document)).not.toBe(committed);
  });
});
