import { emiFrom, financeTermsNote, type FinanceTerms } from './emi.ts';
import { formatRupees } from '../../lib/format.ts';
import { InfoIcon } from '../../components/icons.tsx';
import { browseText as t } from '../../lib/i18n/browse.ts';
import { RichText } from '../../lib/i18n/rich.tsx';

/**
 * "EMI from ₹X/month" with what it assumes behind an (i) that opens on a tap, works without
 * JavaScript (<details>) and is read by screen readers as a disclosure. Nothing for a car
 * without a price in rupees.
 */
export function EmiFrom({ priceRupees, terms, className = '' }: { priceRupees: number | null; terms: FinanceTerms; className?: string }) {
  const amount = emiFrom(priceRupees, terms);
  if (amount === null) return null;
  return (
    <div className={`relative flex items-center gap-1 text-sm text-slate-700 ${className}`}>
      <span>
        <RichText text={t('emiFrom')} parts={{ amount: () => <strong className="font-semibold text-slate-900">{formatRupees(amount)}</strong> }} />
      </span>
      <details>
        {/* Above a card's full-size link, so the tap opens the note, not the car. */}
        <summary className="relative z-10 flex cursor-pointer list-none rounded-full p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-800 [&::-webkit-details-marker]:hidden">
          <InfoIcon className="h-4 w-4" />
          <span className="sr-only">{t('howEmi')}</span>
        </summary>
        <p className="absolute inset-x-0 bottom-full z-20 mb-1 max-w-80 rounded-lg bg-slate-900 p-3 text-xs leading-relaxed text-white shadow-lg">
          {financeTermsNote(terms)}
        </p>
      </details>
    </div>
  );
}
