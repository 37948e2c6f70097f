import type { Page } from '@playwright/test';
import { fakeCamera } from './fake-camera.js';
import { expect, screenshot, test } from './fixtures.js';
import {
  APPROVED,
  drawSignature,
  openSigningLink,
  PHOTO_LABELS,
  photoBodies,
  serverStatus,
  SILENT,
  takePhoto,
  verifyIdentity,
  watchUploads,
} from './signing-helpers.js';

/**
 * Issue 27: signing as a shopkeeper meets it on a small phone on 3G. The signature box and its
 * buttons on one screen, upright and sideways; the photos sent while the next one is taken; the
 * verifier's answer shown as soon as the server has it.
 */

test.use({ permissions: ['geolocation', 'camera'], geolocation: { latitude: 18.4861, longitude: -69.9312 } });

/** The camera shows an ID card on a table (e2e/fake-camera.ts), not Chromium's flat test pattern. */
test.use({
  launchOptions: [
    async ({ launchOptions }, use) => {
      const file = await fakeCamera();
      await use({
        ...launchOptions,
        args: [...(launchOptions.args ?? []), `--use-file-for-fake-video-capture=${file}`],
      });
    },
    { scope: 'worker' },
  ],
});

/**
 * The three photos of this camera went up in one multipart request of 649,556 bytes (649,435 at
 * 360×640) on the code before issue 27: JPEG of 1600 px at quality 0.85 (measured before the
 * change, with this file's camera). The goal is at most 40 % of it.
 */
const BYTES_BEFORE = 649_556;

/** The element's box within the window (nothing cut at any side), the page not scrolled. */
async function onScreen(page: Page, name: string, role: 'button' | 'img') {
  const element = page.getByRole(role, { name, exact: true });
  return element.evaluate((node) => {
    const rect = node.getBoundingClientRect();
    const scroller = document.scrollingElement!;
    return (
      rect.top >= 0 &&
      rect.left >= 0 &&
      rect.bottom <= window.innerHeight &&
      rect.right <= window.innerWidth &&
      scroller.scrollTop === 0
    );
  });
}

async function expectSigningFits(page: Page) {
  for (const [name, role] of [
    ['Recuadro para tu firma', 'img'],
    ['Guardar firma', 'button'],
    ['Reintentar firma', 'button'],
  ] as const)
    await expect.poll(() => onScreen(page, name, role), `${name} on screen`).toBe(true);
  // The SPEC's proportions (300 × 470) kept as the box shrinks.
  const box = (await page.getByRole('img', { name: 'Recuadro para tu firma' }).boundingBox())!;
  expect(box.width / box.height).toBeCloseTo(300 / 470, 1);
}

/** The width and height of a PNG (its IHDR). */
const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });

