// The signed copy's SMS is a job of the signature's transaction (decision 029): with the SMS
// provider down (a stand-in for Twilio's Messages API over real HTTP), the signature stands and the
// copy is sent again until the provider is back; when every try failed, the trail says so.
import { createServer, type Server } from 'node:http';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditEvents, contractSigners } from '../../db/schema.js';
import { createPng } from '../../test/factories.js';
import { MANY_UPLOADS_ENV, sendSignature, verifiedSigner } from '../../test/signer.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { JOB_STATES, listJobs } from '../jobs/index.js';
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
    const answer = status === 201 ? { sid: `SM${copies.length}` } : { code: 20503, message: 'Service unavailable' };
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
    // Each try issued its own link; the last one went out. Nothing says the copy was lost.
    expect(await eventsOf(signer.userId, 'contract.copy_link_issued')).toHaveLength(3);
    expect(await eventsOf(signer.userId, 'contract.copy_not_sent')).toEqual([]);
  });

  it('when the last try fails too, the application’s trail says the copy was not sent', async () => {
    const signer = await verifiedSigner(t.app);
    const [row] = await t.app.db.select().from(contractSigners).where(eq(contractSigners.userId, signer.userId));
    copyOutages = 1;
    const job = contractCopyJob(signingDeps(t.app));
    await expect(job.run({ signer_id: row!.id }, { retry: job.retryLimit, last: true })).rejects.toThrow();
    expect(await eventsOf(signer.userId, 'contract.copy_not_sent')).toMatchObject([
      { actor: 'system', payload: { signer_id: row!.id } },
    ]);
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
    // This run's own SMS (the queue's own try of the same copy may be in flight meanwhile).
    const sent: string[] = [];
    const deps = signingDeps(t.app);
    const job = contractCopyJob({ ...deps, sendSms: async (to) => void sent.push(to) });
    await expect(job.run({ signer_id: row!.id }, { retry: 0, last: false })).resolves.toBeUndefined();
    expect(sent).toEqual([]);
  });
});
