import { useEffect, useRef, useState } from 'react';
import { Link, useHref, useLocation, useNavigate } from 'react-router';
import type { ListingView } from './listing-view.ts';
import { groupIndianDigits } from '../../lib/format.ts';
import { CloseIcon } from '../../components/icons.tsx';
import { EmptyPanel, EmptyPanelLink } from '../../components/empty-state.tsx';
import { LaterHydration } from '../../components/later-hydration.tsx';
import { browseText as t } from '../../lib/i18n/browse.ts';

/**
 * The buyer's filters on the listing: a plain GET form (it works without JavaScript), shown as a
 * side column on wide screens and as a bottom sheet on phones. Without JavaScript the phone's
 * "Filters" link opens the sheet through `:target`; with it, the sheet is a modal the button
 * opens, and "Show N cars" counts the cars as the buyer ticks options (the listing API, which
 * counts exactly as the page does). Every rule (labels, counts, chips) comes from the loader.
 */

export const FILTER_SHEET_ID = 'filters';

/** A GET form's fields as the listing writes its URL: one parameter per filter, values joined by commas. */
function listingQuery(form: HTMLFormElement): string {
  const joined = new Map<string, string[]>();
  for (const [name, value] of new FormData(form)) {
    if (typeof value !== 'string' || value === '' || (name === 'sort' && value === 'newest')) continue;
    joined.set(name, [...(joined.get(name) ?? []), value]);
  }
  return new URLSearchParams([...joined].map(([name, values]) => [name, values.join(',')])).toString();
}

/** With JavaScript a listing form goes straight to the listing's URL in its comma form. */
function useListingSubmit(action: string) {
  const navigate = useNavigate();
  return (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const query = listingQuery(event.currentTarget);
    void navigate(query ? `${action}?${query}` : action);
  };
}

type LiveFacets = Record<string, Array<{ value: string; count: number }> | undefined>;

const carsText = (count: number, capped: boolean) =>
  capped ? t('carsAtLeast', { number: groupIndianDigits(count) }) : t('cars', { count, number: groupIndianDigits(count) });

