/**
 * Formatting shared by the server and the browser. Prices are in rupees with Indian digit
 * grouping (12,34,567): lakhs and crores, not thousands and millions, in both languages. Dates
 * are written the way each language writes them ('27 Nov 2026', '27 नव॰ 2026'), and times too
 * ('10:00 am', 'सुबह 10:00').
 */
import { currentLanguage } from './i18n/current.ts';
import { LANGUAGE_TAGS } from './i18n/language.ts';
import { commonText as t } from './i18n/common.ts';
import { INDIA_TIME_ZONE } from './india-time.ts';

/** The locale Intl formats dates in for the current page's language. */
export function dateLocale(): string {
  return LANGUAGE_TAGS[currentLanguage()].html;
}

/**
 * 1234567 -> '12,34,567': rounded to a whole number, the last three digits, then pairs (lakhs,
 * crores), as `Intl.NumberFormat('en-IN')` writes it. Written out because a phone pays for its
 * first Intl formatter with about 30 ms of start-up (ICU's locale data) before the page can
 * answer a tap, and a listing formats a hundred numbers (docs/decisions/043-first-tap-on-a-phone.md).
 */
export function groupIndianDigits(value: number): string {
  // Half away from zero, as Intl rounds.
  const whole = Math.round(Math.abs(value));
  if (!Number.isSafeInteger(whole)) return new Intl.NumberFormat('en-IN', { maximumFractionDigits: 0 }).format(value);
  const digits = String(whole);
  const grouped = digits.length <= 3 ? digits : `${digits.slice(0, -3).replace(/\B(?=(\d{2})+$)/g, ',')},${digits.slice(-3)}`;
  return value < 0 && whole !== 0 ? `-${grouped}` : grouped;
}

/**
 * A time of day as each language says it: '10:00 am', '6:30 pm' in English; in Hindi the part of
 * the day comes first ('सुबह 10:00', 'दोपहर 1:00', 'शाम 6:30', 'रात 9:00'), as people say and
 * write it, where Intl's 'hi-IN' would leave the English 'am' and 'pm'. Every time the site shows
 * goes through here (decision 101).
 */
export function formatClock(hour: number, minute = 0): string {
  const hour24 = ((hour % 24) + 24) % 24;
  const part = hour24 < 4 ? 'clockLateNight' : hour24 < 12 ? 'clockMorning' : hour24 < 16 ? 'clockAfternoon' : hour24 < 20 ? 'clockEvening' : 'clockNight';
  return t(part, { time: `${((hour24 + 11) % 12) + 1}:${String(minute).padStart(2, '0')}` });
}

/**
 * An `Intl.DateTimeFormat` for India made at its first use, not when the module loads: a page
 * that shows no such date (the listing, a car) then never pays for one on a phone. A format with
 * an hour writes the time through formatClock.
 */
export function indiaDateFormat(options: Intl.DateTimeFormatOptions): { format: (date: number | Date) => string } {
  const made = new Map<string, Intl.DateTimeFormat>();
  const withClock = options.hour !== undefined;
  const madeOptions: Intl.DateTimeFormatOptions = withClock ? { ...options, hour12: false, hourCycle: 'h23' } : options;
  return {
    format: (date) => {
      const locale = dateLocale();
      let formatter = made.get(locale);
      if (!formatter) made.set(locale, (formatter = new Intl.DateTimeFormat(locale, madeOptions)));
      if (!withClock) return formatter.format(date);
      const parts = formatter.formatToParts(date);
      const hour = parts.find((part) => part.type === 'hour');
      const minute = parts.find((part) => part.type === 'minute');
      const first = parts.findIndex((part) => part.type === 'hour');
      const last = parts.findIndex((part) => part.type === 'minute');
      if (!hour || !minute || last < first) return formatter.format(date);
      const before = parts
        .slice(0, first)
        .map((part) => part.value)
        .join('');
      const after = parts
        .slice(last + 1)
        .filter((part) => part.type !== 'dayPeriod')
        .map((part) => part.value)
        .join('');
      return `${before}${formatClock(Number(hour.value), Number(minute.value))}${after}`.trim();
    },
  };
}

