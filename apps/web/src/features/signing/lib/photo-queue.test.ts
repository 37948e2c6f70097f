import type { IdentityDocumentKind } from '@provee/domain';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../shared/lib/api-client.js';
import { MAX_FAILURES, PhotoQueue, type PhotoTransport } from './photo-queue.js';

/** A server stand-in: what it holds, every PUT it saw, and how the next PUTs of a kind end. */
function fakeServer() {
  const held = new Map<IdentityDocumentKind, string>();
  const puts: IdentityDocumentKind[] = [];
  const askedHeld: number[] = [];
  /** Per kind, what the next PUTs do: 'ok', 'drop' (no answer, nothing stored), 'lost' (stored, answer lost), or an error. */
  const script = new Map<IdentityDocumentKind, ('ok' | 'drop' | 'lost' | ApiError)[]>();
  let inFlight = 0;
  let maxInFlight = 0;
  const transport: PhotoTransport = {
    sha256: async (blob) => `sha-${names.get(blob)}`,
    put: (photo, onProgress) => {
      puts.push(photo.kind);
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const step = script.get(photo.kind)?.shift() ?? 'ok';
      const done = (async () => {
        await Promise.resolve();
        onProgress(photo.blob.size, photo.blob.size);
        inFlight -= 1;
        if (step instanceof ApiError) throw step;
        if (step === 'drop') throw new ApiError(0, 'NETWORK_ERROR', 'x', 'x');
        held.set(photo.kind, photo.sha256);
        if (step === 'lost') throw new ApiError(0, 'NETWORK_ERROR', 'x', 'x');
      })();
      return { done, abort: () => {} };
    },
    held: async () => {
      askedHeld.push(puts.length);
      return [...held].map(([kind, sha256]) => ({ kind, sha256 }));
    },
  };
  return { transport, held, puts, askedHeld, script, maxInFlight: () => maxInFlight };
}

/** A photo stands in as a Blob with a name (jsdom's Blob cannot be read back). */
const names = new WeakMap<Blob, string>();
const photo = (text: string) => {
  const blob = new Blob([text], { type: 'image/webp' });
  names.set(blob, text);
  return blob;
};

describe('PhotoQueue: the identity photos sent in the background', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends each photo as it is accepted, one at a time, and answers the three hashes', async () => {
    const server = fakeServer();
    const queue = new PhotoQueue(server.transport);
    queue.put('id_front', photo('front'));
    queue.put('id_back', photo('back'));
    queue.put('selfie', photo('selfie'));
    const hashes = await queue.whenSent();
    expect(hashes).toEqual({ id_front: 'sha-front', id_back: 'sha-back', selfie: 'sha-selfie' });
    expect(server.puts).toEqual(['id_front', 'id_back', 'selfie']);
    expect(server.maxInFlight()).toBe(1);
    expect(queue.snapshot().map((entry) => entry.status)).toEqual(['sent', 'sent', 'sent']);
  });

  it('an answer lost on the way: asks the server, and does not send the photo again', async () => {
    const server = fakeServer();
    server.script.set('id_back', ['lost']);
    const queue = new PhotoQueue(server.transport);
    queue.put('id_front', photo('front'));
    queue.put('id_back', photo('back'));
    queue.put('selfie', photo('selfie'));
    const sent = queue.whenSent();
    await vi.runAllTimersAsync();
    await sent;
    expect(server.puts.filter((kind) => kind === 'id_back')).toHaveLength(1);
    expect(server.askedHeld).toHaveLength(1);
  });

  it('a request that never arrived is sent again after a pause (the others first), or at once back online', async () => {
    const server = fakeServer();
    server.script.set('id_front', ['drop', 'drop']);
    const queue = new PhotoQueue(server.transport);
    queue.put('id_front', photo('front'));
    queue.put('id_back', photo('back'));
    await vi.advanceTimersByTimeAsync(0);
    expect(queue.snapshot()[0]).toMatchObject({ kind: 'id_front', status: 'waiting' });
    // The back went while the front waited.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(server.puts).toEqual(['id_front', 'id_back', 'id_front']);
    window.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(0);
    queue.put('selfie', photo('selfie'));
    const hashes = queue.whenSent();
    await vi.runAllTimersAsync();
    expect((await hashes).id_front).toBe('sha-front');
    expect(server.puts.filter((kind) => kind === 'id_front')).toHaveLength(3);
  });

  it("waits as long as the server asks (429's retry_after_seconds), then sends again", async () => {
    const server = fakeServer();
    const later = new ApiError(429, 'RATE_LIMITED', 'x', 'x', undefined, { retry_after_seconds: 30 });
    server.script.set('id_front', [later]);
    const queue = new PhotoQueue(server.transport);
    queue.put('id_front', photo('front'));
    await vi.advanceTimersByTimeAsync(29_000);
    expect(server.puts).toEqual(['id_front']);
    await vi.advanceTimersByTimeAsync(1_100);
    expect(server.puts).toEqual(['id_front', 'id_front']);
  });

  it(`stops trying by itself after ${MAX_FAILURES} tries without an answer: the photo is to be taken again`, async () => {
    const server = fakeServer();
    server.script.set(
      'id_front',
      Array.from({ length: MAX_FAILURES + 5 }, () => 'drop' as const),
    );
    const queue = new PhotoQueue(server.transport);
    queue.put('id_front', photo('front'));
    const sent = queue.whenSent().catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(server.puts).toHaveLength(MAX_FAILURES);
    expect(await sent).toMatchObject({ status: 0, readableMessage: expect.stringMatching(/tómala de nuevo/) });
    expect(queue.snapshot()[0]).toMatchObject({ status: 'refused' });
  });

  it('a refused photo stops: the screen gets its error until it is taken again', async () => {
    const server = fakeServer();
    const refusal = new ApiError(
      400,
      'VALIDATION_ERROR',
      'invalid',
      'Tu selfie está incompleta o dañada. Tómala de nuevo.',
    );
    server.script.set('selfie', [refusal]);
    const queue = new PhotoQueue(server.transport);
    queue.put('id_front', photo('front'));
    queue.put('id_back', photo('back'));
    queue.put('selfie', photo('selfie'));
    await expect(queue.whenSent()).rejects.toBe(refusal);
    expect(queue.snapshot()[2]).toMatchObject({ status: 'refused', error: refusal });
    queue.put('selfie', photo('selfie 2'));
    expect((await queue.whenSent()).selfie).toBe('sha-selfie 2');
    expect(server.puts).toEqual(['id_front', 'id_back', 'selfie', 'selfie']);
  });

  it('sends again what the server says it lacks', async () => {
    const server = fakeServer();
    const queue = new PhotoQueue(server.transport);
    for (const kind of ['id_front', 'id_back', 'selfie'] as const) queue.put(kind, photo(kind));
    await queue.whenSent();
    queue.resend(['id_back']);
    await queue.whenSent();
    expect(server.puts).toEqual(['id_front', 'id_back', 'selfie', 'id_back']);
  });
});
