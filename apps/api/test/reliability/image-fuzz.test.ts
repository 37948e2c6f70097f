import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractSigners, identityDocuments } from '../../src/db/schema.js';
import { createJpeg } from '../../src/test/factories.js';
import { describeHealth, probeHealth } from '../../src/test/health-probe.js';
import { photoVariants, pngChunks, signatureVariants, type Variant } from '../../src/test/image-variants.js';
import {
  MANY_UPLOADS_ENV,
  sendSignature,
  signerWithLink,
  signingSnapshot,
  uploadPhotos,
  verifiedSigner,
} from '../../src/test/signer.js';
import { createTestApp, type TestApp } from '../../src/test/test-app.js';
import { signerCipher, verificationCipher } from '../../src/test/person-ciphers.js';
import { answerProblems } from './fuzz/checks.js';

/**
 * Suite 8 of docs/RELIABILITY.md (issue 26): every image field — the signature and the three
 * identity photos — gets PNGs, JPEGs and WebPs cut at every length class, with wrong CRCs, sizes
 * that lie, animations, 16-bit, palette, interlaced, EXIF-turned and CMYK pictures, and the valid
 * ones a phone or a browser sends. None may hang or answer 5xx; a refusal is a 400 in Spanish
 * naming the field and leaves the application exactly as it was; what is taken is stored as the
 * product's own copy; /api/health answers (over real HTTP) throughout.
 */
/** A request not answered by then has hung. */
const HANG_MS = 10_000;
const PHOTO_FIELDS = ['id_front', 'id_back', 'selfie'] as const;