/** 1234567 -> '₹12,34,567' */
export function formatRupees(amount: number): string {
  return `₹${groupIndianDigits(amount)}`;
}

/** The digits of a price as the dealer typed it ('5,45,000', '₹ 545000'), or null when it has none. */
export function priceDigits(price: string | number | null | undefined): number | null {
  if (price === null || price === undefined) return null;
  // Paise after a decimal point ('5,45,000.00') are not more rupees.
  const digits = String(price)
    .replace(/\.\d*\s*(\/-)?\s*$/, '')
    .replace(/\D/g, '');
  if (!digits) return null;
  const amount = Number(digits);
  return Number.isSafeInteger(amount) ? amount : null;
}

/**
 * What a car's price is called wherever it is shown: the card, the car's page, compare and the
 * search results say the same words for the same number (decision 062). What it includes is
 * an admin setting (`priceIncludes`).
 */
export function priceLabel(): string {
  return t('onRoadPrice');
}

/** The card's price line in its two parts, the label and the amount; null when there is no amount. */
export function cardPriceParts(price: string | number | null | undefined): { label: string; amount: string } | null {
  const amount = priceDigits(price);
  return amount === null ? null : { label: priceLabel(), amount: formatRupees(amount) };
}

/** The card's price line: 'On-road price ₹5,45,000', or 'Price on request' when there is no amount. */
export function cardPriceLabel(price: string | number | null | undefined): string {
  const parts = cardPriceParts(price);
  return parts === null ? t('priceOnRequest') : `${parts.label} ${parts.amount}`;
}

/**
 * The amount under priceLabel() on the car's page and in compare: a dash when empty, an amount
 * formatted when the text is an amount, and any other text (for example 'Call for best price')
 * as the dealer wrote it.
 */
export function detailPriceLabel(price: string | number | null | undefined): string {
  const text = price === null || price === undefined ? '' : String(price).trim();
  if (!text) return '—';
  if (/^(₹|rs\.?|inr)?\s*[\d,\s]+(\.0+)?(\/-)?$/i.test(text)) {
    const amount = priceDigits(text.replace(/\.0+$/, ''));
    if (amount !== null) return formatRupees(amount);
  }
  return text;
}

/** 45210 -> '45,210 km' */
export function formatKilometres(km: number | null | undefined): string {
  if (km === null || km === undefined) return '—';
  // A no-break space keeps '42,000 km' on one line.
  return `${groupIndianDigits(km)}\u00a0km`;
}

/** '2027-03-31' -> '31 Mar 2027'; other text as is; a dash when empty. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!match) return value;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  if (Number.isNaN(date.getTime())) return value;
  return date.toLocaleDateString(dateLocale(), { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}

/** '1 vehicle found' / '12 vehicles found' */
export function vehiclesFoundText(count: number, atLeast = false): string {
  if (atLeast) return t('vehiclesFoundAtLeast', { count: groupIndianDigits(count) });
  // Hindi's "one" covers 0 too, and "0 गाड़ी मिली" reads as a slip: none found is said in words.
  return count === 0 ? t('vehiclesFoundNone') : t('vehiclesFound', { count });
}

const indiaDateTimeFormat = indiaDateFormat({ day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZone: INDIA_TIME_ZONE });

/**
 * An instant as India's local date and time ('21 Nov 2026, 4:05 pm', '21 नव॰ 2026, शाम 4:05'),
 * or a dash. Formatted in IST on both server and browser so the server-rendered text and the
 * hydrated page agree.
 */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '—';
  return indiaDateTimeFormat.format(date);
}

const dayAndTimeFormat = indiaDateFormat({ weekday: 'short', day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit', timeZone: INDIA_TIME_ZONE });

/** An instant (epoch ms or ISO text) as India reads it, weekday and time: 'Tue, 1 Dec, 10:00 am'; a dash when unreadable. */
export function formatIndiaDateTime(value: number | string): string {
  const ms = typeof value === 'number' ? value : Date.parse(value);
  return Number.isFinite(ms) ? dayAndTimeFormat.format(ms) : '—';
}
