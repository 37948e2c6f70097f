import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { chooseEncoding, pathPattern } from './spa.js';

const STYLE = 'body{margin:0}h1{font-family:Poppins}';
const FONT = '<link rel="preload" as="font" type="font/woff2" href="/assets/poppins-400.woff2" crossorigin="">';
const TEMPLATE = `<html><head><!--app-config--><link rel="modulepreload" crossorigin href="/assets/react.js"><style>${STYLE}</style>\n    ${FONT}</head><body><div id="root"></div><script type="module" src="/assets/app.js"></script></body></html>`;

/** A built web app whose server entry (dist/server/prerender.js) is `prerender`. */
function webDist(prerender: string): string {
  const dist = mkdtempSync(join(tmpdir(), 'provee-dist-'));
  mkdirSync(join(dist, 'assets'));
  mkdirSync(join(dist, 'server'));
  writeFileSync(join(dist, 'index.html'), TEMPLATE);
  writeFileSync(join(dist, 'server', 'prerender.js'), prerender);
  return dist;
}

const page = async (t: TestApp, url: string) => {
  const res = await t.app.inject({ method: 'GET', url });
  expect(res.statusCode, url).toBe(200);
  expect(res.headers['content-type'], url).toContain('text/html');
  expect(res.headers['cache-control'], url).toBe('no-cache');
  return res.body;
};

