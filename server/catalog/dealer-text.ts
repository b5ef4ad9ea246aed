/**
 * What the dealer typed (fuel 'Petrol + CNG', owners 'Second owner', year '2019 (Dec)'), read
 * into the values the buyer's filters compare (decision 023). Only the server reads these, when
 * a car is saved (filters.ts filterColumns), when the JSON API takes a car, and in the migration
 * that filled them in for cars stored before the filters.
 */
import type { Colour, Fuel, TransmissionKey } from '../../app/lib/listing-filters/options.ts';

/** The fuel a stored fuel type means, whatever its case ('DIESEL', 'Petrol'), or null. */
export function fuelKey(fuelType: string): Fuel | null {
  const text = fuelType.trim().toLowerCase();
  if (!text) return null;
  if (/hybrid/.test(text)) return 'hybrid';
  if (/\b(cng|lpg)\b/.test(text)) return 'cng';
  if (/electric|\bev\b/.test(text)) return 'electric';
  if (/diesel/.test(text)) return 'diesel';
  if (/petrol|gasoline/.test(text)) return 'petrol';
  return null;
}

/** Manual or automatic (AMT, CVT, DCT, AT count as automatic), or null. */
export function transmissionKey(transmission: string): TransmissionKey | null {
  const text = transmission.trim().toLowerCase();
  if (!text) return null;
  // iMT (a clutchless manual) still has a gear lever.
  if (/manual|\b(i?mt)\b/.test(text)) return 'manual';
  if (/auto|\b(amt|cvt|dct|at|ivt|dsg)\b/.test(text)) return 'automatic';
  return null;
}

/** The number of owners in '1st Owner', 'Second owner', '2', or null. */
export function ownerCount(owners: string): number | null {
  const text = owners.trim().toLowerCase();
  const digits = /(\d+)/.exec(text);
  if (digits) {
    const count = Number(digits[1]);
    return count >= 1 && count <= 20 ? count : null;
  }
  const words = ['first', 'second', 'third', 'fourth', 'fifth'];
  const index = words.findIndex((word) => text.includes(word));
  if (index >= 0) return index + 1;
  if (/single|one/.test(text)) return 1;
  return null;
}

/** The four-digit model year in '2019', '2019 (Dec)', or null. */
export function modelYear(year: string): number | null {
  const match = /\b(19[5-9]\d|20\d\d)\b/.exec(year);
  return match ? Number(match[1]) : null;
}

/**
 * The colour named in a text (an older car's description, 'Pearl white, single owner'), for
 * filling in the colour of cars added before it was a field; '' when none is named.
 */
export function colourIn(text: string): Colour | '' {
  const lower = text.toLowerCase();
  const words: Array<[RegExp, Colour]> = [
    [/\b(pearl |arctic |polar |snow |candy )?white\b/, 'white'],
    [/\bsilver\b/, 'silver'],
    [/\b(grey|gray|graphite|gunmetal)\b/, 'grey'],
    [/\bblack\b/, 'black'],
    [/\bmaroon\b/, 'maroon'],
    [/\bred\b/, 'red'],
    [/\bblue\b/, 'blue'],
    [/\bbrown\b/, 'brown'],
    [/\bbeige\b/, 'beige'],
    [/\borange\b/, 'orange'],
    [/\byellow\b/, 'yellow'],
    [/\bgreen\b/, 'green'],
  ];
  let best: { at: number; colour: Colour } | null = null;
  for (const [pattern, colour] of words) {
    const at = lower.search(pattern);
    if (at >= 0 && (best === null || at < best.at)) best = { at, colour };
  }
  return best?.colour ?? '';
}
