import { useRef } from 'react';
import { useFetcher } from 'react-router';
import type { AdminImage } from '../../lib/vehicle.ts';
import { imageSrc } from '../../lib/vehicle.ts';
import { useMediaBase } from '../../lib/media-base.ts';
import { MAX_IMAGE_MB } from '../../lib/uploads.ts';
import { RemoveLabel, smallButton, useHydrated } from './admin-ui.tsx';
import { adminVehiclesText as t } from './admin-vehicles-texts.ts';

/** The edit page's image fetcher: the page reads its toast through the same key. */
export const IMAGE_FETCHER_KEY = 'vehicle-images';

type Props = { images: AdminImage[]; max: number; title: string };

/**
 * The vehicle's photos on the edit page: each change (add, remove, move) is saved at once
 * through a fetcher, so what is typed in the form below is kept. The first photo is the
 * cover. The 'Add Image' tile takes image files only and hides when the vehicle has `max`.
 */
export function ImageManager({ images, max, title }: Props) {
  const fetcher = useFetcher<{ toast?: unknown }>({ key: IMAGE_FETCHER_KEY });
  const hydrated = useHydrated();
  const mediaBase = useMediaBase();
  const uploadForm = useRef<HTMLFormElement>(null);
  const busy = fetcher.state !== 'idle';
  const pendingIntent = busy ? fetcher.formData?.get('intent') : null;
  const room = max - images.length;

  return (
    <section className="flex flex-col gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6" aria-busy={busy}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-lg font-bold">{t('photos')}</h2>
        <p className="text-sm text-slate-600">{t('photosCount', { number: images.length, max })}</p>
      </div>
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        {images.map((image, index) => (
          <li key={image.id} className="flex flex-col overflow-hidden rounded-xl bg-slate-50 ring-1 ring-slate-200">
            <div className="relative">
              <img
                src={imageSrc(image, 400, mediaBase)}
                width={image.width}
                height={image.height}
                alt={t('photoAlt', { title, number: index + 1 })}
                loading="lazy"
                className="aspect-[4/3] w-full bg-slate-200 object-cover"
              />
              {index === 0 ? (
                <span className="absolute left-2 top-2 rounded-full bg-brand-700 px-2 py-0.5 text-xs font-bold text-white">{t('cover')}</span>
              ) : null}
            </div>
            <div className="flex items-center gap-1.5 p-2">
              <fetcher.Form method="post" className="contents">
                <input type="hidden" name="intent" value="move-image" />
                <input type="hidden" name="imageId" value={image.id} />
                <button
                  type="submit"
                  name="direction"
                  value="left"
                  disabled={busy || index === 0}
                  aria-label={t('movePhotoLeft', { number: index + 1 })}
                  title={t('moveLeft')}
                  className={`${smallButton} h-10 w-10 px-0`}
                >
                  ←
                </button>
                <button
                  type="submit"
                  name="direction"
                  value="right"
                  disabled={busy || index === images.length - 1}
                  aria-label={t('movePhotoRight', { number: index + 1 })}
                  title={t('moveRight')}
                  className={`${smallButton} h-10 w-10 px-0`}
                >
                  →
                </button>
              </fetcher.Form>
              <fetcher.Form method="post" className="ml-auto">
                <input type="hidden" name="intent" value="remove-image" />
                <input type="hidden" name="imageId" value={image.id} />
                <button
                  type="submit"
                  disabled={busy}
                  aria-label={t('removePhoto', { number: index + 1 })}
                  title={t('remove')}
                  className={`${smallButton} h-10 min-w-10 px-0 text-red-700 lg:px-3`}
                >
                  <RemoveLabel from="lg" />
                </button>
              </fetcher.Form>
            </div>
          </li>
        ))}
        {room > 0 ? (
          <li>
            <fetcher.Form ref={uploadForm} method="post" encType="multipart/form-data" className="flex h-full flex-col gap-2" data-changes-once-hydrated="">
              <input type="hidden" name="intent" value="add-images" />
              <label
                className={`flex aspect-[4/3] cursor-pointer flex-col items-center justify-center gap-1 rounded-xl border-2 border-dashed border-slate-400 bg-slate-50 p-2 text-center font-semibold text-slate-700 hover:border-brand-600 hover:text-brand-700 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-600 ${busy ? 'opacity-60' : ''}`}
              >
                <span aria-hidden="true" className="text-3xl leading-none">
                  +
                </span>
                <span>{pendingIntent === 'add-images' ? t('uploading') : t('addImageTile')}</span>
                <span className="text-xs font-normal text-slate-500">{t('upToMore', { room, mb: MAX_IMAGE_MB })}</span>
                <input
                  type="file"
                  name="images"
                  accept="image/*"
                  multiple={room > 1}
                  disabled={busy}
                  className="sr-only"
                  onChange={(event) => {
                    const form = uploadForm.current;
                    if (!event.currentTarget.files?.length || !form) return;
                    // The files are read now; the emptied input can take the same file again later.
                    const data = new FormData(form);
                    form.reset();
                    void fetcher.submit(data, { method: 'post', encType: 'multipart/form-data' });
                  }}
                />
              </label>
              {hydrated ? null : (
                <button type="submit" className={smallButton}>
                  {t('upload')}
                </button>
              )}
            </fetcher.Form>
          </li>
        ) : null}
      </ul>
      {room <= 0 ? <p className="text-sm text-slate-600">{t('mostPhotos')}</p> : null}
    </section>
  );
}
