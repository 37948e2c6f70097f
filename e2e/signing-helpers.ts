import type { ContractEvidence } from '@provee/domain';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect } from './fixtures.js';
import { cedulaFrom, preApprovedShopkeeper, sendSigningLink, smsWith, uniqueCedula } from './helpers.js';

const random = (digits: number) => String(Math.floor(Math.random() * 10 ** digits)).padStart(digits, '0');
/** The verifier simulator's test identities (README, "Contract signing"); any other tax id is approved. */
export const APPROVED = uniqueCedula;
export const REJECTED = () => cedulaFrom(`9990006${random(3)}`);
export const UNDER_REVIEW = () => cedulaFrom(`9990007${random(3)}`);
export const SILENT = () => cedulaFrom(`9990008${random(3)}`);
/** The review countdown a few seconds after it started at 5:00. */
export const JUST_STARTED = /^(5:00|4:[45]\d)$/;
export const PHOTO_LABELS = ['Frente de tu cédula', 'Reverso de tu cédula', 'Tu selfie'] as const;

/**
 * A shopkeeper gets a pre-approval through the PIN screen, an analyst sends the signing link from
 * the back office, and the shopkeeper opens it from the SMS. With `clock` (the default) the page's
 * clock is the test's (the review countdown).
 */
export async function openSigningLink(
  page: Page,
  taxId: string,
  { clock = true }: { clock?: boolean } = {},
): Promise<{ userId: string; phone: string; link: string }> {
  const { phone, userId } = await preApprovedShopkeeper(page, taxId);
  await sendSigningLink(page.request, userId);
  const link = await openSigningSms(page, phone, { clock });
  return { userId, phone, link: `${link.pathname}${link.search}` };
}

/**
 * Opens the signing link of the newest SMS to `phone` in this page as a new tab would: only the
 * link's token, none of the registration's session. With `clock`, the page's clock is the test's.
 */
export async function openSigningSms(page: Page, phone: string, { clock = true } = {}): Promise<URL> {
  const sms = await smsWith(page.request, phone, 'send-contract-sign');
  const link = new URL(/(https?:\/\/\S+)/.exec(sms)![1]!);
  await page.evaluate(() => sessionStorage.clear());
  if (clock) await page.clock.install();
  await page.goto(`${link.pathname}${link.search}`);
  await expect(page.getByRole('heading', { name: 'Firma de contrato' })).toBeVisible();
  return link;
}

/** One photo of the built-in widget with Chromium's fake camera, as a person takes it. */
export async function takePhoto(page: Page, label: string): Promise<void> {
  await expect(page.getByRole('heading', { name: label })).toBeVisible();
  // As a person does: wait until the camera shows a picture.
  const camera = page.getByLabel(`Vista de la cámara: ${label}`);
  await expect.poll(() => camera.evaluate((video: HTMLVideoElement) => video.videoWidth)).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Tomar foto' }).click();
  await expect(page.getByRole('img', { name: `Foto: ${label}` })).toBeVisible();
}

/** The built-in widget: ID front, ID back, selfie, then send; the review screen shows. */
export async function verifyIdentity(page: Page): Promise<void> {
  for (const label of PHOTO_LABELS) {
    await takePhoto(page, label);
    await page.getByRole('button', { name: 'Usar foto' }).click();
  }
  await page.getByRole('button', { name: 'Enviar documentos' }).click();
  await expect(page.getByText('Espera un momento, estamos revisando tus documentos')).toBeVisible();
}

