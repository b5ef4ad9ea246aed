import { useId } from 'react';
import { adminStatsText as t } from './admin-stats-texts.ts';

/**
 * A grouped bar chart drawn with plain elements and CSS: rendered on the server, no chart
 * library, no script needed. The bars are hidden from assistive technology; the same numbers
 * are in a table that screen readers read instead (visually hidden).
 */

export type BarSeries = {
  name: string;
  values: readonly number[];
  /** Tailwind background class of the bars and the legend swatch. */
  colour: string;
};

type BarChartProps = {
  title: string;
  /** One short label per group ('1 May'), shown under some bars and in the table. */
  labels: readonly string[];
  /** Column heading of the labels in the table. */
  labelHeading: string;
  series: readonly BarSeries[];
  /** Shown instead of empty bars when every value is zero. */
  emptyText?: string;
  /** Every how many groups a label is printed under the bars (all labels are in the table). */
  labelEvery?: number;
};

/** A round axis maximum at or above `value` whose half is a whole number too: 2, 4, 10, 20, 40, 100 … */
export function niceMax(value: number): number {
  if (value <= 2) return 2;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 4, 10]) {
    if (step * magnitude >= value) return step * magnitude;
  }
  return 10 * magnitude;
}

export function BarChart({ title, labels, labelHeading, series, emptyText, labelEvery = 7 }: BarChartProps) {
  const id = useId();
  const max = niceMax(Math.max(0, ...series.flatMap((one) => one.values)));
  const empty = series.every((one) => one.values.every((value) => value === 0));
  const totals = series.map((one) => one.values.reduce((sum, value) => sum + value, 0));
  // The last label always shows; the others every `labelEvery` counting back from it.
  const showLabel = (index: number) => (labels.length - 1 - index) % labelEvery === 0;
  // Phones have room for every other one.
  const wideOnly = (index: number) => (labels.length - 1 - index) % (2 * labelEvery) !== 0;

  return (
    <figure aria-labelledby={`${id}-title`} className="flex flex-col gap-4">
      <figcaption className="flex flex-wrap items-baseline justify-between gap-x-6 gap-y-2">
        <h2 id={`${id}-title`} className="text-lg font-bold">
          {title}
        </h2>
        <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700" aria-label={t('totals')}>
          {series.map((one, index) => (
            <li key={one.name} className="flex items-center gap-2">
              <span aria-hidden="true" className={`inline-block h-3 w-3 rounded-sm ${one.colour}`} />
              {one.name}: <strong className="font-semibold text-slate-900">{totals[index]}</strong>
            </li>
          ))}
        </ul>
      </figcaption>

      <div aria-hidden="true" className="relative">
        {empty && emptyText ? <p className="absolute inset-x-0 top-16 z-10 text-center text-sm font-medium text-slate-600">{emptyText}</p> : null}
        <div className="flex gap-2">
          <div className="flex h-48 w-8 shrink-0 flex-col justify-between text-right text-xs tabular-nums text-slate-500">
            <span className="-translate-y-1/2">{max}</span>
            <span>{max / 2}</span>
            <span className="translate-y-1/2">0</span>
          </div>
          <div className="relative h-48 flex-1 border-b border-l border-slate-300">
            <div className="absolute inset-x-0 top-0 border-t border-dashed border-slate-200" />
            <div className="absolute inset-x-0 top-1/2 border-t border-dashed border-slate-200" />
            <div className="absolute inset-0 flex items-end gap-px px-px sm:gap-1">
              {labels.map((label, index) => (
                <div key={index} className="flex h-full min-w-0 flex-1 items-end justify-center gap-px">
                  {series.map((one) => {
                    const value = one.values[index] ?? 0;
                    return (
                      <div
                        key={one.name}
                        title={`${label}: ${value} ${one.name.toLowerCase()}`}
                        className={`w-1/2 max-w-3 rounded-t-sm ${one.colour}`}
                        style={{ height: `${(value / max) * 100}%`, minHeight: value > 0 ? 2 : 0 }}
                      />
                    );
                  })}
                </div>
              ))}
            </div>
          </div>
        </div>
        <div className="ml-10 mt-1 flex gap-px px-px text-xs text-slate-500 sm:gap-1">
          {labels.map((label, index) => (
            <div key={index} className="relative h-4 min-w-0 flex-1">
              {showLabel(index) ? (
                <span
                  className={`absolute whitespace-nowrap ${index === labels.length - 1 ? 'right-0' : 'left-1/2 -translate-x-1/2'} ${wideOnly(index) ? 'hidden sm:inline' : ''}`}
                >
                  {label}
                </span>
              ) : null}
            </div>
          ))}
        </div>
      </div>

      {/* The wrapper hides the table: a table box ignores overflow, so sr-only on it would not clip. */}
      <div className="sr-only">
        <table>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">{labelHeading}</th>
              {series.map((one) => (
                <th key={one.name} scope="col">
                  {one.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {labels.map((label, index) => (
              <tr key={index}>
                <th scope="row">{label}</th>
                {series.map((one) => (
                  <td key={one.name}>{one.values[index] ?? 0}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