describe('the prerendered landing (docs/decisions/016)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Renders what the configuration says, as apps/web/src/app/prerender.tsx does.
    const dist = webDist(
      [
        'export const renderLanding = (config) => `<h1>Surte tu negocio con ${config.appName}</h1><p>${config.country.phonePrefix}</p>`;',
        "export const renderPreviews = async (config) => [{ path: '/:phoneNumber/about-you', html: `<h1>Sobre ti</h1><p>${config.appName}</p>` }];",
      ].join('\n'),
    );
    t = await createTestApp({ WEB_DIST_DIR: dist, APP_NAME: 'Surtido', COUNTRY: 'mx' });
  });
  afterAll(() => t.close());

  it.each(['/', '/home', '/home/', '/home?utm_source=radio'])(
    'GET %s: the landing rendered with this configuration inside #root, and the config',
    async (url) => {
      const body = await page(t, url);
      expect(body).toContain('<div id="root"><h1>Surte tu negocio con Surtido</h1><p>+52</p></div>');
      expect(body).toContain('<meta name="app-config" content="');
    },
  );

  it.each(['/5512345678/about-you', '/5512345678/about-you/', '/55%2012/about-you?x=1'])(
    'GET %s: the previewed screen inside #root, fields disabled and the rest inert until the app replaces it (decision 019)',
    async (url) => {
      const body = await page(t, url);
      expect(body).toContain(
        '<div id="root" data-preview><fieldset class="screen-preview" disabled inert><h1>Sobre ti</h1><p>Surtido</p></fieldset></div>',
      );
      // Its JS is asked for after the first paint, as the landing's.
      expect(body).not.toContain('src="/assets/app.js"');
      expect(body).toContain('import("/assets/app.js")');
    },
  );

  it.each([
    '/home/5512345678',
    '/5512345678/about-you/more',
    '/about-you',
    '/a/b/about-you',
    '/not-found',
    // The guarantor's PIN screen (reloaded or opened from a link): a page, not the partner API.
    '/partner/SK/2b1c3d4e-0000-4000-8000-000000000000/5512345678/send-nip-partner',
    '/partner',
  ])('GET %s: the empty #root, rendered in the browser', async (url) => {
    const body = await page(t, url);
    expect(body).toContain('<div id="root"></div>');
    expect(body).toContain('<meta name="app-config" content="');
  });

  it('the inline stylesheet and boot script are allowed by their hashes, nothing else inline', async () => {
    const hash = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;
    for (const url of ['/home', '/5512345678/about-you', '/not-found']) {
      const res = await t.app.inject({ method: 'GET', url });
      const directives = String(res.headers['content-security-policy']).split('; ');
      expect(directives, url).toContain(`style-src 'self' ${hash}`);
    }
    for (const url of ['/home', '/5512345678/about-you', '/not-found']) expect(await page(t, url)).toContain(FONT);
    // The landing asks for its JS in its first frame, by an inline script the CSP allows by hash.
    const landing = await page(t, '/home');
    const boot = /<script type="module">([^<]+)<\/script>/.exec(landing)?.[1];
    expect(boot).toContain("observe({ type: 'paint', buffered: true })");
    expect(boot).toContain('import("/assets/app.js")');
    expect(boot).toContain('["/assets/react.js"]');
    expect(landing).not.toContain('src="/assets/app.js"');
    expect(landing).not.toContain('<link rel="modulepreload"');
    const bootHash = `'sha256-${createHash('sha256').update(boot!).digest('base64')}'`;
    for (const url of ['/home', '/5512345678/about-you', '/not-found']) {
      const csp = (await t.app.inject({ method: 'GET', url })).headers['content-security-policy'];
      expect(String(csp).split('; '), url).toContain(`script-src 'self' ${bootHash}`);
      expect(await page(t, url), url).toContain(`<style>${STYLE}</style>`);
    }
    const other = await page(t, '/not-found');
    expect(other).toContain('<script type="module" src="/assets/app.js"></script>');
    expect(other).toContain('<link rel="modulepreload" crossorigin href="/assets/react.js">');
  });

  it('pages are sent compressed as the browser accepts (brotli, else gzip), the same page', async () => {
    for (const url of ['/home', '/8095551234/about-you']) {
      const plain = await t.app.inject({ method: 'GET', url });
      expect(plain.headers['content-encoding'], url).toBeUndefined();
      expect(plain.headers.vary, url).toMatch(/accept-encoding/);
      const br = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(br.headers['content-encoding'], url).toBe('br');
      expect(brotliDecompressSync(br.rawPayload).toString(), url).toBe(plain.body);
      const gzip = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip;q=1, br;q=0' } });
      expect(gzip.headers['content-encoding'], url).toBe('gzip');
      expect(gunzipSync(gzip.rawPayload).toString(), url).toBe(plain.body);
    }
  });

  it('chooses the encoding by Accept-Encoding and its q-values', () => {
    expect(chooseEncoding('gzip, deflate, br')).toBe('br');
    expect(chooseEncoding('gzip')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('identity')).toBe('identity');
    expect(chooseEncoding(undefined)).toBe('identity');
  });

  it('a screen path pattern matches its paths: each parameter one segment, a final slash allowed', () => {
    const aboutYou = pathPattern('/:phoneNumber/about-you');
    expect(['/8095551234/about-you', '/8095551234/about-you/'].map(aboutYou)).toEqual([true, true]);
    expect(['/about-you', '//about-you', '/a/b/about-you', '/8095551234/about-yous'].map(aboutYou)).toEqual([
      false,
      false,
      false,
      false,
    ]);
    const sign = pathPattern('/send-contract-sign');
    expect(['/send-contract-sign', '/send-contract-signs', '/x/send-contract-sign'].map(sign)).toEqual([
      true,
      false,
      false,
    ]);
    expect(pathPattern('/a.b')('/axb')).toBe(false);
  });

  it("the prerender's code is not served", async () => {
    const body = await page(t, '/server/prerender.js');
    expect(body).not.toContain('renderLanding');
  });
});

describe('a prerender that fails', () => {
  let t: TestApp;
  beforeAll(async () => {
    const dist = webDist(
      'export const renderLanding = () => "<h1>ok</h1>"; export const renderPreviews = async () => { throw new Error("boom"); };',
    );
    t = await createTestApp({ WEB_DIST_DIR: dist });
  });
  afterAll(() => t.close());

  it('leaves the landing and the previewed screens to the browser: the server still starts and serves them', async () => {
    for (const url of ['/home', '/8095551234/about-you'])
      expect(await page(t, url), url).toContain('<div id="root"></div>');
  });
});
