import { Fragment, useEffect } from 'react';
import { Link, useNavigate } from 'react-router';
import { carsToCompare } from '../../server/catalog/compare.ts';
import { compareStore, useCompareState } from '../features/compare/compare-store.ts';
import { EmptyPanel, EmptyPanelLink } from '../components/empty-state.tsx';
import { CloseIcon } from '../components/icons.tsx';
import { RecentCarsSection } from '../features/vehicle/recent-cars.tsx';
import { useRootData } from '../components/root-data.ts';
import { VehicleImage } from '../features/vehicle/vehicle-image.tsx';
import { PriceIncludesNote } from '../features/vehicle/vehicle-card.tsx';
import { appContext } from '../context.ts';
import { COMPARE_MAX, compareIdsNotice, parseCompareIds } from '../features/compare/compare.ts';
import { compareRows, visibleRows } from '../features/compare/compare-rows.ts';
import { paths } from '../lib/paths.ts';
import { seo, siteFromMatches } from '../lib/seo.ts';
import { cardTitle } from '../lib/vehicle.ts';
import type { Route } from './+types/compare';
import { compareText as t } from '../features/compare/compare-texts.ts';
import { indiaDay } from '../lib/india-time.ts';

export function meta({ matches }: Route.MetaArgs) {
  // A list anyone can make up: never for search engines.
  return seo({ site: siteFromMatches(matches), path: paths.compare(), title: t('compareCars'), noIndex: true });
}

