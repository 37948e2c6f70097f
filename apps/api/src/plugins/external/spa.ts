import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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
    globIgnore: ['index.html', 'assets/**', '**/*.gz', '**/*.br'],
    maxAge: '1h',
  });
  return {
    sendIndex: (reply) => reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml),
  };
}
