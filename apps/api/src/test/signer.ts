import { count, desc, eq, inArray, like } from 'drizzle-orm';
import { expect } from 'vitest';
import {
  auditEvents,
  contractLinks,
  contracts,
  contractSigners,
  identityDocuments,
  identityVerifications,
  smsOutbox,
  users,
} from '../db/schema.js';
import { answerSimulatedChecks, flushSms } from './jobs.js';
import { issueContractLink, signingDeps } from '../modules/signing/index.js';
import type { App } from '../types.js';
import { createApplication, createJpeg, userAuth } from './factories.js';
import { multipart } from './multipart.js';
import { staffSession } from './staff.js';

/**
 * Signers for tests of the signing calls, through the real journey: a shopkeeper pre-approved at
 * the PIN (bureau simulator), a signing link issued as the back office does, and, for a verified
 * one, the widget's three photos answered by the verifier simulator. The app must run with
 * NIP_PREFILL=true and IDENTITY_SIMULATOR_DELAY_MS=0 (an answer due at once).
 */

/**
 * An app for many uploads in a row: signers' PIN shown and their identity answered at once, and
 * neither the attempt cap nor the rate limit in the way.
 */
export const MANY_UPLOADS_ENV = {
  NIP_PREFILL: 'true',
  IDENTITY_SIMULATOR_DELAY_MS: '0',
  IDENTITY_MAX_ATTEMPTS: '20',
  RATE_LIMIT_PER_MINUTE: '100000',
};

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The widget's three photos (a camera's JPEG); another `take` is another set of photos. */
export const widgetPhotos = (take = 0) => ({
  id_front: createJpeg({ width: 1280 + take, height: 800 }),
  id_back: createJpeg({ width: 1280 + take, height: 800 }),
  selfie: createJpeg({ width: 720 + take, height: 960 }),
});

/**
 * The shopkeeper's PIN consent with the PIN the server offers (NIP_PREFILL=true), so the bureau is
 * asked: the answer to the consent.
 */
export async function consentWithOfferedPin(app: App, user: { id: string; phone: string }) {
  const auth = userAuth(app, user);
  const sent = await app.inject({ method: 'POST', url: `/api/v1/users/${user.id}/SK/nip`, headers: auth });
  const nip = sent.json().data?.default_nip as string | undefined;
  if (!nip) throw new Error(`no PIN (NIP_PREFILL=true?): ${sent.body}`);
  return app.inject({ method: 'PUT', url: `/api/v1/users/${user.id}/SK/nip`, headers: auth, payload: { nip } });
}

/** A shopkeeper whose PIN consent got a pre-approval (the bureau simulator): their user row. */
export async function approvedShopkeeper(app: App) {
  // A made-up tax id is never a simulator's test identity: the bureau gives a clean report.
  const user = await createApplication(app);
  const consent = await consentWithOfferedPin(app, user);
  if (consent.json().data?.next_step !== 'PASSWORD') throw new Error(`not pre-approved: ${consent.body}`);
  const [row] = await app.db.select().from(users).where(eq(users.id, user.id));
  return row!;
}

/** The signing link of an approved shopkeeper, as an analyst issues it (drafting the contract PDF). */
export async function issueLink(app: App, user: Awaited<ReturnType<typeof approvedShopkeeper>>) {
  const link = await issueContractLink(signingDeps(app), user, { person_type: 'titular' }, 'test');
  return { userId: user.id, token: new URL(link.url).searchParams.get('token')! };
}

/** An analyst sends a signing link from the back office (a fresh session: tests move the clock by days). */
export async function sendLinkFromBackOffice(
  app: App,
  userId: string,
  body: Record<string, unknown> = { person_type: 'titular' },
) {
  const { headers } = await staffSession(app, 'analyst');
  return app.inject({
    method: 'POST',
    url: `/api/backoffice/applications/${userId}/contract-links`,
    headers,
    payload: body,
  });
}

/**
 * A signing link sent from the back office, as the SMS carries it (the link travels only in the
 * SMS): the back office's answer, the link and its token.
 */
