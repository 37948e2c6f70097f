import { afterEach, describe, expect, it, vi } from 'vitest';
import { locationMetadata } from './geolocation.js';

function stubGeolocation(getCurrentPosition: Geolocation['getCurrentPosition']) {
  Object.defineProperty(navigator, 'geolocation', { configurable: true, value: { getCurrentPosition } });
}

describe('locationMetadata (SPEC §3 signature metadata, best effort)', () => {
  afterEach(() => {
    vi.useRealTimers();
    Reflect.deleteProperty(navigator, 'geolocation');
  });

  it('the position, serialised', async () => {
    stubGeolocation((ok) =>
      ok({ coords: { latitude: 19.45, longitude: -70.69, accuracy: 12 }, timestamp: 42 } as GeolocationPosition),
    );
    expect(JSON.parse(await locationMetadata())).toEqual({
      latitude: 19.45,
      longitude: -70.69,
      accuracy: 12,
      timestamp: 42,
    });
  });

  it("'' without geolocation, when refused, or when it throws", async () => {
    expect(await locationMetadata()).toBe('');
    stubGeolocation((_ok, fail) => fail?.({ code: 1, message: 'denied' } as GeolocationPositionError));
    expect(await locationMetadata()).toBe('');
    stubGeolocation(() => {
      throw new Error('insecure context');
    });
    expect(await locationMetadata()).toBe('');
  });

  it("'' after 5 s when no answer comes (a permission prompt left open)", async () => {
    vi.useFakeTimers();
    stubGeolocation(() => {});
    let result: string | undefined;
    void locationMetadata().then((value) => (result = value));
    await vi.advanceTimersByTimeAsync(4_999);
    expect(result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(result).toBe('');
  });
});
