import { createHash } from 'node:crypto';
import { cedulaCheckDigit } from '@provee/domain';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  auditEvents,
  contractSigners,
  identityDocuments,
  identityPhotoUploads,
  identityVerifications,
  users,
} from '../../db/schema.js';
import { createApplication } from '../../test/factories.js';
import { bearer, consentWithOfferedPin, issueLink, signerWithLink } from '../../test/signer.js';
import { createTestApp, manualClock, useTestApp } from '../../test/test-app.js';
import { createJpeg } from '../../test/test-images.js';
import { answerSimulatedChecks } from '../../test/jobs.js';
import { signerCipher } from '../../test/person-ciphers.js';

/**
 * Issue 27, decision 024: the widget's photos one at a time (PUT …/identity-photos/:kind/:sha256,
 * decoded and kept as the product's copy), the check that takes the three (POST
 * …/identity-checks), and the status request that waits for the verifier's answer.
 */
const cedula = (ten: string) => `${ten}${cedulaCheckDigit(ten)}`;
let taken = 0;
const identity = (prefix: string) => cedula(`${prefix}${String((taken += 1) % 1000).padStart(3, '0')}`);
const approvedId = () => cedula(`4${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`);
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const KINDS = ['id_front', 'id_back', 'selfie'] as const;

/**
 * A phone's photo as WebP (what Chromium encodes), different for every `take`: stripes drawn from
 * raw pixels (the app blocks every loader but JPEG, PNG and WebP in this process).
 */
async function webpPhoto(take: number, { width = 1280, height = 720 } = {}): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      pixels[i] = (x * (take + 3) + y) % 256;
      pixels[i + 1] = (y * 2 + take * 17) % 256;
      pixels[i + 2] = ((x >> 4) + (y >> 4)) % 2 ? 200 : 40;
    }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .webp({ quality: 75 })
    .toBuffer();
}

