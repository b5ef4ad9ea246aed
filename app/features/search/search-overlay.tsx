import { useState } from 'react';
import { useHref, useNavigate } from 'react-router';
import { paths } from '../../lib/paths.ts';
import { CloseIcon, SearchIcon } from '../../components/icons.tsx';
import { browseText as t } from '../../lib/i18n/browse.ts';
import { commonText } from '../../lib/i18n/common.ts';

/** The spec's browser keys: the last search's results and term. */
export const SEARCH_RESULTS_KEY = 'searchResults';
export const SEARCH_TERM_KEY = 'searchTerm';

type Props = {
  dialogRef: React.RefObject<HTMLDialogElement | null>;
  onClose: () => void;
};

/**
 * Full-screen search. The results are rendered by the server at /?q=…; the overlay also keeps
 * the spec's searchResults / searchTerm browser keys and the fromSearch flag.
 */
export function SearchOverlay({ dialogRef, onClose }: Props) {
  const navigate = useNavigate();
  const [term, setTerm] = useState('');
  const [busy, setBusy] = useState(false);
  const trimmed = term.trim();
  // Without JavaScript the search goes to the home page in the page's language (/hi).
  const homeHref = useHref(paths.home);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!trimmed || busy) return;
    setBusy(true);
    try {
      const response = await fetch(`/api/v1/vehicles?perPage=50&q=${encodeURIComponent(trimmed)}`);
      if (!response.ok) throw new Error(`Search answered ${response.status}`);
      const result = (await response.json()) as { items: unknown[] };
      localStorage.setItem(SEARCH_RESULTS_KEY, JSON.stringify(result.items));
      localStorage.setItem(SEARCH_TERM_KEY, trimmed);
    } catch (error) {
      // As the spec says, a failed search is only logged: the results page still opens.
      console.warn('Search failed', error);
    } finally {
      setBusy(false);
    }
    onClose();
    await navigate(paths.search(trimmed), { state: { fromSearch: true } });
  }

  return (
    <dialog
      ref={dialogRef}
      aria-label={commonText('searchVehicles')}
      // A search field eats the first Escape to clear itself; the overlay closes at once.
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          onClose();
        }
      }}
      className="m-0 h-dvh max-h-none w-full max-w-none bg-white p-0 backdrop:bg-slate-900/60 sm:mx-auto sm:mb-auto sm:mt-16 sm:h-fit sm:max-w-xl sm:rounded-2xl"
    >
      <form method="get" action={homeHref} onSubmit={submit} className="flex items-center gap-2 border-b border-slate-200 p-3">
        <SearchIcon className="h-5 w-5 shrink-0 text-slate-500" />
        <input
          type="search"
          name="q"
          value={term}
          onChange={(event) => setTerm(event.target.value)}
          placeholder={t('searchPlaceholder')}
          aria-label={commonText('searchVehicles')}
          maxLength={100}
          autoComplete="off"
          enterKeyHint="search"
          className="min-w-0 flex-1 rounded-lg px-2 py-3 text-base outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
          autoFocus
        />
        <button
          type="submit"
          disabled={busy || !trimmed}
          className="rounded-lg bg-brand-700 px-4 py-3 text-sm font-semibold text-white disabled:cursor-not-allowed disabled:bg-slate-400"
        >
          {busy ? t('searching') : commonText('search')}
        </button>
        <button type="button" onClick={onClose} aria-label={t('closeSearch')} className="rounded-lg p-3 text-slate-600 hover:bg-slate-100">
          <CloseIcon className="h-5 w-5" />
        </button>
      </form>
      <p className="p-4 text-sm text-slate-600">{t('searchHint')}</p>
    </dialog>
  );
}
