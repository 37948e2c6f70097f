import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Catalogue answers are cached by the browser but revalidated on every use (`no-cache` + ETag):
 * the ETag is a hash of the answer itself, so an import, a newer shipped catalogue or an
 * operator's `allowed` change shows as soon as the server sees the catalogue's new revision
 * (within a second, db/catalog-revision.ts), with no version for the web app to learn (a version
 * in the URL would need one, and a tab opened before an import would keep asking for the old
 * one). An unchanged list costs a 304 with no body; the server keeps each answer and its ETag
 * (answer-cache.ts).
 */
export const CATALOG_CACHE_CONTROL = 'no-cache';

export function etagOf(payload: string): string {
  return `"${createHash('sha256').update(payload).digest('base64url').slice(0, 27)}"`;
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const value = tag.trim();
    return value === '*' || value.replace(/^W\//, '') === etag;
  });
}

/** onSend hook: answers marked with CATALOG_CACHE_CONTROL get an ETag, and a 304 when the browser has them. */
export async function catalogEtag(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  if (
    request.method !== 'GET' ||
    reply.statusCode !== 200 ||
    reply.getHeader('cache-control') !== CATALOG_CACHE_CONTROL ||
    typeof payload !== 'string'
  )
    return payload;
  // A kept answer carries its ETag already (answer-cache.ts).
  const etag = (reply.getHeader('etag') as string | undefined) ?? etagOf(payload);
  reply.header('etag', etag);
  if (!matches(request.headers['if-none-match'], etag)) return payload;
  reply.code(304);
  reply.removeHeader('content-type');
  reply.removeHeader('content-length');
  return '';
}
