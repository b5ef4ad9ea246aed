import { useState } from 'react';
import { useMediaBase } from '../../lib/media-base.ts';
import { imageSrc, type ImageRef } from '../../lib/vehicle.ts';
import { VehicleImage } from './vehicle-image.tsx';
import { browseText as t } from '../../lib/i18n/browse.ts';

const MAIN_SIZES = '(min-width: 1024px) 640px, 100vw';

/** Main photo with a strip of thumbnails that switch it. */
export function VehicleGallery({ images, title }: { images: ImageRef[]; title: string }) {
  const [selected, setSelected] = useState(0);
  const mediaBase = useMediaBase();
  const current = images[selected] ?? images[0] ?? null;
  return (
    <div className="flex flex-col gap-2">
      <VehicleImage
        key={current?.key}
        image={current}
        alt={current ? t('photoOf', { title, number: selected + 1, total: images.length }) : title}
        sizes={MAIN_SIZES}
        priority
        placeholderText={t('noImages')}
        className="aspect-[4/3] w-full rounded-2xl"
      />
      {images.length > 1 ? (
        <ul className="flex gap-2 overflow-x-auto pb-1" aria-label={t('photos')}>
          {images.map((image, index) => (
            <li key={image.key} className="shrink-0">
              <button
                type="button"
                onClick={() => setSelected(index)}
                aria-label={t('showPhoto', { number: index + 1 })}
                aria-current={index === selected}
                className={`block overflow-hidden rounded-lg ring-2 ${index === selected ? 'ring-brand-600' : 'ring-transparent'}`}
              >
                <img
                  src={imageSrc(image, 400, mediaBase)}
                  width={96}
                  height={72}
                  alt=""
                  loading="lazy"
                  decoding="async"
                  className="h-[72px] w-24 bg-slate-200 object-cover"
                />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
