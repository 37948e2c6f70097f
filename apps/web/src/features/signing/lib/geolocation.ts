/** How long signing waits for the browser's position (the permission prompt included). */
export const GEOLOCATION_WAIT_MS = 5_000;

/**
 * SPEC §3 signature metadata: the browser's position, serialised, or '' when it is not given in
 * time (no support, refused, slow fix). Never fails: signing must not depend on it.
 */
export function locationMetadata(waitMs = GEOLOCATION_WAIT_MS): Promise<string> {
  const geolocation = typeof navigator === 'undefined' ? undefined : navigator.geolocation;
  if (!geolocation) return Promise.resolve('');
  return new Promise((resolve) => {
    let settled = false;
    const finish = (value: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(value);
    };
    // The API's own timeout does not count the time the permission prompt is open: ours does.
    const timer = setTimeout(() => finish(''), waitMs);
    try {
      geolocation.getCurrentPosition(
        ({ coords, timestamp }) =>
          finish(
            JSON.stringify({
              latitude: coords.latitude,
              longitude: coords.longitude,
              accuracy: coords.accuracy,
              timestamp,
            }),
          ),
        () => finish(''),
        { enableHighAccuracy: false, maximumAge: 60_000, timeout: waitMs },
      );
    } catch {
      finish('');
    }
  });
}
