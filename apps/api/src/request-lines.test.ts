import { describe, expect, it } from 'vitest';
import { needsLine } from './request-lines.js';
import { withTestApp } from './test/test-app.js';

describe('which answered requests get a line (decision 044)', () => {
  const never = needsLine({ readSample: 0, slowMs: 500 });

  it("skips an applicant's successful quick reads when none are sampled", () => {
    expect(never('GET', '/api/v1/config', 200, 3)).toBe(false);
    expect(never('HEAD', '/assets/index.js', 304, 1)).toBe(false);
    expect(never('GET', '/healthz', 200, 0.4)).toBe(false);
  });

  it('keeps every write, refusal, error, slow answer and request of staff or the lender', () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'])
      expect(never(method, '/api/v1/users/code', 200, 3)).toBe(true);
    expect(never('GET', '/api/v1/users/8095551234', 401, 2)).toBe(true);
    expect(never('GET', '/api/v1/nope', 404, 1)).toBe(true);
    expect(never('GET', '/api/v1/config', 503, 1)).toBe(true);
    expect(never('GET', '/api/v1/config', 200, 500)).toBe(true);
    expect(never('GET', '/api/backoffice/applications?page=2', 200, 4)).toBe(true);
    expect(never('GET', '/partner/v1/applications/abc', 200, 4)).toBe(true);
    // A path that only starts like the staff's is an applicant's.
    expect(never('GET', '/api/backofficeX/', 200, 4)).toBe(false);
  });

  it('samples the reads at the share asked for', () => {
    let draws = 0;
    const random = () => (draws++ % 10) / 10; // 0.0, 0.1, … 0.9, 0.0, …
    const tenth = needsLine({ readSample: 0.1, slowMs: 500, random });
    const logged = Array.from({ length: 100 }, () => tenth('GET', '/api/v1/config', 200, 2)).filter(Boolean);
    expect(logged).toHaveLength(10);
    expect(needsLine({ readSample: 1, slowMs: 500, random: () => 0.99 })('GET', '/api/v1/config', 200, 2)).toBe(true);
  });

  it('the built server writes the lines the rule asks for, and every error', () =>
    withTestApp({ LOG_READ_SAMPLE: '0', RATE_LIMIT_PER_MINUTE: '1000' }, async (t) => {
      const lineOf = (id: unknown) => t.logs.filter((line) => line.reqId === id);
      const read = await t.app.inject({ method: 'GET', url: '/api/v1/config' });
      expect(read.statusCode).toBe(200);
      const refused = await t.app.inject({ method: 'GET', url: '/api/v1/users?phone_number=8095551234' });
      expect(refused.statusCode).toBeGreaterThanOrEqual(400);
      const write = await t.app.inject({ method: 'POST', url: '/api/v1/users/code', payload: {} });
      // Lines go out once per turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
      expect(lineOf(read.headers['x-request-id'])).toEqual([]);
      for (const res of [refused, write])
        expect(lineOf(res.headers['x-request-id'])).toMatchObject([
          { msg: 'request completed', res: { statusCode: res.statusCode } },
        ]);
    }));
});
