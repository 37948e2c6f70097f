import { useCallback } from 'react';

/** A photo held in memory, shown through an object URL that lives exactly as long as the image. */
export function BlobImage({ blob, alt, className }: { blob: Blob; alt: string; className?: string }) {
  const attach = useCallback(
    (image: HTMLImageElement | null) => {
      if (!image) return;
      const url = URL.createObjectURL(blob);
      image.src = url;
      return () => URL.revokeObjectURL(url);
    },
    [blob],
  );
  return <img ref={attach} alt={alt} className={className} />;
}
