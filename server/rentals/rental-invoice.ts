import { basisPoints, type TaxLine } from '../../app/features/sales/gst.ts';
import type { RentalQuote, ReturnCharges } from '../../app/features/rentals/rental-price.ts';

/**
 * A rental's tax invoice as figures (decision 119), pure: the lines of what was supplied, each
 * with its SAC and taxable value, the GST on them, and the deposit beside them (not a supply,
 * not taxed). Money in paise.
 *
 * Two kinds of price meet here. The quote's rent, protection and delivery are without GST: the
 * booking added GST at the rate of the settings (`rentalGstPercent`, frozen in the quote), so
 * their taxable value is the line and their tax is the quote's GST line, as charged. The charges
 * at return (extra km, late hours, fuel, damage) were taken from the deposit as typed, tax
 * included: each holds the tax at the booking's rate.
 */

/** SAC 997311: leasing or rental services concerning transport vehicles (cars) without operator, heading 9973. */
export const RENTAL_SAC = '997311';

export type RentalInvoiceLineKind = 'rent' | 'protection' | 'delivery' | 'extra-km' | 'late' | 'fuel' | 'damage';

export type RentalInvoiceLine = { kind: RentalInvoiceLineKind; sac: string; taxablePaise: number; taxPaise: number };

/** The dealer as the invoice names it, from the sales settings at the settlement. */
export type InvoiceDealer = { legalName: string; address: string; gstin: string; stateCode: string };

/** A rental's tax invoice as issued, frozen in the booking (`rental_bookings.invoice`). */
export type RentalInvoice = {
  number: string;
  /** India day, 2026-11-20. */
  date: string;
  language: 'en' | 'hi';
  dealer: InvoiceDealer;
  renter: { name: string; phone: string };
  car: { name: string; registration: string };
  /** GST state code of the place of supply: the dealer's (the car is handed over and delivered there). */
  supplyState: string;
  rateBasisPoints: number;
  lines: RentalInvoiceLine[];
  taxablePaise: number;
  taxLines: TaxLine[];
  taxPaise: number;
  /** What the renter paid for the supply: the taxable value and the tax. */
  totalPaise: number;
  depositPaise: number;
  depositReturnedPaise: number;
};

const paise = (rupees: number) => Math.round(rupees * 100);

/** The tax inside `amountPaise` at `rateBp`, the rest its taxable value. */
function inclusive(amountPaise: number, rateBp: number): { taxablePaise: number; taxPaise: number } {
  const taxablePaise = Math.round((amountPaise * 10_000) / (10_000 + rateBp));
  return { taxablePaise, taxPaise: amountPaise - taxablePaise };
}

/** The invoice's figures for a booking's quote, its charges at return and the deposit it returned. */
export function rentalInvoiceFigures(input: {
  quote: Pick<RentalQuote, 'rent' | 'protection' | 'deliveryFee' | 'gst' | 'gstPercent' | 'deposit'>;
  charges: ReturnCharges | null;
  depositReturned: number;
  dealerState: string;
  supplyState: string;
}): Pick<RentalInvoice, 'rateBasisPoints' | 'lines' | 'taxablePaise' | 'taxLines' | 'taxPaise' | 'totalPaise' | 'depositPaise' | 'depositReturnedPaise'> {
  const { quote, charges } = input;
  const rateBp = basisPoints(quote.gstPercent);
  // The quote's lines share its one GST line, as charged: spread over them by their value, the last taking what is left.
  const quoted: Array<[RentalInvoiceLineKind, number]> = (
    [
      ['rent', paise(quote.rent)],
      ['protection', paise(quote.protection)],
      ['delivery', paise(quote.deliveryFee)],
    ] as Array<[RentalInvoiceLineKind, number]>
  ).filter(([, amount]) => amount > 0);
  const quotedTaxable = quoted.reduce((sum, [, amount]) => sum + amount, 0);
  let quotedTaxLeft = paise(quote.gst);
  const lines: RentalInvoiceLine[] = quoted.map(([kind, amount], index) => {
    const taxPaise = index === quoted.length - 1 ? quotedTaxLeft : Math.round((paise(quote.gst) * amount) / quotedTaxable);
    quotedTaxLeft -= taxPaise;
    return { kind, sac: RENTAL_SAC, taxablePaise: amount, taxPaise };
  });
  if (charges) {
    const extra: Array<[RentalInvoiceLineKind, number]> = [
      ['extra-km', charges.extraKmCharge],
      ['late', charges.lateFee],
      ['fuel', charges.fuelCharge],
      ['damage', charges.damageCharge ?? 0],
    ];
    for (const [kind, rupees] of extra) if (rupees > 0) lines.push({ kind, sac: RENTAL_SAC, ...inclusive(paise(rupees), rateBp) });
  }
  const taxablePaise = lines.reduce((sum, line) => sum + line.taxablePaise, 0);
  const taxPaise = lines.reduce((sum, line) => sum + line.taxPaise, 0);
  const taxLines: TaxLine[] = [];
  if (input.dealerState !== input.supplyState) taxLines.push({ kind: 'igst', rateBasisPoints: rateBp, amountPaise: taxPaise });
  else {
    // Half each; an odd paisa to SGST, as on a sale's invoice.
    const half = Math.floor(taxPaise / 2);
    taxLines.push(
      { kind: 'cgst', rateBasisPoints: rateBp / 2, amountPaise: half },
      { kind: 'sgst', rateBasisPoints: rateBp / 2, amountPaise: taxPaise - half },
    );
  }
  return {
    rateBasisPoints: rateBp,
    lines,
    taxablePaise,
    taxLines,
    taxPaise,
    totalPaise: taxablePaise + taxPaise,
    depositPaise: paise(quote.deposit),
    depositReturnedPaise: paise(input.depositReturned),
  };
}