/**
 * Whatever `ids` holds (letters, NUL, 500 ids, huge numbers), the page answers 200 and says what it left out.
 * Without `ids` (the address typed, a bookmark, the menu's link) the list is the browser's tray,
 * which the server cannot see: `listed` false, and the page asks for the tray's cars once it runs.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { database, clock } = context.get(appContext);
  const url = new URL(request.url);
  const parsed = parseCompareIds(url.searchParams.get('ids'));
  const entries = await carsToCompare(database, parsed.ids);
  return {
    entries,
    listed: url.searchParams.has('ids'),
    notice: compareIdsNotice(parsed),
    hideCommon: url.searchParams.get('hide') === 'common',
    today: indiaDay(clock.now()),
  };
}

export default function Compare({ loaderData }: Route.ComponentProps) {
  const { entries, listed, notice, hideCommon, today } = loaderData;
  const { finance } = useRootData();
  const ids = entries.map((entry) => entry.id);
  const available = entries.flatMap((entry) => (entry.available ? [entry.vehicle] : []));
  const rows = visibleRows(compareRows(available, finance, today), hideCommon, available.length);
  const columns = entries.map((entry) => (entry.available ? available.indexOf(entry.vehicle) : -1));
  const availableKey = available.map((vehicle) => vehicle.id).join(',');

  // Opened without a list: the tray's cars are the list, asked for in the address so the page is
  // the same as the tray's own link (and can be shared). Until then nothing says "no cars".
  const navigate = useNavigate();
  const tray = useCompareState().items;
  const trayIds = tray.map((item) => item.id);
  const fromTray = !listed && trayIds.length > 0;
  useEffect(() => {
    if (fromTray) void navigate(paths.compare(trayIds, { hideCommon }), { replace: true, preventScrollReset: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fromTray, trayIds.join(',')]);

  // The cars of a list on this page become the tray's: the link is the list being looked at.
  useEffect(() => {
    if (!listed) return;
    compareStore.replace(available.map((vehicle) => ({ id: vehicle.id, title: cardTitle(vehicle) })));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [listed, availableKey]);

  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h1 className="text-2xl font-extrabold tracking-tight sm:text-3xl">{t('compareCars')}</h1>
        {available.length > 1 ? (
          <Link
            to={paths.compare(ids, { hideCommon: !hideCommon })}
            replace
            preventScrollReset
            className="rounded-xl bg-white px-4 py-2 text-sm font-semibold text-brand-700 ring-1 ring-slate-300 hover:bg-slate-100"
          >
            {hideCommon ? t('showAllRows') : t('hideCommonRows')}
          </Link>
        ) : null}
      </div>
      {notice ? (
        <p role="status" className="rounded-xl bg-amber-50 px-4 py-3 text-sm font-medium text-amber-900 ring-1 ring-amber-200">
          {notice}
        </p>
      ) : null}

      {fromTray ? (
        <p role="status" className="py-6 text-center text-slate-600">
          {t('openingTray', { count: trayIds.length })}
        </p>
      ) : entries.length === 0 ? (
        <>
          <EmptyPanel title={t('noCarsYet')} text={t('tapCompare', { max: COMPARE_MAX })}>
            <EmptyPanelLink to={paths.home}>{t('browseAvailable')}</EmptyPanelLink>
          </EmptyPanel>
          <RecentCarsSection />
        </>
      ) : (
        <>
          {available.length > 1 ? (
            <p className="flex items-center gap-2 text-sm text-slate-600">
              <span className="inline-block h-3 w-3 rounded-sm bg-amber-100 ring-1 ring-amber-300" aria-hidden="true" />
              {t('rowsDiffer')}
            </p>
          ) : null}
          <div className="-mx-4 overflow-x-auto px-4 pb-2 sm:mx-0 sm:px-0">
            {/* The cars (COMPARE_MAX) share a phone's width, so every car is in sight. */}
            <table
              className={`w-full min-w-max max-sm:min-w-0 max-sm:table-fixed border-separate border-spacing-0 overflow-hidden rounded-2xl bg-white text-sm shadow-sm ring-1 ring-slate-200`}
            >
              <caption className="sr-only">
                {t('caption', { count: entries.length })}
                {hideCommon && available.length > 1 ? t('captionHidden') : ''}
              </caption>
              <thead>
                <tr>
                  <td className="sticky left-0 z-10 w-20 bg-white sm:w-40" />
                  {entries.map((entry) => {
                    const remove = paths.compare(
                      ids.filter((id) => id !== entry.id),
                      { hideCommon },
                    );
                    const title = entry.available ? cardTitle(entry.vehicle) : (entry.title ?? t('carNumber', { id: entry.id }));
                    return (
                      <th
                        key={entry.id}
                        scope="col"
                        className={`w-32 min-w-32 max-sm:w-auto max-sm:min-w-0 border-b border-slate-200 p-1.5 text-left align-top font-normal sm:w-56 sm:p-3`}
                      >
                        <div className="flex flex-col gap-2">
                          {entry.available ? (
                            <VehicleImage
                              image={entry.vehicle.images[0] ?? null}
                              alt=""
                              sizes="(min-width: 640px) 208px, 112px"
                              className="aspect-[4/3] w-full max-w-52 rounded-xl"
                            />
                          ) : (
                            <div className="flex aspect-[4/3] w-full max-w-52 items-center justify-center rounded-xl bg-slate-100 p-2 text-center text-xs text-slate-600 sm:text-sm">
                              {t('noLongerAvailable')}
                            </div>
                          )}
                          {entry.available ? (
                            <Link
                              to={paths.vehicle(entry.id)}
                              className="font-semibold leading-snug text-slate-900 underline-offset-2 wrap-anywhere hover:underline"
                            >
                              {title}
                            </Link>
                          ) : (
                            <p className="font-semibold leading-snug text-slate-700 wrap-anywhere">{title}</p>
                          )}
                          {entry.available && entry.vehicle.status === 'reserved' ? (
                            <span className="w-fit rounded-full bg-slate-800 px-2 py-0.5 text-xs font-bold text-white">{t('reserved')}</span>
                          ) : null}
                          {entry.available ? null : <p className="text-slate-600">{t('carGone')}</p>}
                          <Link
                            to={remove}
                            replace
                            preventScrollReset
                            className="inline-flex w-fit items-center gap-0.5 rounded-lg px-1.5 py-1 text-xs sm:gap-1 sm:px-2 font-semibold text-slate-600 ring-1 ring-slate-300 hover:bg-slate-100"
                            aria-label={t('removeFromCompare', { title })}
                          >
                            <CloseIcon className="h-3.5 w-3.5" /> {t('remove')}
                          </Link>
                        </div>
                      </th>
                    );
                  })}
                </tr>
              </thead>
              <tbody>
                {available.length === 0 ? null : rows.length === 0 ? (
                  <tr>
                    <td colSpan={entries.length + 1} className="p-4 text-center text-slate-600">
                      {t('sameEveryRow')}
                    </td>
                  </tr>
                ) : (
                  rows.map((row, index) => {
                    const firstInspection = row.group === 'inspection' && rows[index - 1]?.group !== 'inspection';
                    const tone = row.differs && available.length > 1 ? 'bg-amber-50' : 'bg-white';
                    return [
                      firstInspection ? (
                        <tr key={`${row.label}-group`}>
                          <th
                            scope="colgroup"
                            colSpan={entries.length + 1}
                            className="border-b border-slate-200 bg-slate-50 px-3 py-2 text-left text-xs font-bold uppercase tracking-wide text-slate-600"
                          >
                            {t('conditionReport')}
                          </th>
                        </tr>
                      ) : null,
                      <tr key={`${row.group}-${row.label}`} className={tone}>
                        <th
                          scope="row"
                          className={`sticky left-0 z-10 border-b border-slate-100 px-1 py-1.5 text-left align-top text-[11px] font-medium text-slate-600 wrap-anywhere sm:p-3 sm:text-sm ${tone}`}
                        >
                          {row.label}
                          {row.differs && available.length > 1 ? <span className="sr-only">{t('differs')}</span> : null}
                        </th>
                        {/* Tight on phones, so a price like ₹13,25,000 stays on one line in three columns; a word longer than its column ("Volkswagen") wraps inside it rather than running out of the table. */}
                        {columns.map((column, position) => (
                          <td
                            key={ids[position]}
                            className="border-b border-slate-100 px-1 py-1.5 align-top text-xs font-semibold tracking-tight text-slate-900 wrap-anywhere sm:p-3 sm:text-sm sm:tracking-normal"
                          >
                            {column === -1 ? <span className="font-normal text-slate-400">—</span> : breakAfterSlash(row.values[column]!)}
                          </td>
                        ))}
                      </tr>,
                    ];
                  })
                )}
              </tbody>
            </table>
          </div>
          <PriceIncludesNote />
          <Link to={paths.home} className="w-fit font-semibold text-brand-700 underline">
            {t('addAnother')}
          </Link>
        </>
      )}
    </div>
  );
}

/** Lets a narrow phone column break "₹8,225/month" after the slash rather than inside a word. */
function breakAfterSlash(text: string): React.ReactNode {
  return text.split('/').map((part, index) => (
    <Fragment key={index}>
      {index > 0 ? (
        <>
          /<wbr />
        </>
      ) : null}
      {part}
    </Fragment>
  ));
}