describe('identity photos one at a time, and the check that takes them', () => {
  const clock = manualClock(new Date('2026-11-24T12:00:00Z'));
  const t = useTestApp({ NIP_PREFILL: 'true', IDENTITY_SIMULATOR_DELAY_MS: '5000' }, undefined, { clock });

  /** A shopkeeper pre-approved at the PIN with this tax id, and their signing link. */
  async function signer(taxId = approvedId()) {
    const user = await createApplication(t.app, { taxId });
    await consentWithOfferedPin(t.app, user);
    const [row] = await t.app.db.select().from(users).where(eq(users.id, user.id));
    return issueLink(t.app, row!);
  }
  type Signer = Awaited<ReturnType<typeof signer>>;

  const put = (s: Signer, kind: string, bytes: Uint8Array, hash = sha256(bytes), type = 'image/webp') =>
    t.app.inject({
      method: 'PUT',
      url: `/api/v1/users/SK/${s.userId}/identity-photos/${kind}/${hash}`,
      headers: { ...bearer(s.token), 'content-type': type },
      payload: Buffer.from(bytes),
    });
  const held = (s: Signer) =>
    t.app.inject({ method: 'GET', url: `/api/v1/users/SK/${s.userId}/identity-photos`, headers: bearer(s.token) });
  const submit = (s: Signer, photos: Record<string, string>, personType = 'titular') =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/users/SK/${s.userId}/identity-checks`,
      headers: bearer(s.token),
      payload: { person_type: personType, verification_type: 'VERIFICATION', photos },
    });
  const status = (s: Signer, query = '') =>
    t.app.inject({
      method: 'GET',
      url: `/api/v1/users/SK/${s.userId}/mati-status?verification_type=VERIFICATION&person_type=titular${query}`,
      headers: bearer(s.token),
    });
  /** The three photos of one take sent, answered 200: their hashes by kind. */
  async function sendAll(s: Signer, take: number) {
    const hashes: Record<string, string> = {};
    for (const [i, kind] of KINDS.entries()) {
      const photo = await webpPhoto(take * 3 + i);
      const res = await put(s, kind, photo);
      expect(res.statusCode, res.body).toBe(200);
      hashes[kind] = sha256(photo);
    }
    return hashes;
  }
  const signerRow = async (s: Signer) =>
    (await t.app.db.select().from(contractSigners).where(eq(contractSigners.userId, s.userId)))[0]!;
  const events = async (s: Signer, type: string) =>
    (await t.app.db.select().from(auditEvents).where(eq(auditEvents.applicationId, s.userId))).filter(
      (event) => event.type === type,
    );
  async function verifierAnswers() {
    clock.advance(6);
    await answerSimulatedChecks(t.app);
  }

  it('each photo is decoded and kept as the product’s JPEG; the check moves the three into its documents', async () => {
    const s = await signer();
    const photo = await webpPhoto(1);
    const first = await put(s, 'id_front', photo);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toEqual({ kind: 'id_front', sha256: sha256(photo) });
    const [staged] = await t.app.db
      .select()
      .from(identityPhotoUploads)
      .where(eq(identityPhotoUploads.signerId, (await signerRow(s)).id));
    // The stored copy is the product's JPEG of the decoded pixels, never the WebP that came.
    expect(staged).toMatchObject({ kind: 'id_front', uploadSha256: sha256(photo), format: 'jpeg', width: 1280 });
    const copy = (await signerCipher(t.app, staged!.signerId)).decryptBytes(staged!.dataEncrypted);
    expect((await sharp(copy).metadata()).format).toBe('jpeg');
    expect(sha256(copy)).toBe(staged!.sha256);

    // Sent again (its answer lost): nothing new. Another photo of the kind replaces it.
    expect((await put(s, 'id_front', photo)).statusCode).toBe(200);
    expect(await events(s, 'identity.photo_received')).toHaveLength(1);
    const hashes = await sendAll(s, 2);
    expect((await held(s)).json().data.photos).toEqual(KINDS.map((kind) => ({ kind, sha256: hashes[kind] })));
    expect(await events(s, 'identity.photo_received')).toHaveLength(4);
    expect(
      await t.app.db
        .select()
        .from(identityPhotoUploads)
        .where(eq(identityPhotoUploads.signerId, (await signerRow(s)).id)),
    ).toHaveLength(3);

    const started = await submit(s, hashes);
    expect(started.statusCode, started.body).toBe(200);
    const answer = started.json().data;
    expect(answer).toMatchObject({ verification_type: 'VERIFICATION', verifications_left: 2 });
    const documents = await t.app.db
      .select()
      .from(identityDocuments)
      .where(eq(identityDocuments.verificationId, answer.verification_id));
    expect(documents.map((doc) => [doc.kind, doc.uploadSha256, doc.format]).sort()).toEqual(
      KINDS.map((kind) => [kind, hashes[kind], 'jpeg']).sort(),
    );
    expect((await held(s)).json().data.photos).toEqual([]);
    const [check] = await events(s, 'identity.check_started');
    expect((check!.payload as { documents: unknown[] }).documents).toHaveLength(3);
    await verifierAnswers();
    expect((await status(s)).json().data).toMatchObject({
      status: 'APPROVED',
      verification_id: answer.verification_id,
    });
  });

  it('refuses a photo that is not the one the path names, not an image, or damaged, and one without a link', async () => {
    const s = await signer();
    const photo = await webpPhoto(10);
    /** The front photo on `s`'s own path, sent with these headers (no link, or another signer's). */
    const putFrontWith = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/v1/users/SK/${s.userId}/identity-photos/id_front/${sha256(photo)}`,
        headers,
        payload: photo,
      });
    const wrong = await put(s, 'selfie', photo, sha256(Buffer.from('other')));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().readable_message).toBe('Tu selfie llegó incompleta. Envíala de nuevo.');
    const cut = photo.subarray(0, photo.length - 200);
    const damaged = await put(s, 'id_back', cut);
    expect(damaged.statusCode).toBe(400);
    expect(damaged.json().readable_message).toMatch(/reverso.*(incompleta o dañada|WebP)/);
    expect((await put(s, 'id_front', photo, sha256(photo), 'application/octet-stream')).statusCode).toBe(415);
    expect((await put(s, 'id_front', photo, sha256(photo), 'text/plain')).statusCode).toBe(400);
    expect((await put(s, 'passport', photo)).statusCode).toBe(400);
    const noLink = await putFrontWith({ 'content-type': 'image/webp' });
    expect(noLink.statusCode).toBe(401);
    const other = await signer();
    const foreign = await putFrontWith({ ...bearer(other.token), 'content-type': 'image/webp' });
    expect(foreign.statusCode).toBe(403);
    // Refused before the body is read: a path that names no photo, another signer, an expired link
    // (415, the body's type, would come first otherwise).
    expect((await put(s, 'passport', photo, sha256(photo), 'application/octet-stream')).statusCode).toBe(400);
    expect((await put(s, 'id_front', photo, 'not-a-hash', 'application/octet-stream')).statusCode).toBe(400);
    const foreignOctets = await putFrontWith({ ...bearer(other.token), 'content-type': 'application/octet-stream' });
    expect(foreignOctets.statusCode).toBe(403);
    // A JPEG or a PNG is taken too (a browser without a WebP encoder).
    expect(
      (await put(s, 'id_front', createJpeg({ width: 800, height: 600 }), undefined, 'image/jpeg')).statusCode,
    ).toBe(200);
    expect(
      await t.app.db
        .select()
        .from(identityPhotoUploads)
        .where(eq(identityPhotoUploads.signerId, (await signerRow(s)).id)),
    ).toHaveLength(1);
    // An expired link, before its body is read.
    clock.advance(t.app.config.CONTRACT_LINK_TTL_SECONDS + 1);
    const expired = await put(s, 'id_front', photo, sha256(photo), 'application/octet-stream');
    expect(expired.json()).toMatchObject({ code: 'LINK_EXPIRED' });
  });

  it('a check without every photo names the missing ones; sent again after it started, it is the same check', async () => {
    const s = await signer();
    const hashes = await sendAll(s, 20);
    const missing = await submit(s, { ...hashes, id_back: sha256(Buffer.from('never sent')) });
    expect(missing.statusCode).toBe(409);
    expect(missing.json()).toMatchObject({ code: 'PHOTOS_MISSING', missing: ['id_back'] });
    expect((await signerRow(s)).verificationAttempts).toBe(0);

    const first = (await submit(s, hashes)).json().data;
    // Its answer lost: sent again, while the check runs and after the approval, it is that check.
    expect((await submit(s, hashes)).json().data).toEqual(first);
    expect((await put(s, 'selfie', await webpPhoto(62))).statusCode).toBe(200);
    await verifierAnswers();
    expect((await submit(s, hashes)).json().data).toEqual(first);
    expect(await signerRow(s)).toMatchObject({ state: 'VERIFIED', verificationAttempts: 1 });
    expect(await events(s, 'identity.check_started')).toHaveLength(1);
    // The person's own choice to verify again: new photos, a re-verification.
    const again = await sendAll(s, 21);
    expect((await submit(s, again)).json().data).toMatchObject({ verification_type: 'REVERIFICATION' });
  });

  it('in parallel: one photo per kind kept, one check per set of photos, never past the attempt cap', async () => {
    const s = await signer(identity('9990006'));
    // Six photos of one kind at once: one is kept, each new one recorded once.
    const fronts = await Promise.all(Array.from({ length: 6 }, (_, i) => webpPhoto(100 + i)));
    const puts = await Promise.all(fronts.map((photo) => put(s, 'id_front', photo)));
    expect(puts.map((res) => res.statusCode)).toEqual(Array<number>(6).fill(200));
    const kept = await t.app.db
      .select()
      .from(identityPhotoUploads)
      .where(
        and(eq(identityPhotoUploads.signerId, (await signerRow(s)).id), eq(identityPhotoUploads.kind, 'id_front')),
      );
    expect(kept).toHaveLength(1);
    // The same photo six times at once: stored and recorded once.
    const before = (await events(s, 'identity.photo_received')).length;
    const same = await webpPhoto(120);
    await Promise.all(Array.from({ length: 6 }, () => put(s, 'id_back', same)));
    expect((await events(s, 'identity.photo_received')).length).toBe(before + 1);

    for (const round of [1, 2, 3]) {
      const hashes = await sendAll(s, 200 + round);
      // Four copies of the check at once (a double tap, a retry): one check.
      const answers = await Promise.all(Array.from({ length: 4 }, () => submit(s, hashes)));
      expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 200, 200]);
      expect(new Set(answers.map((res) => res.json().data.verification_id)).size).toBe(1);
      expect((await signerRow(s)).verificationAttempts).toBe(round);
      await verifierAnswers();
    }
    // No attempt left: the photos are refused before they are decoded or kept.
    const spent = await put(s, 'id_front', await webpPhoto(300));
    expect(spent.json()).toMatchObject({ code: 'VERIFICATION_ATTEMPTS_EXHAUSTED' });
    expect(
      await t.app.db
        .select()
        .from(identityVerifications)
        .where(eq(identityVerifications.signerId, (await signerRow(s)).id)),
    ).toHaveLength(3);
  });

  it('the same photos after a refusal are the next check’s (a file chosen again), not the refused one', async () => {
    const s = await signer(identity('9990006'));
    const hashes = await sendAll(s, 700);
    const first = (await submit(s, hashes)).json().data;
    await verifierAnswers();
    expect((await signerRow(s)).state).toBe('VERIFICATION_REJECTED');
    const again = await sendAll(s, 700);
    expect(again).toEqual(hashes);
    const second = await submit(s, again);
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().data.verification_id).not.toBe(first.verification_id);
    expect((await signerRow(s)).verificationAttempts).toBe(2);
  });

  it('a reverification may use a photo of the check before it (the same ID photo, a new selfie)', async () => {
    const s = await signer();
    const hashes = await sendAll(s, 800);
    const first = (await submit(s, hashes)).json().data;
    await verifierAnswers();
    expect((await signerRow(s)).state).toBe('VERIFIED');
    const selfie = await webpPhoto(899);
    for (const [kind, bytes] of [
      ['id_front', await webpPhoto(800 * 3)],
      ['id_back', await webpPhoto(800 * 3 + 1)],
      ['selfie', selfie],
    ] as const)
      expect((await put(s, kind, bytes)).statusCode).toBe(200);
    const second = await submit(s, { ...hashes, selfie: sha256(selfie) });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().data).toMatchObject({ verification_type: 'REVERIFICATION' });
    expect(second.json().data.verification_id).not.toBe(first.verification_id);
  });

  it('a photo replaced while its check starts: the check takes whole sets only', async () => {
    const s = await signer();
    const hashes = await sendAll(s, 400);
    const replacement = await webpPhoto(499);
    const [started, replaced] = await Promise.all([submit(s, hashes), put(s, 'selfie', replacement)]);
    expect(replaced.statusCode).toBe(200);
    if (started.statusCode === 200) {
      const documents = await t.app.db
        .select()
        .from(identityDocuments)
        .where(eq(identityDocuments.verificationId, started.json().data.verification_id));
      expect(documents.map((doc) => doc.uploadSha256).sort()).toEqual(Object.values(hashes).sort());
    } else {
      expect(started.json()).toMatchObject({ code: 'PHOTOS_MISSING', missing: ['selfie'] });
      expect((await signerRow(s)).verificationAttempts).toBe(0);
    }
  });

  it('the status request waits for the answer, ignores the previous check, and knows the countdown', async () => {
    const s = await signer();
    const hashes = await sendAll(s, 500);
    const { verification_id: id } = (await submit(s, hashes)).json().data;
    expect((await status(s)).json().data).toMatchObject({
      status: null,
      verification_id: id,
      review_seconds_left: 300,
    });
    clock.advance(60);
    expect((await status(s)).json().data.review_seconds_left).toBe(240);

    const startedAt = Date.now();
    const waiting = status(s, '&wait=10');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await answerSimulatedChecks(t.app);
    const answered = await waiting;
    expect(answered.json().data).toMatchObject({ status: 'APPROVED', verification_id: id });
    expect(Date.now() - startedAt).toBeLessThan(3_000);

    // The answer of the check before the widget ran does not count: held until `wait` passes.
    const held = Date.now();
    const stale = await status(s, `&wait=1&previous=${id}`);
    expect(stale.json().data).toMatchObject({ status: 'APPROVED', verification_id: id });
    expect(Date.now() - held).toBeGreaterThanOrEqual(900);
    expect((await status(s, '&wait=21')).statusCode).toBe(400);
  });

  it('holds at most two status requests of one signer: a third answers at once', async () => {
    const s = await signer();
    const hashes = await sendAll(s, 500);
    const { verification_id: id } = (await submit(s, hashes)).json().data;
    const started = Date.now();
    const heldOnes = [status(s, `&wait=2&previous=${id}`), status(s, `&wait=2&previous=${id}`)];
    await new Promise((resolve) => setTimeout(resolve, 200));
    const third = await status(s, `&wait=2&previous=${id}`);
    expect(third.statusCode).toBe(200);
    expect(Date.now() - started).toBeLessThan(1_500);
    const answers = await Promise.all(heldOnes);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200]);
    // Once they ended, a request is held again.
    const again = Date.now();
    await status(s, `&wait=1&previous=${id}`);
    expect(Date.now() - again).toBeGreaterThanOrEqual(900);
  });
});

describe('a status request waiting for an answer', () => {
  it('ends when the server stops, so a shutdown waits for no phone', async () => {
    const t = await createTestApp({ NIP_PREFILL: 'true', IDENTITY_SIMULATOR_DELAY_MS: '0' });
    const s = await signerWithLink(t.app);
    const waiting = t.app.inject({
      method: 'GET',
      url: `/api/v1/users/SK/${s.userId}/mati-status?verification_type=VERIFICATION&person_type=titular&wait=20`,
      headers: bearer(s.token),
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const closing = Date.now();
    await t.close();
    const res = await waiting;
    expect(res.statusCode).toBe(200);
    expect(res.json().data.status).toBeNull();
    expect(Date.now() - closing).toBeLessThan(3_000);
  });
});
