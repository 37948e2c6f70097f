import { createHash, randomUUID } from 'node:crypto';
import { cedulaCheckDigit, toE164 } from '@provee/domain';
import { and, eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import {
  auditEvents,
  contractLinks,
  contracts,
  contractSigners,
  identityDocuments,
  identityPhotoUploads,
  identityVerifications,
} from '../../db/schema.js';
import { createApplication, userAuth } from '../../test/factories.js';
import { multipart } from '../../test/multipart.js';
import { createPhone } from '../../test/phone.js';
import {
  bearer,
  consentWithOfferedPin,
  sendLinkFromBackOffice,
  signingLinkFromSms,
  widgetPhotos,
} from '../../test/signer.js';
import { manualClock, useTestApp } from '../../test/test-app.js';
import { createJpeg, createPng, createPngHeader } from '../../test/test-images.js';
import { answerSimulatedChecks } from '../../test/jobs.js';
import { personCipher } from '../privacy/index.js';
import { openContractPdf } from './contract.js';

const cedula = (ten: string) => `${ten}${cedulaCheckDigit(ten)}`;
const randomTen = () => `4${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
/** The verifier simulator's test identities (providers/identity/simulator.ts); others are approved. */
let identities = 0;
const testIdentity = (prefix: string) => () => cedula(`${prefix}${String((identities += 1)).padStart(3, '0')}`);
const REJECTED_ID = testIdentity('9990006');
const UNDER_REVIEW_ID = testIdentity('9990007');
const SILENT_ID = testIdentity('9990008');
/** The bureau simulator's strong history: a guarantor the policy approves. */
const STRONG_GUARANTOR = cedula('9990000001');
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const signaturePng = () => Buffer.from(createPng({ width: 280, height: 120 })).toString('base64');
const GEO = JSON.stringify({ latitude: 18.4861, longitude: -69.9312, accuracy: 20, timestamp: 1795000000000 });

describe('identity verification and contract signing', () => {
  const clock = manualClock(new Date('2026-11-23T12:00:00Z'));
  const t = useTestApp({ NIP_PREFILL: 'true', BUREAU_SYNC_WAIT_MS: '2000' }, undefined, { clock });

  /** A shopkeeper whose PIN consent got a pre-approval (the real journey from the PIN on). */
  async function approvedShopkeeper(taxId = cedula(randomTen())) {
    // The name the link and the contract carry (asserted below).
    const user = await createApplication(t.app, { taxId, name: 'María José', lastname: 'Peña' });
    const consent = await consentWithOfferedPin(t.app, user);
    expect(consent.json().data).toMatchObject({ next_step: 'PASSWORD', status: 'IN_PROGRESS' });
    return { user, auth: userAuth(t.app, user) };
  }

  const issueLink = (userId: string, body?: Record<string, unknown>) => sendLinkFromBackOffice(t.app, userId, body);
  /** The token of a signing link, as the SMS carries it, and the back office's answer with the link. */
  async function linkToken(userId: string, body?: Record<string, unknown>) {
    const { res, url, token } = await signingLinkFromSms(t.app, userId, body);
    return { token, data: { ...res.json().data.result, url: url.toString() }, url };
  }

  const upload = (userId: string, token: string, files = widgetPhotos(), fields = { person_type: 'titular' }) => {
    const body = multipart(files, { ...fields, verification_type: 'VERIFICATION' });
    return t.app.inject({
      method: 'POST',
      url: `/api/v1/users/SK/${userId}/identity-documents`,
      headers: { ...bearer(token), ...body.headers },
      payload: body.payload,
    });
  };
  const status = (userId: string, token: string, personType = 'titular') =>
    t.app.inject({
      method: 'GET',
      url: `/api/v1/users/SK/${userId}/mati-status?verification_type=VERIFICATION&person_type=${personType}`,
      headers: bearer(token),
    });
  const sign = (userId: string, token: string, body: Record<string, unknown> = {}) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/v1/users/SK/${userId}/contract`,
      headers: { ...bearer(token), 'user-agent': 'Mozilla/5.0 (Linux; Android 10) Chrome/120 Mobile' },
      payload: { person_type: 'titular', signature: signaturePng(), metadata: GEO, ...body },
    });
  /** The signing evidence of an application, as this link's signer reads it. */
  const evidenceSeenBy = (userId: string, token: string) =>
    t.app.inject({ method: 'GET', url: `/api/v1/users/SK/${userId}/contract/evidence`, headers: bearer(token) });
  /** The simulator answers once its delay has passed (the worker's job, run by hand). */
  async function verifierAnswers() {
    clock.advance(t.app.config.IDENTITY_SIMULATOR_DELAY_MS / 1000 + 1);
    await answerSimulatedChecks(t.app);
  }
  const signerOf = async (userId: string) =>
    (await t.app.db.select().from(contractSigners).where(eq(contractSigners.userId, userId)))[0]!;
  /** The contract row with its PDFs decrypted (they are encrypted at rest: issue 13, suite 7). */
  const contractOf = async (userId: string) => {
    const row = (await t.app.db.select().from(contracts).where(eq(contracts.userId, userId)))[0]!;
    // Sealed with the applicant's own data key (decision 032).
    const signedPdf = row.signedPdf && (await openContractPdf(t.app, t.app.db, row.userId, row.signedPdf));
    return { ...row, unsignedPdf: await openContractPdf(t.app, t.app.db, row.userId, row.unsignedPdf), signedPdf };
  };

  it('a link sent from the back office drafts the contract and sends the signing link by SMS; its token opens the signing page', async () => {
    const { user } = await approvedShopkeeper();
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/backoffice/applications/${user.id}/contract-links`,
          payload: { person_type: 'titular' },
        })
      ).statusCode,
    ).toBe(401);
    const { token, data, url } = await linkToken(user.id);
    expect(url.pathname).toBe('/send-contract-sign');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      user_type_id: 'SK',
      user_id: user.id,
      titular_full_name: 'María José Peña Núñez',
      type: 'titular',
      collateral_full_name: '',
    });
    const outbox = (await t.app.inject({ method: 'GET', url: `/dev/outbox.json?to=%2B1${user.phone}` })).json();
    expect(outbox.messages[0].body).toContain(data.url);

    const contract = await contractOf(user.id);
    expect(contract).toMatchObject({ amount: expect.any(Number), currency: 'DOP', signedSha256: null });
    expect(contract.unsignedSha256).toBe(sha256(contract.unsignedPdf));
    expect((await PDFDocument.load(contract.unsignedPdf)).getPageCount()).toBeGreaterThan(1);

    const view = await t.app.inject({
      method: 'GET',
      url: `/api/v1/users/SK/${user.id}/contract-link`,
      headers: bearer(token),
    });
    expect(view.statusCode).toBe(200);
    expect(view.json().data).toMatchObject({
      person_type: 'titular',
      signer_name: 'María José Peña Núñez',
      state: 'AWAITING_VERIFICATION',
      verification: { status: null, verifications_left: 3, mati_identity_id: null },
      widget: { provider: 'builtin' },
    });
    // The PDF opens in a new window: the token rides in the query.
    const pdf = await t.app.inject({ method: 'GET', url: `/api/v1/users/SK/${user.id}/contract?token=${token}` });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(sha256(pdf.rawPayload)).toBe(contract.unsignedSha256);
    const events = await t.app.db.select().from(auditEvents).where(eq(auditEvents.applicationId, user.id));
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining(['contract.drafted', 'signer.added', 'contract.link_issued']),
    );
  });

  it('links only for an approved credit; the link opens nothing but its own signing calls', async () => {
    const unapproved = await createApplication(t.app, { taxId: cedula(randomTen()) });
    expect((await issueLink(unapproved.id)).json()).toMatchObject({ code: 'CONTRACT_NOT_READY' });
    expect((await issueLink(randomUUID())).statusCode).toBe(404);

    const a = await approvedShopkeeper();
    const b = await approvedShopkeeper();
    const { token } = await linkToken(a.user.id);
    // Another shopkeeper's path with this link (403); the shopkeeper's own token on a signing call and
    // the link's token on the shopkeeper's routes are no token there at all (401); a forged token.
    expect((await status(b.user.id, token)).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/v1/users/SK/${a.user.id}/contract-link`, headers: a.auth }))
        .statusCode,
    ).toBe(401);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/v1/users/${a.user.id}/SK`, headers: bearer(token) })).statusCode,
    ).toBe(401);
    expect((await status(a.user.id, `${token.slice(0, -2)}xx`)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/users/SK/${a.user.id}/contract` })).statusCode).toBe(401);
    // Signing another shopkeeper's contract with this link: refused, nothing of theirs changes.
    const theirs = await linkToken(b.user.id);
    await upload(b.user.id, theirs.token);
    await verifierAnswers();
    const before = await signerOf(b.user.id);
    expect((await sign(b.user.id, token)).statusCode).toBe(403);
    expect(await signerOf(b.user.id)).toEqual(before);
    expect((await contractOf(b.user.id)).signedSha256).toBeNull();
    // A collateral path with a titular link.
    expect((await status(a.user.id, token, 'collateral')).statusCode).toBe(403);

    // A new link replaces the old one at once.
    const second = await linkToken(a.user.id);
    const replaced = await t.app.inject({
      method: 'GET',
      url: `/api/v1/users/SK/${a.user.id}/contract-link`,
      headers: bearer(token),
    });
    expect(replaced.statusCode).toBe(409);
    expect(replaced.json().code).toBe('LINK_USED');
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/v1/users/SK/${a.user.id}/contract-link`,
          headers: bearer(second.token),
        })
      ).statusCode,
    ).toBe(200);
    // Replaced means stopped, for reading the contract too.
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/v1/users/SK/${a.user.id}/contract?token=${token}` })).statusCode,
    ).toBe(409);
  });

  it('titular: documents → APPROVED → signature; the served PDF is the stored hash, with signature and evidence', async () => {
    const { user } = await approvedShopkeeper();
    const { token } = await linkToken(user.id);
    const unsignedPages = (await PDFDocument.load((await contractOf(user.id)).unsignedPdf)).getPageCount();

    const sent = await upload(user.id, token);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().data).toMatchObject({ verification_type: 'VERIFICATION', verifications_left: 2 });
    expect((await status(user.id, token)).json().data).toEqual({
      status: null,
      verifications_left: 2,
      mati_identity_id: null,
      verification_id: sent.json().data.verification_id,
      review_seconds_left: 300,
    });
    // Stored encrypted, checked by content.
    const [document] = await t.app.db
      .select()
      .from(identityDocuments)
      .where(
        and(
          eq(identityDocuments.verificationId, sent.json().data.verification_id),
          eq(identityDocuments.kind, 'selfie'),
        ),
      );
    expect(document).toMatchObject({ format: 'jpeg', width: 720, height: 960 });
    expect(Buffer.from(document!.dataEncrypted).includes(Buffer.from(widgetPhotos().selfie.subarray(0, 40)))).toBe(
      false,
    );
    // What is kept is the product's own copy of the decoded photo (decision 021), and its hash is the copy's.
    const stored = (await personCipher(t.app, t.app.db, user.id)).decryptBytes(document!.dataEncrypted);
    expect(stored.equals(Buffer.from(widgetPhotos().selfie))).toBe(false);
    const meta = await sharp(stored).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 720, height: 960 });
    expect(meta.exif).toBeUndefined();
    expect(document!.sha256).toBe(sha256(stored));

    // Signing before the answer is refused, and changes nothing.
    const early = await sign(user.id, token);
    expect(early.statusCode).toBe(409);
    expect(early.json().code).toBe('IDENTITY_NOT_VERIFIED');

    await verifierAnswers();
    const approved = (await status(user.id, token)).json().data;
    expect(approved).toMatchObject({ status: 'APPROVED', verifications_left: 2 });
    expect(approved.mati_identity_id).toEqual(expect.any(String));

    // The signature is for the document the page offered: another hash is refused.
    const shown = (
      await t.app.inject({ method: 'GET', url: `/api/v1/users/SK/${user.id}/contract-link`, headers: bearer(token) })
    ).json().data.document_sha256;
    expect(shown).toBe((await contractOf(user.id)).unsignedSha256);
    const changed = await sign(user.id, token, { document_sha256: 'f'.repeat(64) });
    expect(changed.json()).toMatchObject({ code: 'CONTRACT_CHANGED' });
    expect((await sign(user.id, token, { document_sha256: 'not-a-hash' })).statusCode).toBe(400);
    expect((await signerOf(user.id)).state).toBe('VERIFIED');
    // A photo sent for a reverification that never started is kept only until the signature.
    const selfie = widgetPhotos().selfie;
    const staged = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/users/SK/${user.id}/identity-photos/selfie/${sha256(selfie)}`,
      headers: { ...bearer(token), 'content-type': 'image/jpeg' },
      payload: Buffer.from(selfie),
    });
    expect(staged.statusCode, staged.body).toBe(200);
    const stagedRows = async () =>
      t.app.db
        .select({ id: identityPhotoUploads.id })
        .from(identityPhotoUploads)
        .where(eq(identityPhotoUploads.signerId, (await signerOf(user.id)).id));
    expect(await stagedRows()).toHaveLength(1);
    const signed = await sign(user.id, token, { document_sha256: shown });
    expect(signed.statusCode, signed.body).toBe(200);
    expect(await stagedRows()).toEqual([]);
    const contract = await contractOf(user.id);
    expect(signed.json().data).toMatchObject({ person_type: 'titular', contract_sha256: contract.signedSha256 });

    const pdf = await t.app.inject({
      method: 'GET',
      url: `/api/v1/users/SK/${user.id}/contract`,
      headers: bearer(token),
    });
    expect(pdf.statusCode).toBe(200);
    expect(sha256(pdf.rawPayload)).toBe(contract.signedSha256);
    expect(sha256(contract.signedPdf!)).toBe(contract.signedSha256);
    const document2 = await PDFDocument.load(pdf.rawPayload);
    expect(document2.getPageCount()).toBe(unsignedPages + 1);

    const evidence = (await evidenceSeenBy(user.id, token)).json().data;
    expect(evidence).toMatchObject({ signed_sha256: contract.signedSha256, unsigned_sha256: contract.unsignedSha256 });
    expect(evidence.signers[0]).toMatchObject({
      person_type: 'titular',
      state: 'SIGNED',
      ip: '127.0.0.1',
      user_agent: 'Mozilla/5.0 (Linux; Android 10) Chrome/120 Mobile',
      geolocation: { latitude: 18.4861, longitude: -69.9312 },
      consent_folio: expect.any(String),
      verification: { status: 'APPROVED', provider: 'simulator' },
      // The hash of the PNG the product encoded from the decoded signature, the one in the PDF.
      signature_sha256: sha256(
        (await personCipher(t.app, t.app.db, user.id)).decryptBytes((await signerOf(user.id)).signaturePngEncrypted!),
      ),
    });

    // Signed once: a second signature is 'user not in progress' and the document stays as it is.
    const again = await sign(user.id, token);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'SIGNER_SIGNED', message: 'user not in progress' });
    expect((await contractOf(user.id)).signedSha256).toBe(contract.signedSha256);

    // The copy goes to the phone (a job of the signature's transaction); its link opens the signed PDF.
    const copy = await vi.waitFor(async () => {
      const outbox = (await t.app.inject({ method: 'GET', url: `/dev/outbox.json?to=%2B1${user.phone}` })).json();
      return /(http\S+\/contract\?token=\S+)/.exec(outbox.messages[0].body)![1]!;
    });
    const fromCopy = await t.app.inject({ method: 'GET', url: copy.replace(/^https?:\/\/[^/]+/, '') });
    expect(sha256(fromCopy.rawPayload)).toBe(contract.signedSha256);

    const types = (await t.app.db.select().from(auditEvents).where(eq(auditEvents.applicationId, user.id))).map(
      (e) => e.type,
    );
    expect(types).toEqual(expect.arrayContaining(['identity.check_started', 'identity.answered', 'contract.signed']));
    // The chain outlives an erasure: the signer's address is in it only as a keyed hash (issue 31).
    const [signedEvent] = await t.app.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.applicationId, user.id), eq(auditEvents.type, 'contract.signed')));
    const ip = (evidence.signers[0] as { ip: string }).ip;
    expect(ip).toBeTruthy();
    expect(signedEvent!.payload).toMatchObject({ ip_hash: t.app.cipher.lookupHash(ip) });
    expect(JSON.stringify(signedEvent!.payload)).not.toContain(ip);
  });

  it('refuses a JPEG as signature, a 20 MB upload, a file that is not an image, and keeps what was stored', async () => {
    const { user } = await approvedShopkeeper();
    const { token } = await linkToken(user.id);
    const huge = {
      ...widgetPhotos(),
      selfie: Buffer.concat([Buffer.from(createJpeg()), Buffer.alloc(20 * 1024 * 1024, 1)]),
    };
    const tooBig = await upload(user.id, token, huge);
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().readable_message).toMatch(/8 MB/);
    const notImage = await upload(user.id, token, { ...widgetPhotos(), id_back: Buffer.from('%PDF-1.7 not a photo') });
    expect(notImage.statusCode).toBe(400);
    expect(notImage.json().issues).toEqual([expect.objectContaining({ field: 'body.id_back' })]);
    const missing = await upload(user.id, token, { id_front: widgetPhotos().id_front } as never);
    expect(missing.statusCode).toBe(400);
    // A form cut short or whose boundary never comes: 400, not 500 (found by the fuzzing suite).
    const form = multipart(widgetPhotos(), { person_type: 'titular' });
    const boundary = /boundary=(.+)$/.exec(form.headers['content-type'])![1]!;
    for (const [payload, contentType] of [
      [form.payload.subarray(0, form.payload.length - `--${boundary}--\r\n`.length), form.headers['content-type']],
      [form.payload, `${form.headers['content-type']}x`],
      [Buffer.alloc(64 * 1024, 97), 'multipart/form-data; boundary=x'],
    ] as const) {
      const broken = await t.app.inject({
        method: 'POST',
        url: `/api/v1/users/SK/${user.id}/identity-documents`,
        headers: { ...bearer(token), 'content-type': contentType },
        payload,
      });
      expect(broken.statusCode, broken.body).toBe(400);
      expect(broken.json()).toMatchObject({
        code: 'BAD_REQUEST',
        readable_message: 'El formulario enviado no es válido.',
      });
    }
    expect(await signerOf(user.id)).toMatchObject({ verificationAttempts: 0, state: 'AWAITING_VERIFICATION' });

    expect((await upload(user.id, token)).statusCode).toBe(200);
    await verifierAnswers();
    const before = await signerOf(user.id);
    const jpeg = await sign(user.id, token, { signature: Buffer.from(createJpeg()).toString('base64') });
    expect(jpeg.statusCode).toBe(400);
    expect(jpeg.json().issues[0]).toMatchObject({
      field: 'body.signature',
      message: 'La firma debe ser una imagen PNG.',
    });
    const prefixed = await sign(user.id, token, { signature: `data:image/png;base64,${signaturePng()}` });
    expect(prefixed.statusCode).toBe(400);
    const headerOnly = await sign(user.id, token, {
      signature: Buffer.from(createPngHeader(300, 100)).toString('base64'),
    });
    expect(headerOnly.json().issues[0]).toMatchObject({
      field: 'body.signature',
      message: 'La firma no es una imagen PNG válida.',
    });
    for (const metadata of [
      '{not json',
      '[1,2]',
      '{"latitude":"\\u0000"}',
      '{"latitude":1,"note":"x"}',
      '{"latitude":1e999}',
    ]) {
      const badGeo = await sign(user.id, token, { metadata });
      expect(badGeo.statusCode, metadata).toBe(400);
    }
    expect(await signerOf(user.id)).toEqual(before);
    expect((await contractOf(user.id)).signedSha256).toBeNull();
    // Without a position the signature still counts ('no disponible').
    const signed = await sign(user.id, token, { metadata: '' });
    expect(signed.statusCode).toBe(200);
    expect((await signerOf(user.id)).evidence).toMatchObject({ geolocation: null });
  });

  it('REJECTED counts attempts; the fourth is refused with "Agotaste los intentos"', async () => {
    const { user } = await approvedShopkeeper(REJECTED_ID());
    const { token } = await linkToken(user.id);
    for (const left of [2, 1, 0]) {
      expect((await upload(user.id, token)).statusCode).toBe(200);
      await verifierAnswers();
      expect((await status(user.id, token)).json().data).toMatchObject({
        status: 'REJECTED',
        verifications_left: left,
      });
    }
    const fourth = await upload(user.id, token);
    expect(fourth.statusCode).toBe(409);
    expect(fourth.json()).toMatchObject({
      code: 'VERIFICATION_ATTEMPTS_EXHAUSTED',
      readable_message: 'Agotaste los intentos de verificación.',
    });
    expect((await sign(user.id, token)).json().code).toBe('IDENTITY_NOT_VERIFIED');
    expect(
      await t.app.db
        .select()
        .from(identityVerifications)
        .where(eq(identityVerifications.signerId, (await signerOf(user.id)).id)),
    ).toHaveLength(3);
  });

  it('UNDER_REVIEW waits for a person; a silent verifier never answers and a new upload supersedes it', async () => {
    const review = await approvedShopkeeper(UNDER_REVIEW_ID());
    const reviewLink = await linkToken(review.user.id);
    await upload(review.user.id, reviewLink.token);
    await verifierAnswers();
    expect((await status(review.user.id, reviewLink.token)).json().data.status).toBe('UNDER_REVIEW');
    expect((await upload(review.user.id, reviewLink.token)).json().code).toBe('VERIFICATION_UNDER_REVIEW');

    const silent = await approvedShopkeeper(SILENT_ID());
    const { token } = await linkToken(silent.user.id);
    const first = (await upload(silent.user.id, token)).json().data.verification_id;
    clock.advance(3600);
    await answerSimulatedChecks(t.app);
    expect((await status(silent.user.id, token)).json().data).toMatchObject({ status: null, verifications_left: 2 });
    const second = (await upload(silent.user.id, token, widgetPhotos(1))).json().data.verification_id;
    expect(second).not.toBe(first);
    expect((await signerOf(silent.user.id)).currentVerificationId).toBe(second);
  });

  it('concurrent uploads never pass the attempt cap; concurrent signatures: one 200, the rest 409', async () => {
    const { user } = await approvedShopkeeper(REJECTED_ID());
    const { token } = await linkToken(user.id);
    const uploads = await Promise.all(
      Array.from({ length: 6 }, (_, take) => upload(user.id, token, widgetPhotos(take))),
    );
    const codes = uploads.map((res) => res.statusCode);
    expect(codes.filter((code) => code === 200).length).toBeLessThanOrEqual(3);
    expect(codes.every((code) => code === 200 || code === 409)).toBe(true);
    expect((await signerOf(user.id)).verificationAttempts).toBe(codes.filter((code) => code === 200).length);

    const other = await approvedShopkeeper();
    const link = await linkToken(other.user.id);
    await upload(other.user.id, link.token);
    await verifierAnswers();
    const signatures = await Promise.all(Array.from({ length: 8 }, () => sign(other.user.id, link.token)));
    expect(signatures.map((res) => res.statusCode).sort()).toEqual([200, ...Array<number>(7).fill(409)]);
    const contract = await contractOf(other.user.id);
    const winner = signatures.find((res) => res.statusCode === 200)!;
    expect(winner.json().data.contract_sha256).toBe(contract.signedSha256);
    const signedEvents = (
      await t.app.db.select().from(auditEvents).where(eq(auditEvents.applicationId, other.user.id))
    ).filter((e) => e.type === 'contract.signed');
    expect(signedEvents).toHaveLength(1);
  });

  it('the same photos sent again (an answer lost in a crash, a double tap) are the same check: no second attempt', async () => {
    const { user } = await approvedShopkeeper();
    const { token } = await linkToken(user.id);
    const first = (await upload(user.id, token)).json().data;
    expect(first).toMatchObject({ verification_type: 'VERIFICATION', verifications_left: 2 });
    // Sent again while the check runs, three copies at once: that check.
    const again = await Promise.all(Array.from({ length: 3 }, () => upload(user.id, token)));
    for (const res of again) expect(res.json().data).toEqual(first);
    // Sent again after the approval: still that check, not a re-verification.
    await verifierAnswers();
    expect((await upload(user.id, token)).json().data).toEqual(first);
    const signer = await signerOf(user.id);
    expect(signer).toMatchObject({
      state: 'VERIFIED',
      verificationAttempts: 1,
      currentVerificationId: first.verification_id,
    });
    const checks = await t.app.db
      .select()
      .from(identityVerifications)
      .where(eq(identityVerifications.signerId, signer.id));
    expect(checks).toHaveLength(1);
    const events = await t.app.db.select().from(auditEvents).where(eq(auditEvents.applicationId, user.id));
    expect(events.filter((e) => e.type === 'identity.check_started')).toHaveLength(1);
    // Other photos are another check.
    expect((await upload(user.id, token, widgetPhotos(7))).json().data).toMatchObject({
      verification_type: 'REVERIFICATION',
      verifications_left: 1,
    });
  });

  it('a guarantor signs the same contract from their own link; both signatures end up in the PDF, even at once', async () => {
    const { user, auth } = await approvedShopkeeper();
    await t.app.inject({
      method: 'PUT',
      url: `/api/v1/users/${user.id}/SK/password`,
      headers: auth,
      payload: { password: '583920', password_confirmation: '583920' },
    });
    const guarantorPhone = createPhone();
    const named = await t.app.inject({
      method: 'POST',
      url: `/api/v1/users/${user.id}/SK/avals`,
      headers: auth,
      payload: {
        aval_type: 'COLLATERAL',
        name: 'Ramón Antonio Pérez',
        phone_number: guarantorPhone,
        tax_payer_id: STRONG_GUARANTOR,
      },
    });
    expect(named.statusCode, named.body).toBe(200);
    const avalId = named.json().data.aval.id as string;
    // A guarantor who has not passed the bureau cannot get a link.
    expect((await issueLink(user.id, { person_type: 'collateral', aval_id: avalId })).json().code).toBe(
      'AVAL_NOT_APPROVED',
    );
    const pin = (
      await t.app.inject({
        method: 'POST',
        url: `/api/v1/users/${user.id}/SK/aval/nip?to=${guarantorPhone}`,
        headers: auth,
      })
    ).json().data.default_nip;
    const consented = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/users/${user.id}/SK/aval/nip?to=${guarantorPhone}`,
      headers: auth,
      payload: { nip: pin },
    });
    expect(consented.json().data.aval.status).toBe('APPROVED');

    const titular = await linkToken(user.id);
    const guarantor = await linkToken(user.id, { person_type: 'collateral', aval_id: avalId });
    expect(guarantor.url.searchParams.get('collateral_full_name')).toBe('Ramón Antonio Pérez');
    const guarantorSms = (
      await t.app.inject({
        method: 'GET',
        url: `/dev/outbox.json?to=${encodeURIComponent(toE164('do', guarantorPhone))}`,
      })
    ).json();
    expect(guarantorSms.messages[0].body).toContain('/send-contract-sign?');
    // Each link is its signer's only.
    expect((await status(user.id, guarantor.token, 'titular')).statusCode).toBe(403);

    expect((await upload(user.id, titular.token)).statusCode).toBe(200);
    expect((await upload(user.id, guarantor.token, widgetPhotos(), { person_type: 'collateral' })).statusCode).toBe(
      200,
    );
    await verifierAnswers();
    // Before anyone signs, a co-signer's link shows where the others stand, not their identity checks.
    const early = (await evidenceSeenBy(user.id, guarantor.token)).json().data;
    expect(early.signers.find((s: { person_type: string }) => s.person_type === 'titular')).toMatchObject({
      state: 'VERIFIED',
      verification: null,
      ip: null,
    });
    const [a, b] = await Promise.all([
      sign(user.id, titular.token),
      sign(user.id, guarantor.token, { person_type: 'collateral' }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const contract = await contractOf(user.id);
    expect(contract.avalIds).toEqual([avalId]);
    const evidence = (await evidenceSeenBy(user.id, guarantor.token)).json().data;
    expect(evidence.signers.map((s: { state: string }) => s.state)).toEqual(['SIGNED', 'SIGNED']);
    const unsignedPages = (await PDFDocument.load(contract.unsignedPdf)).getPageCount();
    expect((await PDFDocument.load(contract.signedPdf!)).getPageCount()).toBe(unsignedPages + 2);
    expect(sha256(contract.signedPdf!)).toBe(contract.signedSha256);
    // The guarantor's evidence: their phone was proven by their PIN consent.
    expect(evidence.signers.find((s: { person_type: string }) => s.person_type === 'collateral')).toMatchObject({
      phone_verified_at: expect.any(String),
      consent_folio: expect.any(String),
    });
  });

  it('a used or replaced link stops working for signing calls, and the database keeps signatures as they are', async () => {
    const { user } = await approvedShopkeeper();
    const { token, data } = await linkToken(user.id);
    await upload(user.id, token);
    await verifierAnswers();
    await sign(user.id, token);
    const [link] = await t.app.db.select().from(contractLinks).where(eq(contractLinks.id, data.link_id));
    expect(link!.usedAt).not.toBeNull();
    // A new link for a signer who signed is refused.
    expect((await issueLink(user.id)).json().code).toBe('SIGNER_SIGNED');
    const signer = await signerOf(user.id);
    await expect(
      t.app.db.update(contractSigners).set({ name: 'Otro' }).where(eq(contractSigners.id, signer.id)),
    ).rejects.toThrow();
    await expect(t.app.db.delete(contracts).where(eq(contracts.userId, user.id))).rejects.toThrow();
  });
});
