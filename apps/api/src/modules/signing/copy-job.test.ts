// The signed copy is a job of the signature's transaction (decision 029) that issues the copy's link
// with its message (decision 038): with the SMS provider down (a stand-in for Twilio's Messages API
// over real HTTP), the signature stands and the message is sent again until the provider is back;
// when every try failed, the back office's list of messages says so.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditEvents, contractSigners, outgoingMessages } from '../../db/schema.js';
import { createPng } from '../../test/factories.js';
import { MANY_UPLOADS_ENV, sendSignature, verifiedSigner } from '../../test/signer.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { JOB_STATES, listJobs } from '../jobs/index.js';
import { MESSAGE_SEND_JOB } from '../messaging/index.js';
import { eraseApplication } from '../privacy/index.js';
import { CONTRACT_COPY_JOB, contractCopyJob } from './copy-job.js';
import { signingDeps } from './deps.js';

/** Twilio's Messages API, down for the next `copyOutages` copies (503), up for everything else. */
let copyOutages = 0;
const copies: { status: number; to: string }[] = [];
let server: Server;
let t: TestApp;

beforeAll(async () => {
  server = createServer(async (request, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    const form = new URLSearchParams(body);
    let status = 201;
    if (form.get('Body')?.includes('Tu copia')) {
      status = copyOutages > 0 ? 503 : 201;
      copyOutages = Math.max(0, copyOutages - 1);
      copies.push({ status, to: form.get('To') ?? '' });
    }
    const answer =
      status === 201
        ? { sid: `SM${randomUUID().replaceAll('-', '')}` }
        : { code: 20503, message: 'Service unavailable' };
    response.writeHead(status, { 'content-type': 'application/json', connection: 'close' }).end(JSON.stringify(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t = await createTestApp({
    ...MANY_UPLOADS_ENV,
    SMS_PROVIDER: 'twilio',
    TWILIO_API_URL: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    TWILIO_ACCOUNT_SID: 'AC999',
    TWILIO_AUTH_TOKEN: 'tok',
    TWILIO_FROM: '+18095550000',
    JOB_POLL_INTERVAL_MS: '500',
    JOB_RETRY_DELAY_SECONDS: '1',
  });
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const copyMessages = (userId: string) =>
  t.app.db
    .select()
    .from(outgoingMessages)
    .where(and(eq(outgoingMessages.applicationId, userId), eq(outgoingMessages.kind, 'signed-copy')));

const eventsOf = async (userId: string, type: string) =>
  t.app.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.applicationId, userId), eq(auditEvents.type, type)));

describe('the signed copy by SMS, through the job queue', () => {
  it('with the SMS provider down, the signature stands at once and the copy arrives once it is back', async () => {
    const signer = await verifiedSigner(t.app);
    copyOutages = 2;
    const signed = await sendSignature(t.app, signer, createPng({ width: 300, height: 470 }));
    expect(signed.statusCode, signed.body).toBe(200);
    await vi.waitFor(() => expect(copies.map((copy) => copy.status)).toEqual([503, 503, 201]), {
      timeout: 20_000,
      interval: 200,
    });
    // One link, one message: tried again by the queue until it went out.
    expect(await eventsOf(signer.userId, 'contract.copy_link_issued')).toHaveLength(1);
    expect(await eventsOf(signer.userId, 'contract.copy_not_sent')).toEqual([]);
    await vi.waitFor(async () => expect(await copyMessages(signer.userId)).toMatchObject([{ status: 'queued' }]));
  });

  it('when the message’s last try fails too, its status and the application’s trail say so', async () => {
    const signer = await verifiedSigner(t.app);
    copyOutages = 100;
    const signed = await sendSignature(t.app, signer, createPng({ width: 300, height: 470 }));
    expect(signed.statusCode, signed.body).toBe(200);
    await vi.waitFor(async () => expect(await copyMessages(signer.userId)).toHaveLength(1), { timeout: 10_000 });
    const [message] = await copyMessages(signer.userId);
    const send = t.app.jobs.kind(MESSAGE_SEND_JOB)!;
    await expect(send.run({ messageId: message!.id }, { retry: 14, last: true })).rejects.toThrow();
    expect(await copyMessages(signer.userId)).toMatchObject([{ status: 'failed', sealed: null }]);
    // The trail says so, for the back office to send it again.
    expect(await eventsOf(signer.userId, 'contract.copy_not_sent')).toMatchObject([{ actor: 'system' }]);
    copyOutages = 0;
  });

  it('five signatures of one signer at once: one stands, and one copy job with it', async () => {
    const signer = await verifiedSigner(t.app);
    const [row] = await t.app.db.select().from(contractSigners).where(eq(contractSigners.userId, signer.userId));
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => sendSignature(t.app, signer, createPng({ width: 300, height: 470 }))),
    );
    expect(answers.filter((res) => res.statusCode === 200)).toHaveLength(1);
    const jobs = await listJobs(t.app.db, { states: [...JOB_STATES], name: CONTRACT_COPY_JOB, limit: 100 });
    expect(jobs.filter((job) => (job.data as { signer_id: string }).signer_id === row!.id)).toHaveLength(1);
  });

  it('a copy for a signer erased meanwhile (issue 31): the job ends at once, no SMS', async () => {
    const signer = await verifiedSigner(t.app);
    const signed = await sendSignature(t.app, signer, createPng({ width: 300, height: 470 }));
    expect(signed.statusCode, signed.body).toBe(200);
    await t.app.db.transaction((tx) =>
      eraseApplication(t.app, tx, signer.userId, 'staff:test', { contractTermPassed: true }),
    );
    const [row] = await t.app.db.select().from(contractSigners).where(eq(contractSigners.userId, signer.userId));
    // The queue's own try of the same copy may be running: it is let finish (a message of its own
    // when it ran before the erasure), then this run enqueues none.
    await vi.waitFor(
      async () => {
        const jobs = await listJobs(t.app.db, { states: [...JOB_STATES], name: CONTRACT_COPY_JOB, limit: 100 });
        const own = jobs.filter((job) => (job.data as { signer_id: string }).signer_id === row!.id);
        expect(own.map((job) => job.state)).toEqual(['completed']);
      },
      { timeout: 10_000, interval: 100 },
    );
    const before = (await copyMessages(signer.userId)).length;
    const job = contractCopyJob(signingDeps(t.app));
    await expect(job.run({ signer_id: row!.id }, { retry: 0, last: false })).resolves.toBeUndefined();
    expect(await copyMessages(signer.userId)).toHaveLength(before);
  });
});
