import { useEffect, useRef, useState } from 'react';
import { useMediaBase } from '../../lib/media-base.ts';
import { imageSrc, imageSrcSet, type ImageRef } from '../../lib/vehicle.ts';
import { CarIcon } from '../../components/icons.tsx';
import { browseText as t } from '../../lib/i18n/browse.ts';

type Props = {
  image: ImageRef | null;
  alt: string;
  /** The `sizes` attribute: how wide the image is drawn at each screen width. */
  sizes: string;
  /** Above the fold: load at once and tell the browser it matters. */
  priority?: boolean;
  className?: string;
  placeholderText?: string;
};

/**
 * A responsive WebP image in a box of fixed aspect ratio (nothing shifts while it loads),
 * falling back to a drawn placeholder when there is no image or it fails to load.
 */
export function VehicleImage({ image, alt, sizes, priority = false, className = '', placeholderText }: Props) {
  const [failed, setFailed] = useState(false);
  const ref = useRef<HTMLImageElement>(null);
  const mediaBase = useMediaBase();

  // An image that failed before the page hydrated fired its error event too early for React.
  useEffect(() => {
    const element = ref.current;
    if (element?.complete && element.naturalWidth === 0) setFailed(true);
  }, []);

  if (!image || failed) {
    return (
      <div
        className={`flex flex-col items-center justify-center gap-2 bg-slate-200 text-slate-600 ${className}`}
        role="img"
        aria-label={placeholderText ?? t('noPhoto', { alt })}
      >
        <CarIcon className="h-12 w-12" />
        {placeholderText ? <span className="text-sm font-medium">{placeholderText}</span> : null}
      </div>
    );
  }
  return (
    <img
      ref={ref}
      src={imageSrc(image, 800, mediaBase)}
      srcSet={imageSrcSet(image, mediaBase)}
      sizes={sizes}
      width={image.width}
      height={image.height}
      alt={alt}
      loading={priority ? 'eager' : 'lazy'}
      decoding={priority ? 'sync' : 'async'}
      fetchPriority={priority ? 'high' : 'auto'}
      onError={() => setFailed(true)}
      className={`bg-slate-200 object-cover ${className}`}
    />
  );
}
