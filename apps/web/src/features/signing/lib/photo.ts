/** The identity photos as the API takes them (JPEG), small enough for 3G and the API's limits. */
export const PHOTO_MAX_SIDE = 1600;
export const PHOTO_QUALITY = 0.85;

/** The size that fits `max` on the long side, keeping the proportions (never enlarged). */
export function fitWithin(width: number, height: number, max = PHOTO_MAX_SIDE): { width: number; height: number } {
  const scale = Math.min(1, max / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

function encodeJpeg(source: CanvasImageSource, width: number, height: number): Promise<Blob> {
  const size = fitWithin(width, height);
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext('2d');
  if (!context) return Promise.reject(new Error('canvas 2d unavailable'));
  context.drawImage(source, 0, 0, size.width, size.height);
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('no JPEG'))), 'image/jpeg', PHOTO_QUALITY),
  );
}

export class CameraNotReadyError extends Error {}

/** The camera's current frame. */
export function jpegFromVideo(video: HTMLVideoElement): Promise<Blob> {
  if (!video.videoWidth || !video.videoHeight) return Promise.reject(new CameraNotReadyError('no frame yet'));
  return encodeJpeg(video, video.videoWidth, video.videoHeight);
}

/** A photo from the file picker (or the phone's camera app), re-encoded; as it came when the browser cannot decode it. */
export async function jpegFromFile(file: File): Promise<Blob> {
  try {
    const bitmap = await createImageBitmap(file);
    try {
      return await encodeJpeg(bitmap, bitmap.width, bitmap.height);
    } finally {
      bitmap.close();
    }
  } catch {
    // An old browser or a format it cannot read (HEIC): the server checks the file itself.
    return file;
  }
}
