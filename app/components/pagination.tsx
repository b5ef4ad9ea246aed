import { Link } from 'react-router';
import { browseText as t } from '../lib/i18n/browse.ts';

/** Previous / next links that keep the rest of the query (the search term, the category). */
export function Pagination({ page, pageCount, hrefFor }: { page: number; pageCount: number; hrefFor: (page: number) => string }) {
  if (pageCount <= 1) return null;
  const link = 'rounded-xl px-4 py-2.5 text-sm font-semibold ring-1 ring-slate-300 bg-white hover:bg-slate-100';
  return (
    <nav aria-label={t('pages')} className="mt-6 flex items-center justify-center gap-3">
      {page > 1 ? (
        <Link to={hrefFor(page - 1)} rel="prev" className={link}>
          {t('previous')}
        </Link>
      ) : null}
      <span className="text-sm text-slate-600" aria-current="page">
        {t('pageOf', { page, count: pageCount })}
      </span>
      {page < pageCount ? (
        <Link to={hrefFor(page + 1)} rel="next" className={link}>
          {t('next')}
        </Link>
      ) : null}
    </nav>
  );
}
