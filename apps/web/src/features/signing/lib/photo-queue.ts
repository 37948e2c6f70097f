import { IDENTITY_DOCUMENT_KINDS, type IdentityDocumentKind } from '@provee/domain';
import { ApiError } from '../../../shared/lib/api-client.js';
import { retryAfterSeconds } from '../../../shared/lib/retry-after.js';

/**
 * The identity photos on their way to the server, one at a time in the order they were accepted
 * (on 3G, photos sent side by side would share the uplink and each arrive later). A photo whose
 * request fails without an answer (a dropped connection, a timeout, a server restarting) is tried
 * again after a pause, or as soon as the phone is back online; before sending it again the queue
 * asks what the server holds, so a photo that arrived (its answer lost) is never sent twice. A
 * refusal (the photo, the link) stops that photo until it is taken again.
 */

export type PhotoStatus = 'sending' | 'waiting' | 'sent' | 'refused';

export interface QueuedPhoto {
  kind: IdentityDocumentKind;
  blob: Blob;
  status: PhotoStatus;
  /** Bytes the browser has sent of this photo, and its size. */
  sent: number;
  total: number;
  error: ApiError | null;
}

export type Hashes = Record<IdentityDocumentKind, string>;

/** What the queue needs from the network (features/signing/api/identity-photos.ts, or a test's stand-in). */
export interface PhotoTransport {
  sha256(blob: Blob): Promise<string>;
  put(
    photo: { kind: IdentityDocumentKind; blob: Blob; sha256: string },
    onProgress: (sent: number, total: number) => void,
  ): { done: Promise<void>; abort: () => void };
  held(): Promise<{ kind: IdentityDocumentKind; sha256: string }[]>;
}

/** No answer at all, or one that says "later": worth trying again. Anything else is a refusal. */
const isPassing = (error: unknown) =>
  !(error instanceof ApiError) || error.status === 0 || error.status === 429 || error.status >= 500;

/**
 * Pauses between tries: 1, 2, 4, 8, then 10 s (or less: back online), and never less than the
 * server asked for (429, 503: `retry_after_seconds`).
 */
const pauseAfter = (failures: number, error: unknown) => {
  const backoff = Math.min(10_000, 1000 * 2 ** Math.max(0, failures - 1));
  return Math.max(backoff, (retryAfterSeconds(error) ?? 0) * 1000);
};

/** Tries in a row without an answer before the queue stops trying by itself (~3 minutes). */
export const MAX_FAILURES = 20;

const NOT_SENT = 'No pudimos enviar la foto. Revisa tu conexión y tómala de nuevo.';

interface Entry extends QueuedPhoto {
  /** Which take of this kind (a retake supersedes the photo in flight). */
  take: number;
  sha256: Promise<string>;
}

export class PhotoQueue {
  private entries = new Map<IdentityDocumentKind, Entry>();
  /** The order of sending: accepted order, a photo that failed going behind the others. */
  private line: IdentityDocumentKind[] = [];
  private listeners = new Set<() => void>();
  private running = false;
  private current: { kind: IdentityDocumentKind; take: number; abort: () => void } | null = null;
  private wake: (() => void) | null = null;
  private disposed = false;
  private snapshotValue: QueuedPhoto[] = [];
  private takes = 0;

  constructor(private readonly transport: PhotoTransport) {}

  /** A photo accepted: it goes up after those before it (a retake replaces the one of its kind). */
  put(kind: IdentityDocumentKind, blob: Blob): void {
    if (this.current?.kind === kind) this.current.abort();
    this.takes += 1;
    this.entries.set(kind, {
      kind,
      blob,
      take: this.takes,
      sha256: this.transport.sha256(blob),
      status: 'sending',
      sent: 0,
      total: blob.size,
      error: null,
    });
    this.line = [...this.line.filter((queued) => queued !== kind), kind];
    this.changed();
    // A pause after a failure ends: the new photo may well get through.
    this.wake?.();
    void this.run();
  }

  /** Send these again (the server said it lacks them). */
  resend(kinds: readonly IdentityDocumentKind[]): void {
    for (const kind of kinds) {
      const entry = this.entries.get(kind);
      if (entry) Object.assign(entry, { status: 'sending', sent: 0, error: null });
    }
    this.changed();
    void this.run();
  }

