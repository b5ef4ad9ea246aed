/**
 * GST's rules for a car sold by the dealer (decision 114), pure so the desk's page can show the
 * same figures the invoice will: the GSTIN and its check character, the states (GST state
 * codes, the place of supply), and the tax of a sale under the margin scheme (rule 32(5) of the
 * CGST rules: tax on the margin over the purchase price) or the normal scheme. Money in paise,
 * rates in basis points (18% is 1800), the price the buyer pays including the tax.
 */

const GSTIN_CHARACTERS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Two digits of the state, the holder's PAN, the registration's number in that state (1–9, A–Z), Z, the check character. */
const GSTIN_SHAPE = /^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;

/** The check character of a GSTIN's first fourteen characters (the GSTN's mod-36 scheme: weights 1, 2, 1, 2…). */
export function gstinCheckCharacter(first14: string): string {
  let sum = 0;
  for (let index = 0; index < 14; index += 1) {
    const value = GSTIN_CHARACTERS.indexOf(first14[index]!);
    const product = value * (index % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return GSTIN_CHARACTERS[(36 - (sum % 36)) % 36]!;
}

export function normaliseGstin(text: string): string {
  return text.replace(/\s+/g, '').toUpperCase();
}

/** Why a GSTIN is refused, or null when it is one: its shape, its state, its check character. */
export function gstinProblem(gstin: string): 'shape' | 'state' | 'check' | null {
  if (!GSTIN_SHAPE.test(gstin)) return 'shape';
  if (!isStateCode(gstin.slice(0, 2))) return 'state';
  return gstinCheckCharacter(gstin.slice(0, 14)) === gstin[14] ? null : 'check';
}

export function isGstin(text: string): boolean {
  return gstinProblem(text) === null;
}

/** The GST state codes (the first two digits of a GSTIN), each a state or union territory; 25 merged into 26 in 2020. */
export const STATE_CODES = [
  '01',
  '02',
  '03',
  '04',
  '05',
  '06',
  '07',
  '08',
  '09',
  '10',
  '11',
  '12',
  '13',
  '14',
  '15',
  '16',
  '17',
  '18',
  '19',
  '20',
  '21',
  '22',
  '23',
  '24',
  '26',
  '27',
  '29',
  '30',
  '31',
  '32',
  '33',
  '34',
  '35',
  '36',
  '37',
  '38',
] as const;
export type StateCode = (typeof STATE_CODES)[number];

export function isStateCode(text: string): text is StateCode {
  return (STATE_CODES as readonly string[]).includes(text);
}

/** The state of a dealer's registration: its GSTIN's first two digits. */
export function stateOfGstin(gstin: string): string {
  return gstin.slice(0, 2);
}

/** Under which scheme the dealer taxes a sale of a used car. */
export const GST_SCHEMES = ['margin', 'normal'] as const;
export type GstScheme = (typeof GST_SCHEMES)[number];

/** The normal scheme's two classes of car: small (petrol ≤ 1200 cc or diesel ≤ 1500 cc, ≤ 4 m) and the rest. */
export const CAR_CLASSES = ['small', 'large'] as const;
export type CarClass = (typeof CAR_CLASSES)[number];

/** The rates in force, as the settings give them (percent, up to two decimals). */
export type GstRates = { marginRatePercent: number; smallCarRatePercent: number; largeCarRatePercent: number; largeCarCessPercent: number };

/** One line of tax on an invoice. */
export type TaxLine = { kind: 'cgst' | 'sgst' | 'igst' | 'cess'; rateBasisPoints: number; amountPaise: number };

export type SaleTax = {
  scheme: GstScheme;
  /** The value the tax is on: the margin's (margin scheme) or the price's (normal scheme), without the tax. */
  taxablePaise: number;
  lines: TaxLine[];
  taxPaise: number;
  /** What the buyer pays: the price, the tax included. */
  totalPaise: number;
  /** Margin scheme: the margin over the purchase price (0 when the car sells at or below it). */
  marginPaise: number | null;
  interState: boolean;
};

/** A percent (18, 12.5) in basis points (1800, 1250). */
export const basisPoints = (percent: number) => Math.round(percent * 100);

/**
 * The tax of a sale at `pricePaise` (the buyer's price, tax included). Margin scheme: the margin
 * over `purchasePaise` holds the tax (a negative margin is ignored: no tax); normal scheme: the
 * price holds the car class's rate and, for a large car, the cess. Within the dealer's state
 * (`supplyState` = `dealerState`) the tax is CGST and SGST, half each; to another state, IGST.
 * Paise are whole: the tax is the included amount less the taxable value, so the lines add up to
 * the total exactly; an odd paisa goes to SGST.
 */
export function saleTax(input: {
  scheme: GstScheme;
  pricePaise: number;
  purchasePaise: number | null;
  carClass: CarClass;
  rates: GstRates;
  dealerState: string;
  supplyState: string;
}): SaleTax {
  const { scheme, pricePaise, rates } = input;
  const interState = input.dealerState !== input.supplyState;
  let marginPaise: number | null = null;
  let taxedPaise: number;
  let gstBp: number;
  let cessBp = 0;
  if (scheme === 'margin') {
    marginPaise = Math.max(0, pricePaise - (input.purchasePaise ?? 0));
    taxedPaise = marginPaise;
    gstBp = basisPoints(rates.marginRatePercent);
  } else {
    taxedPaise = pricePaise;
    gstBp = basisPoints(input.carClass === 'small' ? rates.smallCarRatePercent : rates.largeCarRatePercent);
    if (input.carClass === 'large') cessBp = basisPoints(rates.largeCarCessPercent);
  }
  const totalBp = gstBp + cessBp;
  const taxableOfTaxed = Math.round((taxedPaise * 10_000) / (10_000 + totalBp));
  const taxPaise = taxedPaise - taxableOfTaxed;
  const cessPaise = totalBp === 0 ? 0 : Math.round((taxPaise * cessBp) / totalBp);
  const gstPaise = taxPaise - cessPaise;
  const lines: TaxLine[] = [];
  if (interState) lines.push({ kind: 'igst', rateBasisPoints: gstBp, amountPaise: gstPaise });
  else {
    const half = Math.floor(gstPaise / 2);
    lines.push({ kind: 'cgst', rateBasisPoints: gstBp / 2, amountPaise: half }, { kind: 'sgst', rateBasisPoints: gstBp / 2, amountPaise: gstPaise - half });
  }
  if (cessBp > 0) lines.push({ kind: 'cess', rateBasisPoints: cessBp, amountPaise: cessPaise });
  return {
    scheme,
    // Normal scheme: the price without the tax; margin scheme: the margin without it.
    taxablePaise: taxableOfTaxed,
    lines,
    taxPaise,
    totalPaise: pricePaise,
    marginPaise,
    interState,
  };
}

/** A rate in basis points as the invoice writes it: 9%, 2.5%. */
export function formatRate(rateBasisPoints: number): string {
  return `${(rateBasisPoints / 100).toFixed(2).replace(/\.?0+$/, '')}%`;
}

/** The HSN code of motor cars (chapter 87, heading 8703): on every car's invoice. */
export const CAR_HSN = '8703';