export async function signingLinkFromSms(app: App, userId: string, body?: Record<string, unknown>) {
  const res = await sendLinkFromBackOffice(app, userId, body);
  expect(res.statusCode, res.body).toBe(200);
  await flushSms(app);
  const [sms] = await app.db
    .select()
    .from(smsOutbox)
    .where(like(smsOutbox.body, '%send-contract-sign%'))
    .orderBy(desc(smsOutbox.id))
    .limit(1);
  const url = new URL(/https?:\/\/\S+/.exec(sms!.body)![0]);
  return { res, url, token: url.searchParams.get('token')! };
}

/** A shopkeeper with an approved credit and a signing link: `{ userId, token }` (the link's token). */
export async function signerWithLink(app: App): Promise<{ userId: string; token: string }> {
  return issueLink(app, await approvedShopkeeper(app));
}

/** The identity-documents upload of the built-in widget. */
export function uploadPhotos(
  app: App,
  signer: { userId: string; token: string },
  files: Record<string, Uint8Array> = widgetPhotos(),
  personType: 'titular' | 'collateral' = 'titular',
) {
  const body = multipart(files, { person_type: personType, verification_type: 'VERIFICATION' });
  return app.inject({
    method: 'POST',
    url: `/api/v1/users/SK/${signer.userId}/identity-documents`,
    headers: { ...bearer(signer.token), ...body.headers },
    payload: body.payload,
  });
}

/** A signer whose identity the verifier approved: the next call is the signature. */
export async function verifiedSigner(app: App): Promise<{ userId: string; token: string }> {
  const signer = await signerWithLink(app);
  const uploaded = await uploadPhotos(app, signer);
  if (uploaded.statusCode !== 200) throw new Error(`upload refused: ${uploaded.body}`);
  await answerSimulatedChecks(app);
  const [row] = await app.db.select().from(contractSigners).where(eq(contractSigners.userId, signer.userId));
  if (row?.state !== 'VERIFIED') throw new Error(`signer at ${row?.state} (IDENTITY_SIMULATOR_DELAY_MS=0?)`);
  return signer;
}

/** The signature call (PUT …/contract) with a base64 PNG. */
export function sendSignature(
  app: App,
  signer: { userId: string; token: string },
  png: Uint8Array,
  personType: 'titular' | 'collateral' = 'titular',
) {
  return app.inject({
    method: 'PUT',
    url: `/api/v1/users/SK/${signer.userId}/contract`,
    headers: bearer(signer.token),
    payload: { person_type: personType, signature: Buffer.from(png).toString('base64'), metadata: '' },
  });
}

/**
 * Everything a signing call may write for this application: compared before and after a refused
 * call, it must not have moved (no partial row).
 */
export async function signingSnapshot(app: App, userId: string) {
  const signers = await app.db.select().from(contractSigners).where(eq(contractSigners.userId, userId));
  const ids = signers.map((signer) => signer.id);
  const checks = ids.length
    ? await app.db.select().from(identityVerifications).where(inArray(identityVerifications.signerId, ids))
    : [];
  const checkIds = checks.map((check) => check.id);
  const [documents] = checkIds.length
    ? await app.db
        .select({ n: count() })
        .from(identityDocuments)
        .where(inArray(identityDocuments.verificationId, checkIds))
    : [{ n: 0 }];
  const [events] = await app.db.select({ n: count() }).from(auditEvents).where(eq(auditEvents.applicationId, userId));
  const contract = await app.db
    .select({ unsigned: contracts.unsignedSha256, signed: contracts.signedSha256, updatedAt: contracts.updatedAt })
    .from(contracts)
    .where(eq(contracts.userId, userId));
  const links = ids.length
    ? await app.db
        .select({ id: contractLinks.id, usedAt: contractLinks.usedAt })
        .from(contractLinks)
        .where(inArray(contractLinks.signerId, ids))
    : [];
  return {
    signers: signers.map((signer) => ({
      state: signer.state,
      attempts: signer.verificationAttempts,
      current: signer.currentVerificationId,
      signature: signer.signatureSha256,
      signedAt: signer.signedAt,
      updatedAt: signer.updatedAt,
    })),
    checks: checks.length,
    documents: documents!.n,
    events: events!.n,
    contract,
    links,
  };
}
