import { Link } from 'react-router';
import { formatRupees } from '../../lib/format.ts';
import type { RentalQuote } from '../../lib/rental-price.ts';
import { formatHours, monthTitle, shiftMonth, type CalendarDay } from '../../lib/rent-view.ts';

export type QuotePolicy = { graceHours: number; lateFeePerHour: number; freeCancelHours: number; lateCancelKeepDays: number; deliveryFee: number };

function Row({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) {
  return (
    <div className={`flex justify-between gap-3 py-1.5 ${strong ? 'font-bold' : ''}`}>
      <dt className={strong ? '' : 'text-slate-700'}>{label}</dt>
      <dd className="text-right">{value}</dd>
    </div>
  );
}

/**
 * The quote as the issue lists it: rent, delivery fee, refundable deposit, km included and the
 * extra-km charge, fuel policy, late-return rule, cancellation policy, and what is payable now.
 */
export function QuoteBreakdown({
  quote,
  terms,
  policy,
}: {
  quote: RentalQuote;
  terms: { fuelPolicy: string; minHours: number; minAge: number; deliveryAvailable: boolean };
  policy: QuotePolicy;
}) {
  const keep = policy.lateCancelKeepDays === 1 ? "one day's rent is kept" : `${policy.lateCancelKeepDays} days' rent are kept`;
  return (
    <div className="mt-3 flex flex-col gap-3 text-sm">
      <dl className="divide-y divide-slate-100">
        <Row label={`Rent, ${formatHours(quote.hours)}`} value={formatRupees(quote.rent)} />
        <Row
          label="Delivery fee"
          value={quote.deliveryFee > 0 ? formatRupees(quote.deliveryFee) : terms.deliveryAvailable ? `₹0 at our hub (delivery ${formatRupees(policy.deliveryFee)})` : '₹0 (pickup at our hub)'}
        />
        <Row label="Refundable security deposit" value={formatRupees(quote.deposit)} />
        <Row label="Total" value={formatRupees(quote.total)} strong />
        {/* Pay at pickup asks nothing now: said in words, a bold ₹0 under the total read as a mistake. */}
        <Row label="Payable now" value={quote.payableNow > 0 ? formatRupees(quote.payableNow) : '₹0: all of it at pickup'} />
      </dl>
      <ul className="flex list-disc flex-col gap-1 pl-5 text-slate-700">
        <li>{quote.kmIncluded === null ? 'Unlimited km.' : `${quote.kmIncluded} km included; extra km at ${formatRupees(quote.extraKmRate)}/km.`}</li>
        <li>Fuel: {terms.fuelPolicy}; any shortfall is charged from the deposit.</li>
        <li>
          Return on time: {policy.graceHours} hour{policy.graceHours === 1 ? '' : 's'} of grace, then {formatRupees(policy.lateFeePerHour)} per late hour.
        </li>
        <li>
          Free cancellation until {policy.freeCancelHours} hours before pickup; later {keep}; after pickup the rent is not refunded. The deposit always comes back.
        </li>
        <li>
          Minimum {terms.minHours} hours; driver at least {terms.minAge} years old with a valid licence. Pay at pickup: the deposit is refunded within 7 working days after the
          FASTag and challan checks.
        </li>
      </ul>
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
const stateLabel: Record<NonNullable<CalendarDay>['state'], string> = { free: 'free', part: 'partly booked', taken: 'booked', past: 'past' };

/** A month of the car's free and taken days, with links to the months before and after. */
export function MonthCalendar({ month, weeks, linkFor }: { month: string; weeks: CalendarDay[][]; linkFor: (month: string) => string }) {
  return (
    <div>
      <div className="mb-3 flex items-center justify-between gap-2">
        <Link to={linkFor(shiftMonth(month, -1))} className="rounded-lg px-3 py-1.5 text-sm font-semibold ring-1 ring-slate-300" aria-label="Previous month" preventScrollReset>
          ‹
        </Link>
        <h3 className="font-bold">{monthTitle(month)}</h3>
        <Link to={linkFor(shiftMonth(month, 1))} className="rounded-lg px-3 py-1.5 text-sm font-semibold ring-1 ring-slate-300" aria-label="Next month" preventScrollReset>
          ›
        </Link>
      </div>
      <table className="w-full table-fixed border-separate border-spacing-1 text-center text-sm">
        <thead>
          <tr>
            {['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'].map((day) => (
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
                  <td key={column} className={`rounded-lg py-2 ring-1 ${stateClass[day.state]}`} title={`${day.date}: ${stateLabel[day.state]}`}>
                    <span aria-hidden="true">{day.day}</span>
                    <span className="sr-only">
                      {day.date} {stateLabel[day.state]}
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
          <span className="h-3 w-3 rounded bg-green-100 ring-1 ring-green-300" /> Free
        </span>
        <span className="inline-flex items-center gap-1">
          <span className="h-3 w-3 rounded bg-amber-100 ring-1 ring-amber-300" /> Partly booked
        </span>
        <span className="inline-flex items-center gap-1">
          <span className="h-3 w-3 rounded bg-slate-200 ring-1 ring-slate-300" /> Booked
        </span>
      </p>
    </div>
  );
}
