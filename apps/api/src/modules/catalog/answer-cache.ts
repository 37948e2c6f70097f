import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import type { CatalogRevision } from '../../db/catalog-revision.js';
import { CATALOG_CACHE_CONTROL, etagOf } from './catalog-cache.js';

/** A catalogue answer: as validated, as sent (its JSON), and that JSON's ETag. */
interface Answer<T = unknown> {
  body: T;
  json: string;
  etag: string;
}

/** More distinct answers than this (zip codes, say) start the cache over rather than grow it. */
const MAX_ANSWERS = 5_000;

/**
 * The catalogue's answers (lists of states, municipalities, sectors, business types…), validated
 * and serialised once per catalogue revision and sent as they are until the revision moves on:
 * a list costs no query, no validation and no hashing while the catalogue stays the same, which
 * is almost always (it changes by an import or an operator, db/catalog-revision.ts).
 */
export function createAnswerCache(catalog: CatalogRevision) {
  let revision: number | undefined;
  let answers = new Map<string, Answer | null>();

  /** The answer under `key` for the current revision; `read` builds it (null: there is none). */
  async function answer<T>(
    key: string,
    schema: z.ZodType<T>,
    read: () => Promise<T | null>,
  ): Promise<Answer<T> | null> {
    const current = await catalog.current();
    if (current !== revision) {
      revision = current;
      answers = new Map();
    }
    const kept = answers.get(key);
    if (kept !== undefined) return kept as Answer<T> | null;
    const found = await read();
    let built: Answer<T> | null = null;
    if (found !== null) {
      const body = schema.parse(found);
      const json = JSON.stringify(body);
      built = { body, json, etag: etagOf(json) };
    }
    // Kept only if the revision did not move on while it was read.
    if (revision === current) {
      if (answers.size >= MAX_ANSWERS) answers = new Map();
      answers.set(key, built);
    }
    return built;
  }

  /**
   * An answer to return from a handler, with the catalogue's caching headers (catalog-cache.ts adds
   * the 304); its JSON goes out as it was made when the answer was built (validated by the route's
   * schema then), with no serialisation per request.
   */
  function send<T>(reply: FastifyReply, { body, json, etag }: Answer<T>): T {
    reply
      .header('cache-control', CATALOG_CACHE_CONTROL)
      .header('etag', etag)
      .type('application/json; charset=utf-8')
      .serializer(() => json);
    return body;
  }

  /** The answer under `key`, sent; `read` always has one (a list, maybe empty). */
  async function sendList<T>(reply: FastifyReply, key: string, schema: z.ZodType<T>, read: () => Promise<T>) {
    return send(reply, (await answer(key, schema, read))!);
  }

  return { answer, send, sendList };
}
