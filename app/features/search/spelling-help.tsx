import { Link } from 'react-router';
import { browseText as t } from '../../lib/i18n/browse.ts';
import { RichText } from '../../lib/i18n/rich.tsx';

export type SpellingHelpView = { searchedFor: string | null; suggestions: Array<{ model: string; href: string }> };

/** "Showing results for Creta" above cars found by correcting the buyer's spelling (server/catalog/spelling.ts). */
export function SearchedForNote({ spelling }: { spelling: SpellingHelpView }) {
  if (!spelling.searchedFor) return null;
  return (
    <p className="text-slate-700" data-searched-for>
      <RichText text={t('showingResultsFor')} parts={{ term: () => <strong className="font-semibold">{spelling.searchedFor}</strong> }} />
    </p>
  );
}

/** When a search found nothing even corrected: the nearest models, each a search of its own. */
export function SearchSuggestions({ spelling }: { spelling: SpellingHelpView }) {
  if (spelling.suggestions.length === 0) return null;
  return (
    <p className="mt-3 flex flex-wrap items-center justify-center gap-2 text-slate-700" data-suggestions>
      <span>{t('didYouMean')}</span>
      {spelling.suggestions.map((suggestion) => (
        <Link
          key={suggestion.model}
          to={suggestion.href}
          className="rounded-full bg-brand-50 px-3 py-1 font-semibold text-brand-700 ring-1 ring-brand-100 hover:bg-brand-100"
        >
          {suggestion.model}
        </Link>
      ))}
    </p>
  );
}
