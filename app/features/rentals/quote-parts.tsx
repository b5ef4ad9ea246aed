import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatRupees } from '../../lib/format.ts';
import { rentText as t } from './rent-texts.ts';
import { paths } from '../../lib/paths.ts';
import type { RentalFact } from './rental-facts.ts';
import { quoteTotals, type RentalQuote } from './rental-price.ts';
import { monthTitle, shiftMonth, type CalendarDay } from './rent-view.ts';

function Row({ label, value, strong = false, ...data }: { label: string; value: string; strong?: boolean } & Record<`data-${string}`, string>) {
  return (
    <div className={`flex justify-between gap-3 py-1.5 ${strong ? 'font-bold' : ''}`} {...data}>
      <dt className={strong ? '' : 'text-slate-700'}>{label}</dt>
      <dd className="text-right tabular-nums">{value}</dd>
    </div>
  );
}

/**
 * A quote's lines (rent, protection, delivery, GST) and their total, then the refundable deposit
 * apart, then what is paid now and at pickup: the rows of quoteTotals, the same on every page,
 * mail and the API.
 */
export function QuoteLines({ quote }: { quote: RentalQuote }) {
  const [total, deposit, now, pickup] = quoteTotals(quote);
  return (
    <div className="flex flex-col gap-2 text-sm">
      <dl className="divide-y divide-slate-100" aria-label={t('priceAria')}>
        {quote.lines.map((line) => (
          <Row key={line.kind} label={line.label} value={formatRupees(line.amount)} data-quote-line={line.kind} />
        ))}
        <Row label={total.label} value={formatRupees(total.amount)} strong data-quote-total="total" />
      </dl>
      <dl className="rounded-lg bg-slate-50 px-3 ring-1 ring-slate-200" aria-label={t('depositAndPaymentAria')}>
        <Row label={deposit.label} value={formatRupees(deposit.amount)} data-quote-total="deposit" />
      </dl>
      <dl className="divide-y divide-slate-100">
        {/* Pay at pickup asks nothing now: said in words, a bold ₹0 read as a mistake. */}
        <Row label={now.label} value={now.amount > 0 ? formatRupees(now.amount) : t('zeroPayAtPickup')} strong data-quote-total="now" />
        <Row label={pickup.label} value={formatRupees(pickup.amount)} data-quote-total="pickup" />
      </dl>
    </div>
  );
}

/** Rental terms as sentences (app/features/rentals/rental-facts.ts), each marked with its key so a test can hold pages to one wording. */
export function RentalFactList({ facts }: { facts: RentalFact[] }) {
  return (
    <ul className="flex list-disc flex-col gap-1 pl-5 text-slate-700">
      {facts.map((fact) => (
        <li key={fact.key} data-fact={fact.key}>
          <strong className="font-semibold text-slate-800">{t('factLabel', { label: fact.label })}</strong> <span data-fact-text>{fact.text}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * A card of terms under its heading: the car page's "Rental terms" and each card of the terms
 * page. `heading` may be a link; `headingId` labels the card for screen readers.
 */
export function RentalTermsCard({
  headingId,
  heading,
  facts,
  level = 'h2',
  ...rest
}: { headingId: string; heading: ReactNode; facts: RentalFact[]; level?: 'h2' | 'h3' } & Record<`data-${string}`, string | number>) {
  const Heading = level;
  return (
    <section aria-labelledby={headingId} className="rounded-2xl bg-white p-4 text-sm shadow-sm ring-1 ring-slate-200" {...rest}>
      <Heading id={headingId} className={level === 'h2' ? 'mb-2 text-lg font-bold' : 'mb-2 font-bold'}>
        {heading}
      </Heading>
      <RentalFactList facts={facts} />
    </section>
  );
}

/** The quote with the km it includes (and, given them, the terms the renter agrees to), linking to the terms page. */
export function QuoteBreakdown({ quote, facts = [] }: { quote: RentalQuote; facts?: RentalFact[] }) {
  return (
    <div className="mt-3 flex flex-col gap-3 text-sm">
      <QuoteLines quote={quote} />
      <p className="text-slate-700">
        {quote.kmIncluded === null ? t('factKmUnlimited') : t('kmIncludedForDates', { km: quote.kmIncluded, rate: formatRupees(quote.extraKmRate) })}
      </p>
      {facts.length > 0 ? <RentalFactList facts={facts} /> : null}
      <p>
        <Link to={paths.rentTerms} className="font-semibold text-brand-700 underline">
          {t('allRentalTerms')}
        </Link>
      </p>
    </div>
  );
}

const stateClass: Record<NonNullable<CalendarDay>['state'], string> = {
  free: 'bg-green-50 text-green-900 ring-green-200',
  part: 'bg-amber-50 text-amber-900 ring-amber-200',
  taken: 'bg-slate-200 text-slate-700 line-through ring-slate-300',
  // Greyed, yet readable (4.5:1): axe counts a past day's number as text like any other.
  past: 'bg-white text-slate-500 ring-slate-100',
};
const stateLabel = (): Record<NonNullable<CalendarDay>['state'], string> => ({
  free: t('dayFree'),
  part: t('dayPart'),
  taken: t('dayTaken'),
  past: t('dayPast'),
});

const weekdayNames = () => [t('weekMo'), t('weekTu'), t('weekWe'), t('weekTh'), t('weekFr'), t('weekSa'), t('weekSu')];

/** A month of the car's free and taken days, with links to the months before and after. */
export function MonthCalendar({ month, weeks, linkFor }: { month: string; weeks: CalendarDay[][]; linkFor: (month: string) => string }) {
  const labels = stateLabel();
  return (
    <div>
      <div className="mb-3 flex items-center justify-between gap-2">
        <Link
          to={linkFor(shiftMonth(month, -1))}
          className="rounded-lg px-3 py-1.5 text-sm font-semibold ring-1 ring-slate-300"
          aria-label={t('previousMonth')}
          preventScrollReset
        >
          ‹
        </Link>
        <h3 className="font-bold">{monthTitle(month)}</h3>
        <Link
          to={linkFor(shiftMonth(month, 1))}
          className="rounded-lg px-3 py-1.5 text-sm font-semibold ring-1 ring-slate-300"
          aria-label={t('nextMonth')}
          preventScrollReset
        >
          ›
        </Link>
      </div>
      <table className="w-full table-fixed border-separate border-spacing-1 text-center text-sm">
        <thead>
          <tr>
            {weekdayNames().map((day) => (
              <th key={day} scope="col" className="font-semibold text-slate-500">
                {day}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week, index) => (
            <tr key={index}>
              {week.map((day, column) =>
                day ? (
                  <td key={column} className={`rounded-lg py-2 ring-1 ${stateClass[day.state]}`} title={`${day.date}: ${labels[day.state]}`}>
                    <span aria-hidden="true">{day.day}</span>
                    <span className="sr-only">
                      {day.date} {labels[day.state]}
                    </span>
                  </td>
                ) : (
                  <td key={column} />
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-2 flex flex-wrap gap-3 text-xs text-slate-600">
        <span className="inline-flex items-center gap-1">
          <span className="h-3 w-3 rounded bg-green-100 ring-1 ring-green-300" /> {t('legendFree')}
        </span>
        <span className="inline-flex items-center gap-1">
          <span className="h-3 w-3 rounded bg-amber-100 ring-1 ring-amber-300" /> {t('legendPart')}
        </span>
        <span className="inline-flex items-center gap-1">
          <span className="h-3 w-3 rounded bg-slate-200 ring-1 ring-slate-300" /> {t('legendTaken')}
        </span>
      </p>
    </div>
  );
}