  /** The photos taken so far (front, back, selfie), for the screen: the same array until something changes. */
  snapshot = (): QueuedPhoto[] => this.snapshotValue;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Every photo of the check on the server: their hashes. Rejects with the error of a refused photo. */
  async whenSent(): Promise<Hashes> {
    for (;;) {
      const refused = [...this.entries.values()].find((entry) => entry.status === 'refused');
      if (refused) throw refused.error;
      if (IDENTITY_DOCUMENT_KINDS.every((kind) => this.entries.get(kind)?.status === 'sent'))
        return Object.fromEntries(
          await Promise.all(IDENTITY_DOCUMENT_KINDS.map(async (kind) => [kind, await this.entries.get(kind)!.sha256])),
        ) as Hashes;
      await new Promise<void>((resolve) => {
        const stop = this.subscribe(() => {
          stop();
          resolve();
        });
      });
    }
  }

  /** The screen is (back) on: photos not yet on the server go on (React may mount a screen twice). */
  resume(): void {
    this.disposed = false;
    void this.run();
  }

  /** The screen is gone: nothing more is sent. */
  dispose(): void {
    this.disposed = true;
    this.current?.abort();
    this.wake?.();
  }

  private changed(): void {
    this.snapshotValue = IDENTITY_DOCUMENT_KINDS.flatMap((kind) => {
      const entry = this.entries.get(kind);
      if (!entry) return [];
      const { kind: k, blob, status, sent, total, error } = entry;
      return [{ kind: k, blob, status, sent, total, error }];
    });
    for (const listener of [...this.listeners]) listener();
  }

  private next(): Entry | undefined {
    return this.line
      .map((kind) => this.entries.get(kind)!)
      .find((entry) => entry.status === 'sending' || entry.status === 'waiting');
  }

  private async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      let failures = 0;
      for (let entry = this.next(); entry && !this.disposed; entry = this.next()) {
        const outcome = await this.send(entry, entry.status === 'waiting');
        if (outcome === 'done') {
          failures = 0;
          continue;
        }
        failures += 1;
        if (failures >= MAX_FAILURES) {
          // No answer for minutes: the person decides (takes it again), the queue stops asking.
          for (const waiting of this.entries.values())
            if (waiting.status === 'waiting' || waiting.status === 'sending')
              this.update(waiting, { status: 'refused', error: new ApiError(0, 'NETWORK_ERROR', NOT_SENT, NOT_SENT) });
          return;
        }
        // The others go first: one photo the server keeps refusing for now must not hold them back.
        this.line = [...this.line.filter((kind) => kind !== entry.kind), entry.kind];
        await this.pause(pauseAfter(failures, outcome.error));
      }
    } finally {
      this.running = false;
    }
  }

  /** One try of one photo: `again` (with why) when it should be tried once more after a pause. */
  private async send(entry: Entry, retrying: boolean): Promise<'done' | { again: true; error: unknown }> {
    const { kind, take } = entry;
    const superseded = () => this.entries.get(kind)?.take !== take;
    try {
      const sha256 = await entry.sha256;
      // After a failure the photo may be there already (the answer was lost): ask, never send twice.
      if (retrying && (await this.transport.held()).some((held) => held.kind === kind && held.sha256 === sha256)) {
        if (!superseded()) this.update(entry, { status: 'sent', sent: entry.total });
        return 'done';
      }
      if (superseded()) return 'done';
      this.update(entry, { status: 'sending', sent: 0 });
      const upload = this.transport.put({ kind, blob: entry.blob, sha256 }, (sent, total) => {
        if (!superseded()) this.update(entry, { sent, total });
      });
      this.current = { kind, take, abort: upload.abort };
      await upload.done;
      if (!superseded()) this.update(entry, { status: 'sent', sent: entry.total });
      return 'done';
    } catch (error) {
      if (superseded() || this.disposed) return 'done';
      if (isPassing(error)) {
        this.update(entry, { status: 'waiting', sent: 0 });
        return { again: true, error };
      }
      this.update(entry, { status: 'refused', error: error as ApiError });
      return 'done';
    } finally {
      this.current = null;
    }
  }

  private update(entry: Entry, change: Partial<QueuedPhoto>): void {
    Object.assign(entry, change);
    this.changed();
  }

  /** Waits `ms`, or less when the phone comes back online (or the screen goes). */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        window.removeEventListener('online', done);
        this.wake = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      window.addEventListener('online', done);
      this.wake = done;
    });
  }
}
