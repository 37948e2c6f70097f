import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { PublicConfig } from '@provee/domain';
import type { FastifyInstance, FastifyReply } from 'fastify';

const CONFIG_PLACEHOLDER = '<!--app-config-->';

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The public config travels inside index.html as a meta tag, so the first screen needs no
 * extra round trip on a slow network (a meta tag, not an inline script: the CSP allows none).
 */
export function renderIndexHtml(template: string, config: PublicConfig): string {
  const meta = `<meta name="app-config" content="${escapeAttribute(JSON.stringify(config))}">`;
  return template.replace(CONFIG_PLACEHOLDER, meta);
}

const ROOT = '<div id="root"></div>';
/** Where the hashed build output is served (one wildcard route of @fastify/static). */
export const ASSETS_PREFIX = '/assets/';
/** The paths whose first paint is the prerendered landing (the web router shows it on both). */
const LANDING_PATHS = new Set(['/', '/home', '/home/']);
/** The web build's server entry (apps/web/src/app/prerender.tsx, built by `vite build --ssr`). */
const PRERENDER_ENTRY = 'server/prerender.js';

/** What the web build's server entry exports (apps/web/src/app/prerender.tsx). */
interface PrerenderEntry {
  renderLanding(config: PublicConfig): string;
  renderPreviews(config: PublicConfig): Promise<{ path: string; html: string }[]>;
}

/** A previewed screen's page: the web router's path pattern, as a test on a request's path. */
interface Preview {
  matches: (path: string) => boolean;
  html: string;
}

/** `/:phoneNumber/about-you` → a test of a path against it (each `:name` one segment; a final slash allowed). */
export function pathPattern(pattern: string): (path: string) => boolean {
  const source = pattern
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  const regex = new RegExp(`^${source}/?$`);
  return (path) => regex.test(path);
}

/**
 * index.html with server-rendered markup inside #root, rendered once at start with this process's
 * configuration: the landing, which the browser hydrates (docs/decisions/016), and the previewed
 * screens, which it replaces (docs/decisions/019); each asks for its JS after its first paint
 * (`bootAfterFirstPaint`). Null when the build has no prerender entry or it fails: every page
 * then renders in the browser.
 */
async function renderPrerendered(app: FastifyInstance, distDir: string, indexHtml: string, config: PublicConfig) {
  const entry = join(distDir, PRERENDER_ENTRY);
  if (!existsSync(entry) || !indexHtml.includes(ROOT)) {
    app.log.warn({ entry }, 'landing not prerendered: no server entry in the web build (run npm run build)');
    return null;
  }
  try {
    const { renderLanding, renderPreviews } = (await import(pathToFileURL(entry).href)) as PrerenderEntry;
    const landing = bootAfterFirstPaint(indexHtml.replace(ROOT, `<div id="root">${renderLanding(config)}</div>`));
    const previews: Preview[] = (await renderPreviews(config)).map(({ path, html }) => ({
      matches: pathPattern(path),
      // The fieldset (display: contents) disables every field until the app takes over; inert, the rest.
      html: bootAfterFirstPaint(
        indexHtml.replace(
          ROOT,
          `<div id="root" data-preview><fieldset class="screen-preview" disabled inert>${html}</fieldset></div>`,
        ),
      ),
    }));
    return { landing, previews };
  } catch (error) {
    app.log.error({ err: error }, 'prerender failed: every page renders in the browser');
    return null;
  }
}

