import { useLocation } from 'react-router';
import { currentLanguage } from '../lib/i18n/current.ts';
import { LANGUAGE_NAMES, LANGUAGE_TAGS } from '../lib/i18n/language.ts';
import { commonText as t } from '../lib/i18n/common.ts';
import { paths } from '../lib/paths.ts';

/**
 * "हिन्दी" on an English page, "English" on a Hindi one. A plain form, not React Router's: the
 * other language is another document (decision 087), and the server remembers the choice in a
 * cookie and the profile before it sends the visitor to the same page in that language.
 */
export function LanguageSwitch({ className, withLetter = false }: { className: string; withLetter?: boolean }) {
  const location = useLocation();
  const other = currentLanguage() === 'hi' ? 'en' : 'hi';
  return (
    <form method="post" action={paths.language} className="contents">
      <input type="hidden" name="language" value={other} />
      {/* The query as URLSearchParams writes it: the server's and the browser's locations spell a comma differently. */}
      <input type="hidden" name="back" value={`${location.pathname}${location.search ? `?${new URLSearchParams(location.search)}` : ''}`} />
      <button type="submit" className={className} lang={LANGUAGE_TAGS[other].html} title={t('switchToLanguage', { language: LANGUAGE_NAMES[other] })}>
        {withLetter ? (
          <>
            {/* The top bar's icon: the first letter of the other language's script. */}
            <span aria-hidden="true" className="flex h-5 items-center text-base font-bold leading-none">
              {other === 'hi' ? 'अ' : 'A'}
            </span>
            <span className="text-[11px] font-medium leading-none sm:text-sm sm:font-semibold">{LANGUAGE_NAMES[other]}</span>
          </>
        ) : (
          LANGUAGE_NAMES[other]
        )}
      </button>
    </form>
  );
}