async function answered(request: Promise<LightMyRequestResponse>, what: string) {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer in ${HANG_MS} ms`)), HANG_MS);
  });
  try {
    return await Promise.race([request, hung]);
  } finally {
    clearTimeout(timer);
  }
}

/** The outcome of each variant, checked at the end (so one run shows every surprise at once). */
interface Outcome {
  field: string;
  variant: string;
  expect: Variant['expect'];
  status: number;
  problems: string[];
}

function judge(field: string, variant: Variant, res: LightMyRequestResponse, problems: string[]): Outcome {
  problems.push(...answerProblems(res).map((p) => `${p.finding}: ${p.detail}`));
  if (res.statusCode === 200 && variant.expect === 'refused') problems.push('taken, should be refused');
  if (res.statusCode !== 200) {
    if (variant.expect === 'ok') problems.push(`refused, should be taken: ${res.body.slice(0, 200)}`);
    if (res.statusCode !== 400) problems.push(`status ${res.statusCode}, a refused image is a 400`);
    else if (res.json().issues?.[0]?.field !== `body.${field}`)
      problems.push(`issues do not name ${field}: ${res.body}`);
  }
  return { field, variant: variant.name, expect: variant.expect, status: res.statusCode, problems };
}

/** The PNG's interlace method byte (IHDR's last): 1 is Adam7. */
const interlaced = (png: Buffer) => png[28] === 1;

const tally = (outcomes: Outcome[]) =>
  Object.entries(
    outcomes.reduce<Record<number, number>>(
      (counts, o) => ({ ...counts, [o.status]: (counts[o.status] ?? 0) + 1 }),
      {},
    ),
  )
    .map(([status, n]) => `${status}×${n}`)
    .join(' ');

describe('image fuzz suite: every image field, every kind of broken image', () => {
  let t: TestApp;
  let signatures: Variant[];
  let photos: Variant[];
  const outcomes: Outcome[] = [];
  beforeAll(async () => {
    t = await createTestApp(MANY_UPLOADS_ENV);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    [signatures, photos] = await Promise.all([signatureVariants(), photoVariants()]);
  }, 60_000);
  afterAll(async () => {
    console.log(
      `image fuzz (${t.database.kind}): ${outcomes.length} requests (${signatures.length} signatures, ` +
        `${photos.length} × ${PHOTO_FIELDS.length} photos): ${tally(outcomes)}`,
    );
    await t.close();
  });

  it('the signature: no hang, no 5xx, refusals change nothing, what is signed is the product’s PNG', async () => {
    const health = await probeHealth(t.app);
    const started = performance.now();
    let spare = await verifiedSigner(t.app);
    for (const variant of signatures) {
      // A variant that may be taken signs: it gets a signer of its own.
      const signer = variant.expect === 'refused' ? spare : await verifiedSigner(t.app);
      const before = await signingSnapshot(t.app, signer.userId);
      const res = await answered(sendSignature(t.app, signer, variant.bytes), `signature ${variant.name}`);
      const problems: string[] = [];
      outcomes.push(judge('signature', variant, res, problems));
      if (res.statusCode === 200) {
        const [row] = await t.app.db.select().from(contractSigners).where(eq(contractSigners.userId, signer.userId));
        const png = (await signerCipher(t.app, row!.id)).decryptBytes(row!.signaturePngEncrypted!);
        const meta = await sharp(png).metadata();
        if (meta.format !== 'png' || meta.channels !== 4 || meta.depth !== 'uchar')
          problems.push(`stored signature is ${meta.format} ${meta.channels}×${meta.depth}`);
        // Only what the encoder writes: no text, palette, animation or other chunk of the upload.
        const chunks = pngChunks(png).map((chunk) => chunk.type);
        if (chunks.join() !== 'IHDR,pHYs,IDAT,IEND') problems.push(`stored chunks ${chunks.join()}`);
        if (interlaced(png)) problems.push('stored interlaced');
      } else {
        const after = await signingSnapshot(t.app, signer.userId);
        if (JSON.stringify(after) !== JSON.stringify(before)) problems.push('a refusal changed the application');
      }
      if (variant.expect === 'refused' && res.statusCode === 200) spare = await verifiedSigner(t.app);
    }
    const figures = await health.stop();
    console.log(
      `signature field: ${signatures.length} variants in ${((performance.now() - started) / 1000).toFixed(1)} s; ${describeHealth(figures)}`,
    );
    expect(outcomes.filter((o) => o.field === 'signature' && o.problems.length)).toEqual([]);
    expect(figures.failures).toEqual([]);
    expect(figures.max).toBeLessThan(1_000);
  }, 120_000);

  for (const field of PHOTO_FIELDS) {
    it(`${field}: no hang, no 5xx, refusals change nothing, what is taken is an upright JPEG without metadata`, async () => {
      const health = await probeHealth(t.app);
      const started = performance.now();
      // The other two photos: small valid ones, each variant in this field.
      const others = {
        id_front: createJpeg({ width: 640, height: 400 }),
        id_back: createJpeg({ width: 640, height: 401 }),
        selfie: createJpeg({ width: 400, height: 640 }),
      };
      let signer = await signerWithLink(t.app);
      let taken = 0;
      for (const variant of photos) {
        if (taken >= Number(MANY_UPLOADS_ENV.IDENTITY_MAX_ATTEMPTS) - 1) {
          signer = await signerWithLink(t.app);
          taken = 0;
        }
        const before = await signingSnapshot(t.app, signer.userId);
        const res = await answered(
          uploadPhotos(t.app, signer, { ...others, [field]: variant.bytes }),
          `${field} ${variant.name}`,
        );
        const problems: string[] = [];
        outcomes.push(judge(field, variant, res, problems));
        if (res.statusCode === 200) {
          taken += 1;
          const [doc] = await t.app.db
            .select()
            .from(identityDocuments)
            .where(
              and(
                eq(identityDocuments.verificationId, res.json().data.verification_id),
                eq(identityDocuments.kind, field),
              ),
            );
          const stored = (await verificationCipher(t.app, doc!.verificationId)).decryptBytes(doc!.dataEncrypted);
          const meta = await sharp(stored).metadata();
          if (meta.format !== 'jpeg' || meta.exif || meta.orientation)
            problems.push(`stored ${meta.format}, EXIF kept`);
          if (variant.size && (meta.width !== variant.size.width || meta.height !== variant.size.height))
            problems.push(
              `stored ${meta.width} × ${meta.height}, expected ${variant.size.width} × ${variant.size.height}`,
            );
          if (doc!.width !== meta.width || doc!.height !== meta.height || doc!.bytes !== stored.length)
            problems.push('the row does not describe the stored copy');
        } else {
          const after = await signingSnapshot(t.app, signer.userId);
          if (JSON.stringify(after) !== JSON.stringify(before)) problems.push('a refusal changed the application');
        }
      }
      const figures = await health.stop();
      console.log(
        `${field}: ${photos.length} variants in ${((performance.now() - started) / 1000).toFixed(1)} s; ${describeHealth(figures)}`,
      );
      expect(outcomes.filter((o) => o.field === field && o.problems.length)).toEqual([]);
      expect(figures.failures).toEqual([]);
      expect(figures.max).toBeLessThan(1_000);
    }, 120_000);
  }
});
