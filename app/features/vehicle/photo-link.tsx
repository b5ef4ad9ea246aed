/** A lazy thumbnail that opens the full photo in a new tab, without a way back to this page. */
export function PhotoLink({
  href,
  src,
  alt,
  width,
  height,
  className,
  imageClassName,
}: {
  href: string;
  src: string;
  alt: string;
  width: number;
  height: number;
  className?: string;
  imageClassName: string;
}) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={className}>
      <img src={src} alt={alt} width={width} height={height} loading="lazy" className={imageClassName} />
    </a>
  );
}

/** Both sides of a driving licence, side by side, each opening its full photo. */
export function LicencePhotos({
  licence,
  alt,
  fit,
}: {
  licence: { frontUrl: string; backUrl: string };
  alt: (side: 'front' | 'back') => string;
  fit: 'object-cover' | 'object-contain';
}) {
  return (
    <div className="mt-3 grid grid-cols-2 gap-3">
      {(['front', 'back'] as const).map((side) => {
        const url = side === 'front' ? licence.frontUrl : licence.backUrl;
        return (
          <PhotoLink
            key={side}
            href={url}
            src={url}
            alt={alt(side)}
            width={320}
            height={200}
            className="block"
            imageClassName={`aspect-[16/10] w-full rounded-lg bg-slate-100 ${fit} ring-1 ring-slate-200`}
          />
        );
      })}
    </div>
  );
}