/** A page as sent: plain, and compressed once at start with the strongest settings (it never changes). */
interface Page {
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

function page(html: string): Page {
  const identity = Buffer.from(html);
  return {
    identity,
    br: brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    gzip: gzipSync(identity, { level: 9 }),
  };
}

/** The encoding to send for an Accept-Encoding header: brotli, else gzip, else none. */
export function chooseEncoding(accepted: string | undefined): 'br' | 'gzip' | 'identity' {
  const offered = new Map(
    (accepted ?? '').split(',').map((part) => {
      const [name = '', ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((param) => /^\s*q=([\d.]+)/.exec(param)?.[1]).find(Boolean);
      return [name.trim(), q === undefined ? 1 : Number(q)] as const;
    }),
  );
  const weight = (name: string) => offered.get(name) ?? offered.get('*') ?? 0;
  if (weight('br') > 0) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return 'identity';
}

const INLINE_STYLE = /<style>([\s\S]*?)<\/style>/g;
/** A `<script>` with its code in the page (no src). */
const INLINE_SCRIPT = /<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g;

/** The CSP source that allows exactly this inline text: `'sha256-…'` of it. */
export function inlineHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** What the page's inline stylesheet and scripts need in the CSP: their hashes, nothing broader. */
export interface InlineSources {
  style: string[];
  script: string[];
}

/** The built web app as this process serves it, read and rendered once at start. */
export interface WebBuild {
  distDir: string;
  /** `/` and `/home`: the prerendered landing. */
  landing: Page;
  /** The previewed screens' pages, by the path pattern each is sent for. */
  previews: { matches: (path: string) => boolean; page: Page }[];
  /** Every other path: the empty root that the browser renders. */
  index: Page;
  /** CSP sources for the pages' inline stylesheet and boot script (vite.config.ts). */
  inline: InlineSources;
}

/** Reads the built web app (null when there is none). */
export async function loadWebBuild(
  app: FastifyInstance,
  distDir: string,
  config: PublicConfig,
): Promise<WebBuild | null> {
  const indexPath = join(distDir, 'index.html');
  if (!existsSync(indexPath)) {
    app.log.warn({ distDir }, 'web app not built: only the API is served (run npm run build)');
    return null;
  }
  const indexHtml = renderIndexHtml(readFileSync(indexPath, 'utf8'), config);
  const prerendered = await renderPrerendered(app, distDir, indexHtml, config);
  const landingHtml = prerendered?.landing ?? indexHtml;
  const previews = prerendered?.previews ?? [];
  const pages = [landingHtml, indexHtml, ...previews.map(({ html }) => html)];
  const hashes = (pattern: RegExp) => [
    ...new Set(pages.flatMap((html) => [...html.matchAll(pattern)].map((match) => inlineHash(match[1]!)))),
  ];
  return {
    distDir,
    landing: page(landingHtml),
    previews: previews.map(({ matches, html }) => ({ matches, page: page(html) })),
    index: page(indexHtml),
    inline: { style: hashes(INLINE_STYLE), script: hashes(INLINE_SCRIPT) },
  };
}

const ENTRY_SCRIPT = /<script type="module"[^>]* src="([^"]+)"[^>]*><\/script>/;
const MODULE_PRELOAD = /\s*<link rel="modulepreload"[^>]* href="([^"]+)"[^>]*>/g;

/**
 * A prerendered page (the landing, a preview) asks for its JS once its first paint is on screen
 * (the browser's paint timing entries), instead of as soon as the HTML names it: that paint needs
 * none of it, and nothing should compete with it; on a fast connection the JS would otherwise
 * arrive (and be counted, by Lighthouse) before it. On 3G the requests go out a frame or two after
 * the HTML is parsed, all at once as before (the entry and its modulepreloads). Without a paint
 * within a second (a hidden tab, a browser without paint timing) it asks anyway.
 */
export function bootAfterFirstPaint(html: string): string {
  const entry = ENTRY_SCRIPT.exec(html);
  if (!entry) return html;
  const preloads = [...html.matchAll(MODULE_PRELOAD)].map((match) => match[1]!);
  const boot =
    `const boot = () => { for (const href of ${JSON.stringify(preloads)}) ` +
    `document.head.append(Object.assign(document.createElement('link'), { rel: 'modulepreload', href, crossOrigin: '' })); ` +
    `import(${JSON.stringify(entry[1])}); }; ` +
    `let booted = false; const once = () => { if (!booted) { booted = true; boot(); } }; ` +
    `try { new PerformanceObserver(once).observe({ type: 'paint', buffered: true }); } catch { once(); } ` +
    `setTimeout(once, 1000);`;
  return html.replace(entry[0], `<script type="module">${boot}</script>`).replace(MODULE_PRELOAD, '');
}

export interface Spa {
  sendIndex(reply: FastifyReply): FastifyReply;
}

/** Serves the built SPA: hashed assets cached for a year, index.html never cached. */
export async function registerSpa(app: FastifyInstance, build: WebBuild): Promise<Spa> {
  const { distDir, landing, previews, index } = build;
  const pageFor = (path: string) =>
    LANDING_PATHS.has(path) ? landing : (previews.find(({ matches }) => matches(path))?.page ?? index);
  // Hashed build output: safe to cache for a year.
  await app.register(fastifyStatic, {
    root: join(distDir, 'assets'),
    prefix: ASSETS_PREFIX,
    index: false,
    preCompressed: true,
    maxAge: '365d',
    immutable: true,
  });
  // Unhashed public files (favicon, robots.txt): one route each, found at start-up.
  await app.register(fastifyStatic, {
    root: distDir,
    prefix: '/',
    wildcard: false,
    index: false,
    decorateReply: false,
    // server/: the prerender's code, for this process only.
    globIgnore: ['index.html', 'assets/**', 'server/**', '**/*.gz', '**/*.br'],
    maxAge: '1h',
  });
  return {
    // Served from the not-found handler (any deep link): each page is compressed once, at start,
    // at brotli's highest quality, and sent with its encoding set (compression.ts leaves it).
    sendIndex: (reply) => {
      const path = reply.request.url.split('?')[0] ?? '';
      const encoding = chooseEncoding(reply.request.headers['accept-encoding']);
      if (encoding !== 'identity') reply.header('content-encoding', encoding);
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('vary', 'accept-encoding')
        .send(pageFor(path)[encoding]);
    },
  };
}
