import { describe, expect, it } from 'vitest';
import { createConcurrencyLimit } from './concurrency-limit.js';
import { AppError } from './errors.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('concurrency limit', () => {
  it('runs at most N tasks at once, the rest in arrival order', async () => {
    const limit = createConcurrencyLimit(2, 100);
    let now = 0;
    let peak = 0;
    const order: number[] = [];
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        limit.run(async () => {
          now++;
          peak = Math.max(peak, now);
          order.push(index);
          await tick();
          now--;
          return index * 2;
        }),
      ),
    );
    expect(peak).toBe(2);
    expect(order).toEqual(Array.from({ length: 20 }, (_, index) => index));
    expect(results).toEqual(Array.from({ length: 20 }, (_, index) => index * 2));
    expect([limit.running, limit.waiting]).toEqual([0, 0]);
  });

  it('a failing task frees its slot', async () => {
    const limit = createConcurrencyLimit(1, 10);
    await expect(limit.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(limit.run(async () => 'ok')).resolves.toBe('ok');
    expect(limit.running).toBe(0);
  });

  it('refuses with a 503 once the queue is full, and takes work again when it drains', async () => {
    const limit = createConcurrencyLimit(1, 2);
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = limit.run(() => gate);
    const queued = [limit.run(async () => 1), limit.run(async () => 2)];
    expect([limit.running, limit.waiting]).toEqual([1, 2]);
    const refused = await limit.run(async () => 3).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ statusCode: 503, code: 'BUSY' });
    release();
    await first;
    expect(await Promise.all(queued)).toEqual([1, 2]);
    await expect(limit.run(async () => 4)).resolves.toBe(4);
  });
});
