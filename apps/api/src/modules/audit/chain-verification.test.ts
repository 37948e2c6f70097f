import { desc, eq, sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { auditChainCheckpoints, auditEvents } from '../../db/schema.js';
import { useTestApp } from '../../test/test-app.js';
import { appendAuditEvent } from './audit.service.js';
import { verifyAuditChain, verifyAuditChainSinceCheckpoint } from './chain-verification.js';
import { advanceCheckpoint, readCheckpoint, saveCheckpoint } from './checkpoints.store.js';
import { hashEvent } from './hash-event.js';

describe('audit chain checkpoints (decision 040)', () => {
  const t = useTestApp();
  const db = () => t.app.db;

  /** `count` more events at the end of the chain, linked and hashed as appendAuditEvent does, inserted in bulk. */
  async function grow(chainId: string, count: number) {
    const [last] = await db()
      .select({ hash: auditEvents.hash })
      .from(auditEvents)
      .where(eq(auditEvents.applicationId, chainId))
      .orderBy(desc(auditEvents.id))
      .limit(1);
    let prevHash = last?.hash ?? null;
    const rows = Array.from({ length: count }, (_, n) => {
      const unhashed = {
        applicationId: chainId,
        actor: 'system',
        type: 'step.saved',
        payload: { n, step: 'ACCOUNT_NIP' },
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, n % 60)),
        prevHash,
      };
      prevHash = hashEvent(unhashed);
      return { ...unhashed, hash: prevHash };
    });
    for (let i = 0; i < rows.length; i += 500)
      await db()
        .insert(auditEvents)
        .values(rows.slice(i, i + 500));
  }
  const ids = async (chainId: string) =>
    (
      await db()
        .select({ id: auditEvents.id })
        .from(auditEvents)
        .where(eq(auditEvents.applicationId, chainId))
        .orderBy(auditEvents.id)
    ).map((row) => row.id);
  /** Someone with database access edits a stored event (the append-only trigger switched off first). */
  async function tamper(statement: ReturnType<typeof sql>) {
    await db().transaction(async (tx) => {
      await tx.execute(sql`alter table audit_events disable trigger audit_events_no_update_or_delete`);
      await tx.execute(statement);
      await tx.execute(sql`alter table audit_events enable trigger audit_events_no_update_or_delete`);
    });
  }

  it('a chain is walked once; each later read verifies only the events after its checkpoint, which moves on', async () => {
    await grow('cp-grow', 2_500);
    expect(await readCheckpoint(db(), 'cp-grow')).toBeUndefined();
    expect(await verifyAuditChainSinceCheckpoint(db(), 'cp-grow')).toEqual({ valid: true, events: 2_500 });
    const all = await ids('cp-grow');
    expect(await readCheckpoint(db(), 'cp-grow')).toMatchObject({ eventId: all.at(-1), events: 2_500 });

    await appendAuditEvent(db(), { applicationId: 'cp-grow', actor: 'system', type: 'x', payload: {}, at: new Date() });
    expect(await verifyAuditChainSinceCheckpoint(db(), 'cp-grow')).toEqual({ valid: true, events: 2_501 });
    expect((await readCheckpoint(db(), 'cp-grow'))?.events).toBe(2_501);

    // The trade-off: an edit before the checkpoint is not walked by the reads; the full verification
    // finds it and drops the checkpoint, so the reads walk the whole chain again and report it too.
    await tamper(sql`update audit_events set payload = '{"n":-1}' where id = ${all[10]}`);
    expect(await verifyAuditChainSinceCheckpoint(db(), 'cp-grow')).toEqual({ valid: true, events: 2_501 });
    const broken = { valid: false, events: 2_501, brokenAt: all[10], reason: 'hash-mismatch' };
    expect(await verifyAuditChain(db(), 'cp-grow')).toEqual(broken);
    expect(await readCheckpoint(db(), 'cp-grow')).toBeUndefined();
    expect(await verifyAuditChainSinceCheckpoint(db(), 'cp-grow')).toEqual(broken);
    expect(await readCheckpoint(db(), 'cp-grow')).toBeUndefined();
  });

  it('an event edited or removed after the checkpoint: invalid where it breaks, and the checkpoint stays', async () => {
    await grow('cp-tail', 40);
    await verifyAuditChainSinceCheckpoint(db(), 'cp-tail');
    const checkpoint = await readCheckpoint(db(), 'cp-tail');
    await grow('cp-tail', 20);
    const all = await ids('cp-tail');
    await tamper(sql`update audit_events set payload = '{"n":"edited"}' where id = ${all[45]}`);
    expect(await verifyAuditChainSinceCheckpoint(db(), 'cp-tail')).toEqual({
      valid: false,
      events: 60,
      brokenAt: all[45],
      reason: 'hash-mismatch',
    });
    await tamper(sql`delete from audit_events where id = ${all[50]}`);
    // The first break is still the edited event; a later read says the same.
    expect(await verifyAuditChainSinceCheckpoint(db(), 'cp-tail')).toMatchObject({ valid: false, brokenAt: all[45] });
    expect(await readCheckpoint(db(), 'cp-tail')).toEqual(checkpoint);
  });

  it('the first event after the checkpoint must link to the checkpoint’s hash', async () => {
    await grow('cp-link', 10);
    await verifyAuditChainSinceCheckpoint(db(), 'cp-link');
    await grow('cp-link', 5);
    const all = await ids('cp-link');
    await tamper(sql`delete from audit_events where id = ${all[10]}`);
    expect(await verifyAuditChainSinceCheckpoint(db(), 'cp-link')).toEqual({
      valid: false,
      events: 14,
      brokenAt: all[11],
      reason: 'link-mismatch',
    });
  });

  it('the checkpointed event itself edited, or the chain rewritten consistently from it: invalid', async () => {
    await grow('cp-anchor', 30);
    await verifyAuditChainSinceCheckpoint(db(), 'cp-anchor');
    const anchor = (await readCheckpoint(db(), 'cp-anchor'))!.eventId;
    await tamper(sql`update audit_events set payload = '{"n":"edited"}' where id = ${anchor}`);
    expect(await verifyAuditChainSinceCheckpoint(db(), 'cp-anchor')).toEqual({
      valid: false,
      events: 30,
      brokenAt: anchor,
      reason: 'hash-mismatch',
    });

    // Edited with its hash recomputed (no later event to link to it): the checkpoint remembers the hash verified.
    await grow('cp-rewrite', 30);
    await verifyAuditChainSinceCheckpoint(db(), 'cp-rewrite');
    const verified = (await readCheckpoint(db(), 'cp-rewrite'))!;
    const [row] = await db().select().from(auditEvents).where(eq(auditEvents.id, verified.eventId));
    const forged = hashEvent({ ...row!, payload: { n: 'forged' } });
    await tamper(sql`update audit_events set payload = '{"n":"forged"}', hash = ${forged} where id = ${row!.id}`);
    const rewritten = { valid: false, events: 30, brokenAt: verified.eventId, reason: 'hash-mismatch' };
    expect(await verifyAuditChainSinceCheckpoint(db(), 'cp-rewrite')).toEqual(rewritten);
    expect(await verifyAuditChain(db(), 'cp-rewrite')).toEqual(rewritten);
    expect(await readCheckpoint(db(), 'cp-rewrite')).toEqual(verified);
  });

  it('parallel reads while the chain grows never move the checkpoint back', async () => {
    await grow('cp-race', 50);
    await verifyAuditChainSinceCheckpoint(db(), 'cp-race');
    const reached = await Promise.all(
      Array.from({ length: 20 }, async (_, n) => {
        if (n % 2 === 0) {
          const at = new Date();
          await appendAuditEvent(db(), { applicationId: 'cp-race', actor: 'system', type: 'x', payload: { n }, at });
          return 0;
        }
        const verification = await verifyAuditChainSinceCheckpoint(db(), 'cp-race');
        expect(verification.valid).toBe(true);
        return verification.events;
      }),
    );
    expect((await readCheckpoint(db(), 'cp-race'))!.events).toBeGreaterThanOrEqual(Math.max(...reached));

    // A slower read that reached an older event writes after a faster one: nothing moves back.
    expect(await verifyAuditChainSinceCheckpoint(db(), 'cp-race')).toEqual({ valid: true, events: 60 });
    const newest = await readCheckpoint(db(), 'cp-race');
    expect(newest?.events).toBe(60);
    const older = { eventId: (await ids('cp-race'))[40]!, hash: 'older', events: 41 };
    await advanceCheckpoint(db(), 'cp-race', older);
    await saveCheckpoint(db(), 'cp-race', older);
    expect(await readCheckpoint(db(), 'cp-race')).toEqual(newest);
  });

  it('a checkpoint that cannot be written does not fail the read: it is logged', async () => {
    await grow('cp-refused', 5);
    await db().execute(sql`create function refuse_checkpoint() returns trigger language plpgsql as $$
      begin raise exception 'checkpoints refused'; end $$`);
    await db().execute(sql`create trigger refuse_checkpoint before insert or update on audit_chain_checkpoints
      for each row execute function refuse_checkpoint()`);
    try {
      const log = { warn: vi.fn() };
      expect(await verifyAuditChainSinceCheckpoint(db(), 'cp-refused', { log })).toEqual({ valid: true, events: 5 });
      expect(log.warn).toHaveBeenCalledWith(expect.anything(), 'audit chain checkpoint not written');
    } finally {
      await db().execute(sql`drop trigger refuse_checkpoint on audit_chain_checkpoints`);
      await db().execute(sql`drop function refuse_checkpoint()`);
    }
    expect(
      await db().select().from(auditChainCheckpoints).where(eq(auditChainCheckpoints.applicationId, 'cp-refused')),
    ).toEqual([]);
  });
});
