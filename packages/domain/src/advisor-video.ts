/**
 * The advisor-welcome video a fresh install shows (SPEC §2.3 item 12), served by the app itself
 * (apps/web/public/media, made by scripts/media/advisor-welcome-video.mjs), so the CSP's
 * media-src 'self' allows it: 14 silent seconds, 108 KB, fetched only when played; its poster
 * (7 KB, the same 16:9) holds the video's place until then.
 * A module of its own: only the advisor-welcome screen's chunk carries it (public-config.ts builds
 * a zod schema the browser must not load; constants.ts goes with the first load).
 */
export const BUILTIN_ADVISOR_VIDEO = {
  url: '/media/advisor-welcome.mp4',
  poster: '/media/advisor-welcome.webp',
  width: 768,
  height: 432,
} as const;
