import { randomUUID } from 'node:crypto';
import type { AuditChainView, TimelinePage } from '@provee/domain';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { appendAuditEvent, listAuditEvents, phoneAuditId } from '../audit/index.js';
import { createApplication } from '../../test/factories.js';
import { staffSession } from '../../test/staff.js';
import { useTestApp } from '../../test/test-app.js';

/** Long enough that the whole timeline (~150 bytes an event) would be far over the 100 KB the detail may answer. */
const LONG = 3_000;

describe('back office: the timeline paged, verified from its checkpoint (issue 35)', () => {
  const t = useTestApp();
  let analyst: Record<string, string>;
  let advisor: Record<string, string>;
  let long: Awaited<ReturnType<typeof createApplication>>;
  let other: Awaited<ReturnType<typeof createApplication>>;
  let staffActor: string;
  beforeAll(async () => {
    const member = await staffSession(t.app, 'analyst');
    analyst = member.headers;
    advisor = (await staffSession(t.app, 'advisor')).headers;
    staffActor = `staff:${member.member.id}`;
    long = await createApplication(t.app);
    other = await createApplication(t.app);
    // Every tenth event records where it came from; every seventh is a staff member's.
    await t.app.db.transaction(async (tx) => {
      for (let n = 0; n < LONG; n += 1) {
        await appendAuditEvent(tx, {
          applicationId: long.id,
          actor: n % 7 === 0 ? staffActor : 'system',
          type: 'step.saved',
          payload: n % 10 === 0 ? { n, ip: '203.0.113.9', ip_hash: 'f'.repeat(64) } : { n },
          at: new Date(Date.UTC(2026, 0, 1, 0, 0, n % 60)),
        });
      }
    });
    for (const n of [1, 2, 3]) {
      await appendAuditEvent(t.app.db, {
        applicationId: phoneAuditId(t.app, other.phoneE164),
        actor: 'system',
        type: 'phone.proven',
        payload: { n },
        at: new Date(),
      });
    }
  });

  const detailOf = (id: string, headers = analyst) =>
    t.app.inject({ method: 'GET', url: `/api/backoffice/applications/${id}`, headers });
  const pageOf = (id: string, query: string, headers = analyst) =>
    t.app.inject({ method: 'GET', url: `/api/backoffice/applications/${id}/timeline?${query}`, headers });
  const chainOf = (detail: { timeline: AuditChainView[] }, chain: string) =>
    detail.timeline.find((entry) => entry.chain === chain)!;
  /** Every older page of a chain, from the detail's cursor to the chain's first event. */
  async function olderPages(id: string, chain: string, from: number | null, headers = analyst) {
    const pages: TimelinePage[] = [];
    for (let before = from; before !== null;) {
      const res = await pageOf(id, `chain=${chain}&before=${before}`, headers);
      expect(res.statusCode, res.body).toBe(200);
      pages.push(res.json().data);
      before = pages.at(-1)!.older_cursor;
    }
    return pages;
  }

  it('the detail answers the newest page of a long chain, under 100 KB; the older pages walk the rest exactly once', async () => {
    const res = await detailOf(long.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(Buffer.byteLength(res.body)).toBeLessThan(100_000);
    const stored = (await listAuditEvents(t.app.db, long.id)).map((event) => event.id);
    const chain = chainOf(res.json().data, 'application');
    expect(chain).toMatchObject({ valid: true, broken_at: null, total: stored.length });
    expect(chain.events.map((event) => event.id)).toEqual(stored.slice(-50));
    expect(chain.older_cursor).toBe(chain.events[0]!.id);

    const pages = await olderPages(long.id, 'application', chain.older_cursor);
    const walked = [...pages.reverse().flatMap((page) => page.events.map((event) => event.id)), ...stored.slice(-50)];
    expect(walked).toEqual(stored);
    expect(pages.every((page) => page.events.length <= 50 && page.chain === 'application')).toBe(true);
    // Actors named on older pages as on the detail.
    const named = pages.flatMap((page) => page.events).find((event) => event.actor === staffActor);
    expect(named?.actor_name).toMatch(/\(analista\)$/);
  });

  it('advisors get no addresses on older pages either; analysts do', async () => {
    const { older_cursor: cursor, total } = chainOf((await detailOf(long.id, advisor)).json().data, 'application');
    const asAdvisor = await olderPages(long.id, 'application', cursor, advisor);
    const payloads = asAdvisor.flatMap((page) => page.events.map((event) => event.payload));
    expect(payloads.length).toBe(total - 50);
    expect(payloads.some((payload) => 'ip' in payload || 'ip_hash' in payload)).toBe(false);
    expect(JSON.stringify(payloads)).not.toContain('203.0.113.9');
    const asAnalyst = (await pageOf(long.id, `chain=application&before=${cursor}`)).json().data as TimelinePage;
    expect(asAnalyst.events.some((event) => event.payload.ip === '203.0.113.9')).toBe(true);
  });

  it('a page of the phone chain is the application’s own phone’s: never another’s, never a chain named by the caller', async () => {
    const ownPhone = (await pageOf(other.id, `chain=phone&before=${Number.MAX_SAFE_INTEGER}`)).json().data;
    expect(ownPhone.events.map((event: { payload: { n: number } }) => event.payload.n)).toEqual([1, 2, 3]);
    expect(chainOf((await detailOf(other.id)).json().data, 'phone')).toMatchObject({ total: 3, older_cursor: null });
    // The long application's phone chain holds none of the other phone's events, whatever the cursor.
    const notTheirs = (await pageOf(long.id, `chain=phone&before=${Number.MAX_SAFE_INTEGER}`)).json().data;
    expect(notTheirs.events.filter((event: { type: string }) => event.type === 'phone.proven')).toEqual([]);
    const byId = await pageOf(long.id, `chain=${encodeURIComponent(phoneAuditId(t.app, other.phoneE164))}&before=9`);
    expect(byId.statusCode).toBe(400);
    expect(byId.json().issues).toEqual([
      { field: 'querystring.chain', message: 'Elige la cadena: application o phone.' },
    ]);
    expect((await pageOf(randomUUID(), 'chain=application&before=9')).statusCode).toBe(404);
  });

  it.each(['abc', '0', '-5', '1.5', '', '99999999999999999999'])(
    'a bad cursor (before=%s): 400 in Spanish',
    async (before) => {
      const res = await pageOf(long.id, `chain=application&before=${before}`);
      expect(res.statusCode).toBe(400);
      const { code, readable_message, issues } = res.json();
      expect({ code, readable_message }).toEqual({
        code: 'VALIDATION_ERROR',
        readable_message: 'Revisa los datos marcados e intenta de nuevo.',
      });
      expect(issues.length).toBeGreaterThan(0);
      for (const issue of issues) {
        expect(issue).toEqual({
          field: 'querystring.before',
          message: 'Cursor inválido: usa el older_cursor de la página anterior.',
        });
      }
    },
  );

  /** Someone with database access edits a stored event (the append-only trigger switched off first). */
  async function tamper(id: number, payload: string) {
    await t.app.db.transaction(async (tx) => {
      await tx.execute(sql`alter table audit_events disable trigger audit_events_no_update_or_delete`);
      await tx.execute(sql`update audit_events set payload = ${payload}::jsonb where id = ${id}`);
      await tx.execute(sql`alter table audit_events enable trigger audit_events_no_update_or_delete`);
    });
  }

  it('an event edited after the checkpoint, or the checkpointed event itself, shows the chain broken there', async () => {
    const fresh = await createApplication(t.app);
    const append = (n: number) =>
      appendAuditEvent(t.app.db, {
        applicationId: fresh.id,
        actor: 'system',
        type: 'step.saved',
        payload: { n },
        at: new Date(),
      });
    for (const n of [1, 2, 3]) await append(n);
    const checkpointed = await append(4);
    expect(chainOf((await detailOf(fresh.id)).json().data, 'application')).toMatchObject({ valid: true });
    const after = await append(5);
    await append(6);
    await tamper(after.id, '{"n": 50}');
    expect(chainOf((await detailOf(fresh.id)).json().data, 'application')).toMatchObject({
      valid: false,
      broken_at: after.id,
      reason: 'hash-mismatch',
    });
    await tamper(checkpointed.id, '{"n": 40}');
    expect(chainOf((await detailOf(fresh.id)).json().data, 'application')).toMatchObject({
      valid: false,
      broken_at: checkpointed.id,
      reason: 'hash-mismatch',
    });
  });
});
