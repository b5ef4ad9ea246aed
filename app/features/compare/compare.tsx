import { Link, useHref, useLocation } from 'react-router';
import { COMPARE_MAX } from './compare.ts';
import { matchPattern, pathPatterns, paths } from '../../lib/paths.ts';
import { compareStore, useCompareState, type CompareItem } from './compare-store.ts';
import { CheckIcon, CloseIcon, CompareIcon } from '../../components/icons.tsx';
import { compareText as t } from './compare-texts.ts';

/**
 * "Compare" on a card or a vehicle page. Without JavaScript it is a GET form that opens
 * /compare with this car; with it, it puts the car in the tray (or takes it out) and stays.
 */
/** `compact`: a smaller button on a phone, for the card's row layout there. */
export function CompareToggle({ item, className = '', compact = false }: { item: CompareItem; className?: string; compact?: boolean }) {
  const { items } = useCompareState();
  const selected = items.some((entry) => entry.id === item.id);
  // Without JavaScript the form opens the compare page in the page's language (/hi/compare).
  const compareHref = useHref(paths.compare());
  return (
    <form
      method="get"
      action={compareHref}
      className={className}
      onSubmit={(event) => {
        event.preventDefault();
        compareStore.toggle(item);
      }}
    >
      <input type="hidden" name="ids" value={item.id} />
      <button
        type="submit"
        aria-pressed={selected}
        className={`inline-flex w-full items-center justify-center gap-1.5 whitespace-nowrap rounded-xl px-2 py-2.5 text-sm font-semibold ring-1 transition ${compact ? 'max-sm:gap-1 max-sm:rounded-full max-sm:px-2 max-sm:py-1 max-sm:text-xs max-sm:shadow-sm' : ''} ${
          selected ? 'bg-brand-50 text-brand-800 ring-brand-600' : 'bg-white text-slate-800 ring-slate-300 hover:bg-slate-100'
        }`}
      >
        {selected ? <CheckIcon className="h-4 w-4" /> : <CompareIcon className="h-4 w-4" />}
        {selected ? t('comparing') : t('compare')}
        {/* The name says which car, and begins with the words shown (WCAG 2.5.3): "Compare Honda City". */}
        <span className="sr-only"> {item.title}</span>
      </button>
    </form>
  );
}

/**
 * The cars picked for comparing, fixed at the bottom of the screen above the phone's bottom
 * bar (and above a vehicle page's contact buttons), so showing it moves nothing on the page.
 * Hidden on the compare page itself.
 */
/**
 * Where the tray belongs: the pages whose cards or car can be added to compare (the listing, a
 * category, the wishlist, a car's page). Elsewhere (renting, booking steps, selling, signing in)
 * it would float over a form that has nothing to do with comparing; the compare page is the tray's
 * own destination.
 */
export function comparesOn(pathname: string): boolean {
  return pathname === paths.home || pathname === paths.categories() || pathname === paths.wishlist || matchPattern(pathPatterns.vehicle, pathname) !== null;
}

export function CompareTray() {
  const { items, notice } = useCompareState();
  const { pathname } = useLocation();
  if (!comparesOn(pathname) || (items.length === 0 && !notice)) return null;
  const onVehiclePage = matchPattern(pathPatterns.vehicle, pathname) !== null;
  const position = onVehiclePage
    ? 'bottom-[calc(8.25rem+env(safe-area-inset-bottom))] sm:bottom-[5.25rem] lg:bottom-4'
    : 'bottom-[calc(4rem+env(safe-area-inset-bottom))] sm:bottom-4';
  const ids = items.map((item) => item.id);
  return (
    <aside data-compare-tray aria-label={t('carsToCompare')} className={`pointer-events-none fixed inset-x-0 z-20 px-3 ${position}`}>
      <div className="pointer-events-auto mx-auto flex max-w-3xl flex-col gap-2 rounded-2xl bg-slate-900 p-2.5 text-white shadow-xl">
        <p role="status" className={notice ? 'px-1 text-sm font-medium text-amber-200' : 'sr-only'}>
          {notice ?? (items.length ? t('trayCount', { count: items.length }) : '')}
        </p>
        {items.length > 0 ? (
          <div className="flex items-center gap-2">
            <ul className="hidden min-w-0 flex-1 gap-2 sm:flex">
              {items.map((item) => (
                <li key={item.id} className="flex min-w-0 items-center gap-1 rounded-lg bg-white/10 py-1 pl-2.5 pr-1 text-sm">
                  <span className="truncate">{item.title}</span>
                  <button
                    type="button"
                    onClick={() => compareStore.remove(item.id)}
                    aria-label={t('removeFromCompare', { title: item.title })}
                    className="shrink-0 rounded p-1 hover:bg-white/20"
                  >
                    <CloseIcon className="h-4 w-4" />
                  </button>
                </li>
              ))}
            </ul>
            <p className="flex-1 px-1 text-sm sm:hidden" aria-hidden="true">
              {t('ofMax', { count: items.length, max: COMPARE_MAX })}
            </p>
            <span className="hidden shrink-0 text-sm text-slate-300 lg:inline" aria-hidden="true">
              {items.length}/{COMPARE_MAX}
            </span>
            <button
              type="button"
              onClick={() => compareStore.clear()}
              className="shrink-0 rounded-lg px-3 py-2 text-sm font-semibold text-slate-200 hover:bg-white/10"
            >
              {t('clear')}
            </button>
            <Link to={paths.compare(ids)} className="shrink-0 rounded-lg bg-accent-500 px-4 py-2 text-sm font-bold text-slate-900 hover:brightness-105">
              {items.length > 1 ? t('compareCount', { count: items.length }) : t('compare')}
            </Link>
          </div>
        ) : null}
      </div>
    </aside>
  );
}
