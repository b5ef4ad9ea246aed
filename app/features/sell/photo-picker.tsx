import { useEffect, useRef, useState } from 'react';
import { MAX_SELL_IMAGES } from '../../lib/lead-forms.ts';
import { MAX_IMAGE_MB } from '../../lib/uploads.ts';
import { leadsText as t } from '../../lib/i18n/leads.ts';

type Preview = { name: string; url: string };

/**
 * The sell form's photo input (image files only, several at once) with small previews of the
 * chosen photos. Previews are local blob: addresses, released when the choice changes.
 */
export function PhotoPicker({ id, name, error }: { id: string; name: string; error?: string | undefined }) {
  const [previews, setPreviews] = useState<Preview[]>([]);
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => () => previews.forEach((preview) => URL.revokeObjectURL(preview.url)), [previews]);
  // A reset form (after a successful submission) has no photos chosen any more.
  useEffect(() => {
    const form = inputRef.current?.form;
    if (!form) return;
    const onReset = () => setPreviews([]);
    form.addEventListener('reset', onReset);
    return () => form.removeEventListener('reset', onReset);
  }, []);

  function onChange(event: React.ChangeEvent<HTMLInputElement>) {
    const files = Array.from(event.currentTarget.files ?? []);
    setPreviews(
      files
        .filter((file) => file.type.startsWith('image/') && file.type !== 'image/svg+xml')
        .map((file) => ({ name: file.name, url: URL.createObjectURL(file) })),
    );
  }

  const describedBy = [`${id}-hint`, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="font-semibold">
        {t('photosOptional')}
      </label>
      <input
        ref={inputRef}
        id={id}
        name={name}
        type="file"
        accept="image/*"
        multiple
        onChange={onChange}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className="block w-full min-w-0 rounded-xl border border-dashed border-slate-300 bg-white px-3 py-3 text-sm text-slate-700 file:mr-3 file:rounded-lg file:border-0 file:bg-brand-50 file:px-3 file:py-2 file:font-semibold file:text-brand-700 hover:file:bg-brand-100 aria-[invalid=true]:border-red-500"
      />
      <p id={`${id}-hint`} className="text-sm text-slate-600">
        {t('photosHint', { max: MAX_SELL_IMAGES, mb: MAX_IMAGE_MB })}
      </p>
      {error ? (
        <p id={`${id}-error`} className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
      {previews.length > 0 ? (
        <ul className="mt-1 flex flex-wrap gap-2" aria-label={t('chosenPhotos')}>
          {previews.map((preview) => (
            <li key={preview.url}>
              <img src={preview.url} alt={preview.name} width={72} height={54} className="h-[54px] w-[72px] rounded-lg object-cover ring-1 ring-slate-200" />
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