/** The width and height a WebP file declares (VP8, VP8L or VP8X). */
function webpSize(file: Buffer): { width: number; height: number } {
  expect(file.subarray(0, 4).toString('latin1')).toBe('RIFF');
  expect(file.subarray(8, 12).toString('latin1')).toBe('WEBP');
  const chunk = file.subarray(12, 16).toString('latin1');
  if (chunk === 'VP8X') return { width: file.readUIntLE(24, 3) + 1, height: file.readUIntLE(27, 3) + 1 };
  if (chunk === 'VP8L') {
    const bits = file.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  return { width: file.readUInt16LE(26) & 0x3fff, height: file.readUInt16LE(28) & 0x3fff };
}

test('the signature box and its buttons fit the screen upright and sideways; the signature keeps its size', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const upright = page.viewportSize()!;
  const { userId } = await openSigningLink(page, APPROVED());
  await verifyIdentity(page);
  await expect.poll(() => serverStatus(page, userId), { timeout: 15_000 }).not.toBeNull();
  // The SPEC's first status check at 4:30 (the answer may already be on screen).
  await page.clock.fastForward(30_000);
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page).toHaveURL(`/SK/${userId}/titular/singning`);

  await expectSigningFits(page);
  await drawSignature(page);
  // A swipe on the box draws: the page did not move.
  await expectSigningFits(page);
  await screenshot(page, 'singning');
  await page.getByRole('button', { name: 'Guardar firma' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancelar' }).click();

  // The phone turned sideways.
  await page.setViewportSize({ width: upright.height, height: upright.width });
  await expectSigningFits(page);
  await page.getByRole('button', { name: 'Reintentar firma' }).click();
  await drawSignature(page);
  await expectSigningFits(page);
  await screenshot(page, 'singning-sideways');
  await page.getByRole('button', { name: 'Guardar firma' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Entiendo y acepto los términos del contrato').check();
  const signing = page.waitForRequest((request) => request.method() === 'PUT' && request.url().endsWith('/contract'));
  await dialog.getByRole('button', { name: 'Continuar' }).click();
  const { signature } = (await signing).postDataJSON() as { signature: string };
  await expect(page.getByRole('heading', { name: 'Felicidades' })).toBeVisible();

  // Two thirds of the box's width, at one device pixel per CSS pixel: ~200 of the SPEC's 300
  // units, with the pen's width and the margin, whatever size the box was shown at.
  const { width, height } = pngSize(Buffer.from(signature, 'base64'));
  expect(width).toBeGreaterThanOrEqual(200);
  expect(width).toBeLessThanOrEqual(240);
  expect(height).toBeLessThan(width);
});

test('each photo goes up as soon as it is accepted, as WebP; an answer lost on the way is not sent twice', async ({
  page,
}) => {
  test.setTimeout(90_000);
  // The back's photo reaches the server, and its answer is lost (the connection dropped).
  const sent = await watchUploads(page, { dropAnswerTo: '/identity-photos/id_back/' });
  await openSigningLink(page, APPROVED(), { clock: false });

  for (const [i, label] of PHOTO_LABELS.entries()) {
    await takePhoto(page, label);
    await page.getByRole('button', { name: 'Usar foto' }).click();
    // On its way while the person takes the next one.
    await expect.poll(async () => photoBodies(await sent()).length, `${label} sent once accepted`).toBe(i + 1);
    if (i === 1) {
      await expect(page.getByText('Fotos enviadas: 2 de 3')).toBeVisible();
      await screenshot(page, 'identity-photo-step-uploads');
    }
  }
  // Each photo says it arrived; the back was not sent again after its lost answer.
  for (const label of PHOTO_LABELS)
    await expect(page.getByRole('listitem').filter({ hasText: label })).toContainText('Enviada');
  await screenshot(page, 'identity-photos-sent');
  expect(photoBodies(await sent())).toHaveLength(3);

  await page.getByRole('button', { name: 'Enviar documentos' }).click();
  await expect(page.getByText('Espera un momento, estamos revisando tus documentos')).toBeVisible();
  const photos = photoBodies(await sent());
  expect(photos).toHaveLength(3);

  // WebP (Chromium encodes it), at least the 600 × 600 pixels MetaMap asks of a photo, and in
  // all at most 40 % of the bytes the three photos took before.
  let bytes = 0;
  for (const photo of photos) {
    bytes += photo.bytes;
    expect(photo.type).toBe('image/webp');
    const { width, height } = webpSize(Buffer.from(photo.head, 'base64'));
    expect(Math.min(width, height)).toBeGreaterThanOrEqual(600);
    expect(Math.max(width, height)).toBeLessThanOrEqual(1280);
  }
  console.log(`identity photos: ${bytes} bytes (before: ${BYTES_BEFORE})`);
  expect(bytes).toBeLessThanOrEqual(BYTES_BEFORE * 0.4);
});

test('an approved person moves on within two seconds of the answer, without waiting for 4:30', async ({ page }) => {
  test.setTimeout(60_000);
  const { userId } = await openSigningLink(page, APPROVED(), { clock: false });
  await verifyIdentity(page);
  await expect.poll(() => serverStatus(page, userId), { timeout: 15_000, intervals: [100] }).toBe('APPROVED');
  await expect(page.getByRole('heading', { name: 'Fueron aprobados tus documentos' })).toBeVisible({
    timeout: 2_000,
  });
});

test('reloading the review screen keeps its countdown (the server’s deadline)', async ({ page }) => {
  test.setTimeout(60_000);
  await openSigningLink(page, SILENT(), { clock: false });
  await verifyIdentity(page);
  const timer = page.getByRole('timer');
  const seconds = async () => {
    const [minutes, rest] = (await timer.textContent())!.split(':');
    return Number(minutes) * 60 + Number(rest);
  };
  await expect.poll(seconds, { timeout: 15_000 }).toBeLessThanOrEqual(292);
  const before = await seconds();
  await page.reload();
  await expect(page.getByText('Espera un momento, estamos revisando tus documentos')).toBeVisible();
  const after = await seconds();
  expect(after).toBeLessThanOrEqual(before);
  expect(after).toBeGreaterThanOrEqual(before - 5);
  await screenshot(page, 'review-documents-reloaded');
});