/** The verifier's answer as the review screen would ask for it (with the link's token), or null. */
export async function serverStatus(page: Page, userId: string): Promise<string | null> {
  return page.evaluate(async (id) => {
    const token = sessionStorage.getItem('contract_token');
    const res = await fetch(`/api/v1/users/SK/${id}/mati-status?verification_type=VERIFICATION&person_type=titular`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return ((await res.json()) as { data: { status: string | null } }).data.status;
  }, userId);
}

/** A finger stroke across the signature box, from `from` to `to` of its width (fractions), at mid height. */
export async function drawSignature(page: Page, { from = 0.13, to = 0.8 } = {}): Promise<void> {
  const canvas = page.getByRole('img', { name: 'Recuadro para tu firma' });
  const box = (await canvas.boundingBox())!;
  const y = box.y + box.height * 0.45;
  const amplitude = box.height * 0.12;
  await page.mouse.move(box.x + box.width * from, y);
  await page.mouse.down();
  for (let i = 1; i <= 20; i++)
    await page.mouse.move(box.x + box.width * (from + ((to - from) * i) / 20), y + Math.sin(i / 2) * amplitude);
  await page.mouse.up();
}

/** A body the page handed to the network: its size, content type and first bytes (base64). */
export interface SentBody {
  method: string;
  url: string;
  type: string;
  bytes: number;
  head: string;
}

/**
 * Records every request body the page sends with fetch or XMLHttpRequest (Playwright cannot read a
 * Blob body), and, with `dropAnswerTo`, loses the answer to the first PUT whose address contains it:
 * the server got and answered it, the page sees a failed request (a connection dropped on the way
 * back). Call before `goto`; `sent()` answers what was sent so far.
 */
export async function watchUploads(page: Page, { dropAnswerTo = '' } = {}): Promise<() => Promise<SentBody[]>> {
  await page.addInitScript((drop: string) => {
    type Entry = { method: string; url: string; type: string; bytes: number; head: Promise<string> | string };
    const sent: Entry[] = [];
    (window as unknown as { __sent: Entry[] }).__sent = sent;
    const headOf = async (blob: Blob) =>
      btoa(String.fromCharCode(...new Uint8Array(await blob.slice(0, 32).arrayBuffer())));
    const record = (method: string, url: string, body: unknown, type: string) => {
      if (body instanceof Blob)
        sent.push({ method, url, type: type || body.type, bytes: body.size, head: headOf(body) });
      else if (body instanceof FormData) {
        let bytes = 0;
        body.forEach((value) => (bytes += typeof value === 'string' ? value.length : value.size));
        sent.push({ method, url, type: 'multipart/form-data', bytes, head: '' });
      } else if (typeof body === 'string') sent.push({ method, url, type, bytes: body.length, head: '' });
    };
    const open = XMLHttpRequest.prototype.open;
    const setHeader = XMLHttpRequest.prototype.setRequestHeader;
    const send = XMLHttpRequest.prototype.send;
    const meta = new WeakMap<XMLHttpRequest, { method: string; url: string; type: string }>();
    XMLHttpRequest.prototype.open = function (this: XMLHttpRequest, method: string, url: string | URL) {
      meta.set(this, { method, url: String(url), type: '' });
      // eslint-disable-next-line prefer-rest-params -- the original's own arguments
      return open.apply(this, arguments as unknown as Parameters<typeof open>);
    } as typeof open;
    XMLHttpRequest.prototype.setRequestHeader = function (this: XMLHttpRequest, name: string, value: string) {
      if (name.toLowerCase() === 'content-type') meta.get(this)!.type = value;
      return setHeader.call(this, name, value);
    };
    XMLHttpRequest.prototype.send = function (this: XMLHttpRequest, body?: Document | XMLHttpRequestBodyInit | null) {
      const { method, url, type } = meta.get(this)!;
      record(method, url, body, type);
      if (drop && method === 'PUT' && url.includes(drop)) {
        drop = '';
        const delivered = this.onload;
        this.onload = () => {
          this.onload = delivered;
          this.onerror?.(new ProgressEvent('error'));
        };
      }
      return send.call(this, body);
    };
    const fetchFirst = window.fetch;
    window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      const headers = new Headers(init?.headers);
      record(
        init?.method ?? 'GET',
        String(input instanceof Request ? input.url : input),
        init?.body,
        headers.get('content-type') ?? '',
      );
      return fetchFirst(input, init);
    };
  }, dropAnswerTo);
  return () =>
    page.evaluate(async () => {
      const sent = (window as unknown as { __sent: (Omit<SentBody, 'head'> & { head: Promise<string> | string })[] })
        .__sent;
      return Promise.all(sent.map(async (entry) => ({ ...entry, head: await entry.head })));
    });
}

/** The bodies that carried an identity photo (an image, or a form of them). */
export const photoBodies = (sent: SentBody[]) =>
  sent.filter((body) => body.bytes > 4_000 && (body.type.startsWith('image/') || body.type.startsWith('multipart/')));

/**
 * The signed contract's evidence (with the token of the copy's SMS link) once its seal has the
 * time-stamp (issue 36): the authority's answer goes into the PDF in place, so its hash and the file
 * the link serves settle only then.
 */
export async function stampedEvidence(
  request: APIRequestContext,
  userId: string,
  token: string,
): Promise<ContractEvidence> {
  let evidence: ContractEvidence | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get(`/api/v1/users/SK/${userId}/contract/evidence?token=${token}`);
        evidence = ((await res.json()) as { data: ContractEvidence }).data;
        return evidence.seal?.timestamp.status ?? 'not sealed';
      },
      { timeout: 30_000 },
    )
    .toBe('stamped');
  return evidence!;
}
