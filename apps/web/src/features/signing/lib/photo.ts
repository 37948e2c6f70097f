/**
 * The identity photos as the phone sends them (issue 27): the size and quality the identity
 * provider needs for a readable ID, and no more, since every byte crosses 3G.
 *
 * MetaMap's "Send Inputs" API (https://docs.metamap.com/reference/send-inputs, "File
 * Requirements"): document photos and selfies at least 600 × 600 pixels, JPEG or PNG, up to 50 MB.
 * Hence a short side of 720 px (the 600 with room to crop) and a long side of at most 1280 px: a
 * 16:9 camera frame is 1280 × 720, in which a cédula filling two thirds of the width gets ~10 pixels
 * per millimetre, its 2 mm lettering ~20 px. The server decodes every photo and keeps its own JPEG
 * (docs/decisions/021), so MetaMap would get a JPEG whatever the phone sent: the phone sends WebP
 * where the browser encodes it (Chrome on Android does), at quality 0.75 (libwebp's own default),
 * about half the bytes of a JPEG of the same look; JPEG at 0.8 elsewhere.
 */
export const PHOTO_SHORT_SIDE = 720;
export const PHOTO_MAX_SIDE = 1280;
export const WEBP_QUALITY = 0.75;
export const JPEG_QUALITY = 0.8;

/** What the camera is asked for: a frame of the size the photo is sent at (a phone picks its nearest). */
export const CAMERA_SIZE = { width: { ideal: 1280 }, height: { ideal: 720 } } as const;

/** The size a photo is sent at: its short side 720 px and its long side 1280 px at most, proportions kept, never enlarged. */
export function photoSize(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, PHOTO_SHORT_SIDE / Math.min(width, height), PHOTO_MAX_SIDE / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

const toBlob = (canvas: HTMLCanvasElement, type: string, quality: number) =>
  new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, type, quality));

async function encodePhoto(source: CanvasImageSource, width: number, height: number): Promise<Blob> {
  const size = photoSize(width, height);
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('canvas 2d unavailable');
  context.drawImage(source, 0, 0, size.width, size.height);
  // A browser without a WebP encoder answers PNG (the canvas default): JPEG then.
  const webp = await toBlob(canvas, 'image/webp', WEBP_QUALITY);
  if (webp?.type === 'image/webp') return webp;
  const jpeg = await toBlob(canvas, 'image/jpeg', JPEG_QUALITY);
  if (!jpeg) throw new Error('no photo encoded');
  return jpeg;
}

export class CameraNotReadyError extends Error {}

/** The camera's current frame. */
export function photoFromVideo(video: HTMLVideoElement): Promise<Blob> {
  if (!video.videoWidth || !video.videoHeight) return Promise.reject(new CameraNotReadyError('no frame yet'));
  return encodePhoto(video, video.videoWidth, video.videoHeight);
}

/** A photo from the file picker (or the phone's camera app), re-encoded; as it came when the browser cannot decode it. */
export async function photoFromFile(file: File): Promise<Blob> {
  try {
    const bitmap = await createImageBitmap(file);
    try {
      return await encodePhoto(bitmap, bitmap.width, bitmap.height);
    } finally {
      bitmap.close();
    }
  } catch {
    // An old browser or a format it cannot read (HEIC): the server checks the file itself.
    return file;
  }
}