/** The listing's filter tools around its results (`children`): opener, sort, chips, then the form beside the cars. */
export function FilteredListing({ view, total, totalCapped, children }: { view: ListingView; total: number; totalCapped: boolean; children: React.ReactNode }) {
  const [open, setOpen] = useState(false);
  // The count and each option's count for the ticked options, once the listing API has answered.
  const [count, setCount] = useState<{ total: number; capped: boolean; facets: LiveFacets } | null>(null);
  const [counting, setCounting] = useState(false);
  const asked = useRef(0);
  const sheet = useRef<HTMLDivElement>(null);
  const location = useLocation();
  const submit = useListingSubmit(view.action);
  // Without JavaScript the form goes to the listing's address in the page's language (/hi/…).
  const formAction = useHref(view.action);

  // A new listing: the sheet closes and shows that listing's count (reset while rendering, as React advises).
  const [listingKey, setListingKey] = useState(location.key);
  if (listingKey !== location.key) {
    setListingKey(location.key);
    setOpen(false);
    setCount(null);
    setCounting(false);
  }

  useEffect(() => {
    document.body.classList.toggle('scroll-locked', open);
    if (open) sheet.current?.querySelector<HTMLElement>('h2')?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    if (open) document.addEventListener('keydown', onKey);
    return () => {
      document.body.classList.remove('scroll-locked');
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const recount = async (form: HTMLFormElement) => {
    const ask = ++asked.current;
    setCounting(true);
    try {
      const response = await fetch(`/api/v1/vehicles?${listingQuery(form)}&perPage=1`);
      if (!response.ok) throw new Error(String(response.status));
      const body = (await response.json()) as { total: number; totalCapped: boolean; facets: LiveFacets };
      if (ask === asked.current) setCount({ total: body.total, capped: body.totalCapped, facets: body.facets });
    } catch {
      // No count (offline): the button still shows the cars, just without a number.
      if (ask === asked.current) setCount(null);
    } finally {
      if (ask === asked.current) setCounting(false);
    }
  };

  // A search or a category without a car and no filter on: there is nothing to narrow or order,
  // only the message and its suggestions (an empty "Filters" sheet with "Show 0 cars" was all the
  // tools had to offer). With a filter on they stay, since taking one off is the way back.
  if (total === 0 && view.activeCount === 0) return <div className="flex min-w-0 flex-col gap-4">{children}</div>;

  const shown = count ?? { total, capped: totalCapped };
  const liveCount = (name: string, value: string, initial: number) =>
    count?.facets[name]?.find((option) => option.value === value)?.count ?? (count ? 0 : initial);
  const visibility = open ? 'max-lg:flex' : 'max-lg:hidden max-lg:target:flex';
  return (
    <>
      {/* Wraps without JavaScript, where the sort has a button of its own. */}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <FilterOpener activeCount={view.activeCount} onOpen={() => setOpen(true)} />
        <SortForm view={view} />
      </div>
      <FilterChips view={view} />
      <div className="flex flex-col gap-6 lg:flex-row">
        {open ? <div className="fixed inset-0 z-40 bg-slate-900/50 lg:hidden" aria-hidden="true" onClick={() => setOpen(false)} /> : null}
        <div
          ref={sheet}
          id={FILTER_SHEET_ID}
          {...(open ? { role: 'dialog', 'aria-modal': true, 'aria-labelledby': 'filters-heading' } : {})}
          className={`${visibility} flex-col max-lg:fixed max-lg:inset-x-0 max-lg:bottom-0 max-lg:z-50 max-lg:max-h-[88dvh] max-lg:rounded-t-2xl max-lg:bg-white max-lg:shadow-2xl lg:sticky lg:top-20 lg:max-h-[calc(100dvh-6rem)] lg:w-64 lg:shrink-0 lg:self-start`}
        >
          <div className="flex items-center justify-between border-b border-slate-200 px-4 py-3 lg:px-0 lg:pt-0">
            <h2 id="filters-heading" tabIndex={-1} className="text-lg font-bold outline-none">
              {t('filters')}
            </h2>
            <a
              href="#results-heading"
              onClick={(event) => {
                event.preventDefault();
                setOpen(false);
              }}
              className="rounded-full p-2 text-slate-600 hover:bg-slate-100 lg:hidden"
            >
              <CloseIcon className="h-5 w-5" />
              <span className="sr-only">{t('closeFilters')}</span>
            </a>
          </div>
          <form
            method="get"
            action={formAction}
            key={location.key}
            className="flex min-h-0 flex-1 flex-col"
            onSubmit={submit}
            onChange={(event) => void recount(event.currentTarget)}
          >
            <HiddenFields view={view} keep={(name) => name === 'category' || name === 'q' || name === 'sort'} />
            <LaterHydration id="filter-options">
              <div className="flex min-h-0 flex-1 flex-col gap-4 overflow-y-auto overscroll-contain px-4 py-3 lg:px-0 lg:pr-2">
                {view.groups.map((group) => (
                  <fieldset key={group.name} className="flex flex-col gap-2">
                    <legend className="mb-2 text-sm font-bold text-slate-800">{group.label}</legend>
                    <div className={`flex flex-wrap gap-2 ${group.options.length > 10 ? 'max-h-48 overflow-y-auto p-0.5' : ''}`}>
                      {group.multiple ? null : (
                        <Option type="radio" name={group.name} value="" label={t('any')} checked={!group.options.some((option) => option.checked)} />
                      )}
                      {group.options.map((option) => (
                        <Option
                          key={option.value}
                          type={group.multiple ? 'checkbox' : 'radio'}
                          name={group.name}
                          value={option.value}
                          label={option.label}
                          count={liveCount(group.name, option.value, option.count)}
                          checked={option.checked}
                        />
                      ))}
                    </div>
                  </fieldset>
                ))}
              </div>
            </LaterHydration>
            <div className="flex items-center gap-3 border-t border-slate-200 bg-white px-4 py-3 pb-[calc(0.75rem+env(safe-area-inset-bottom))] lg:bg-transparent lg:px-0 lg:pb-3">
              {view.activeCount > 0 ? (
                <Link to={view.clearHref} className="px-2 py-2.5 text-sm font-semibold text-brand-700 underline">
                  {t('clearAll')}
                </Link>
              ) : null}
              <button type="submit" aria-busy={counting} className="flex-1 rounded-xl bg-brand-700 px-4 py-3 font-semibold text-white hover:bg-brand-800">
                {counting ? t('countingCars') : t('showCars', { cars: carsText(shown.total, shown.capped) })}
              </button>
            </div>
          </form>
        </div>
        <div className="flex min-w-0 flex-1 flex-col gap-4">{children}</div>
      </div>
    </>
  );
}

function Option({
  type,
  name,
  value,
  label,
  count,
  checked,
}: {
  type: 'checkbox' | 'radio';
  name: string;
  value: string;
  label: string;
  count?: number;
  checked: boolean;
}) {
  return (
    // Styled by the filter-option class (app/app.css): this label is repeated about 90 times per page.
    <label className="filter-option">
      <input type={type} name={name} value={value} defaultChecked={checked} />
      <span>
        {label}
        {count === undefined ? null : <span> ({groupIndianDigits(count)})</span>}
      </span>
    </label>
  );
}

/** The phone's way into the sheet: a link to it without JavaScript, a button with it. */
function FilterOpener({ activeCount, onOpen }: { activeCount: number; onOpen: () => void }) {
  return (
    <a
      href={`#${FILTER_SHEET_ID}`}
      role="button"
      onClick={(event) => {
        event.preventDefault();
        onOpen();
      }}
      className="inline-flex min-h-11 items-center gap-2 self-start rounded-xl bg-white px-4 text-sm font-semibold text-slate-800 ring-1 ring-slate-300 hover:bg-slate-100 lg:hidden"
    >
      {t('filters')}
      {activeCount > 0 ? <span className="rounded-full bg-brand-700 px-2 py-0.5 text-xs text-white">{activeCount}</span> : null}
    </a>
  );
}

/** The listing's parameters a form carries along without showing them (`keep` picks which). */
export function HiddenFields({ view, keep }: { view: ListingView; keep: (name: string) => boolean }) {
  return view.hidden.filter((field) => keep(field.name)).map((field) => <input key={field.name} type="hidden" name={field.name} value={field.value} />);
}

/** The active filters, each a link to the listing without it. */
function FilterChips({ view }: { view: ListingView }) {
  if (view.chips.length === 0) return null;
  return (
    <ul aria-label={t('activeFilters')} className="flex flex-wrap gap-2">
      {view.chips.map((chip) => (
        <li key={chip.href}>
          <Link
            to={chip.href}
            aria-label={t('removeFilter', { label: chip.label })}
            className="inline-flex min-h-9 items-center gap-1.5 rounded-full bg-brand-50 py-1 pl-3 pr-2 text-sm font-semibold text-brand-800 ring-1 ring-brand-600 hover:bg-brand-100"
          >
            {chip.label}
            <CloseIcon className="h-4 w-4" />
          </Link>
        </li>
      ))}
      <li>
        <Link to={view.clearHref} className="inline-flex min-h-9 items-center px-2 text-sm font-semibold text-brand-700 underline">
          {t('clearAll')}
        </Link>
      </li>
    </ul>
  );
}

/** The order of the listing: a GET form carrying the search and filters; with JavaScript it applies on change. */
function SortForm({ view }: { view: ListingView }) {
  const submit = useListingSubmit(view.action);
  const formAction = useHref(view.action);
  return (
    <form method="get" action={formAction} onSubmit={submit} className="ml-auto flex items-center gap-2">
      <HiddenFields view={view} keep={(name) => name !== 'sort'} />
      <label htmlFor="listing-sort" className="sr-only whitespace-nowrap text-sm font-semibold text-slate-700 sm:not-sr-only">
        {t('sortBy')}
      </label>
      <select
        id="listing-sort"
        name="sort"
        key={view.sort}
        defaultValue={view.sort}
        onChange={(event) => event.currentTarget.form?.requestSubmit()}
        className="min-h-11 max-w-52 rounded-xl border border-slate-300 bg-white px-3 text-sm shadow-sm"
      >
        {view.sorts.map((sort) => (
          <option key={sort.value} value={sort.value}>
            {sort.label}
          </option>
        ))}
      </select>
      <noscript>
        <button type="submit" className="min-h-11 rounded-xl bg-brand-700 px-4 text-sm font-semibold text-white">
          {t('sort')}
        </button>
      </noscript>
    </form>
  );
}

/** A filtered listing without a car: the way back is to take filters off. */
export function NoMatchingCars({ view }: { view: ListingView }) {
  return (
    <EmptyPanel title={t('noMatch')} text={t('removeAFilter')}>
      <EmptyPanelLink to={view.clearHref}>{t('clearAllFilters')}</EmptyPanelLink>
    </EmptyPanel>
  );
}
