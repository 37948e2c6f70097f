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
/** The paths whose first paint is the prerendered landing (the web router shows it on both). */
const LANDING_PATHS = new Set(['/', '/home', '/home/']);
/** The web build's server entry (apps/web/src/app/prerender.tsx, built by `vite build --ssr`). */
const PRERENDER_ENTRY = 'server/prerender.js';

/**
 * index.html with the landing's markup inside #root, rendered once at start with this process's
 * configuration, so /home paints before any JS arrives (docs/decisions/016). Null when the build
 * has no prerender entry or it fails: the page then renders in the browser, as every other one.
 */
async function renderLandingHtml(app: FastifyInstance, distDir: string, indexHtml: string, config: PublicConfig) {
  const entry = join(distDir, PRERENDER_ENTRY);
  if (!existsSync(entry) || !indexHtml.includes(ROOT)) {
    app.log.warn({ entry }, 'landing not prerendered: no server entry in the web build (run npm run build)');
    return null;
  }
  try {
    const { renderLanding } = (await import(pathToFileURL(entry).href)) as {
      renderLanding: (config: PublicConfig) => string;
    };
    return indexHtml.replace(ROOT, `<div id="root">${renderLanding(config)}</div>`);
  } catch (error) {
    app.log.error({ err: error }, 'landing prerender failed: the landing renders in the browser');
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

export interface Spa {
  sendIndex(reply: FastifyReply): FastifyReply;
}

/** Serves the built SPA: hashed assets cached for a year, index.html never cached. */
export async function registerSpa(app: FastifyInstance, distDir: string, config: PublicConfig): Promise<Spa | null> {
  const indexPath = join(distDir, 'index.html');
  if (!existsSync(indexPath)) {
    app.log.warn({ distDir }, 'web app not built: only the API is served (run npm run build)');
    return null;
  }
  const indexHtml = renderIndexHtml(readFileSync(indexPath, 'utf8'), config);
  const landingHtml = (await renderLandingHtml(app, distDir, indexHtml, config)) ?? indexHtml;
  // Served from the not-found handler (any deep link), which @fastify/compress does not reach.
  const index = page(indexHtml);
  const landing = page(landingHtml);
  // Hashed build output: safe to cache for a year.
  await app.register(fastifyStatic, {
    root: join(distDir, 'assets'),
    prefix: '/assets/',
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
    sendIndex: (reply) => {
      const path = reply.request.url.split('?')[0] ?? '';
      const encoding = chooseEncoding(reply.request.headers['accept-encoding']);
      if (encoding !== 'identity') reply.header('content-encoding', encoding);
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('vary', 'accept-encoding')
        .send((LANDING_PATHS.has(path) ? landing : index)[encoding]);
    },
  };
}
