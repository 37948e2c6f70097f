/**
 * Permissions-Policy (issue 26): the browser's powerful features, per page. The camera only where
 * the identity photos are taken, the position only where the signature is sent, nothing anywhere
 * else. A policy belongs to the document a page loaded, and the SPA moves between the signing
 * screens without loading another (SPEC §2.4): a page from which the app goes on client-side to
 * the photos or the signature carries what those screens need.
 *
 *   /send-contract-sign                  the link's entry: the photos, then (or at once, when the
 *   …/review-documents, …/error-documents  identity is approved) the signature
 *   …/approved-documents, …/singning     the signature only
 *   everything else, and every API answer: none
 */
const FEATURES = [
  'accelerometer',
  'camera',
  'display-capture',
  'geolocation',
  'gyroscope',
  'magnetometer',
  'microphone',
  'payment',
  'usb',
] as const;
type Feature = (typeof FEATURES)[number];

function policy(allowed: Partial<Record<Feature, string[]>>): string {
  return FEATURES.map((feature) => `${feature}=(${(allowed[feature] ?? []).join(' ')})`).join(', ');
}

/** The review screens' prefix: /{user_type_id}/{user_id}/{titular}/{person_type}/{collateral} (web's signer-route.ts). */
const SIGNER = '/[^/]*/[^/]*/[^/]*/[^/]*/[^/]*';
const PHOTOS_AND_SIGNATURE = new RegExp(`^(?:/send-contract-sign|${SIGNER}/(?:review-documents|error-documents))/?$`);
const SIGNATURE = new RegExp(`^(?:${SIGNER}/approved-documents|/[^/]*/[^/]*/[^/]*/singning)/?$`);

export interface PermissionsPolicies {
  /** Every answer but the signing pages': nothing allowed. */
  none: string;
  /** The header of a page at this path (no query). */
  forPage(path: string): string;
}

/**
 * `identityOrigins`: the identity provider's frames, which take the photos themselves (MetaMap's
 * button): they get the camera and the microphone (its video step) on the pages that show it.
 */
export function permissionsPolicies(identityOrigins: string[]): PermissionsPolicies {
  const origins = identityOrigins.map((origin) => `"${origin}"`);
  const none = policy({});
  const photosAndSignature = policy({
    camera: ['self', ...origins],
    geolocation: ['self'],
    ...(origins.length > 0 ? { microphone: origins } : {}),
  });
  const signature = policy({ geolocation: ['self'] });
  return {
    none,
    forPage(path) {
      if (PHOTOS_AND_SIGNATURE.test(path)) return photosAndSignature;
      if (SIGNATURE.test(path)) return signature;
      return none;
    },
  };
}
