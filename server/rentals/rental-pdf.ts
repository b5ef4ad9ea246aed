import { amountInWords } from '../../app/features/sales/amount-in-words.ts';
import { formatRate, type TaxLine } from '../../app/features/sales/gst.ts';
import { salesText } from '../../app/features/sales/sales-texts.ts';
import { formatHours, quoteInLanguage, quoteTotals } from '../../app/features/rentals/rental-price.ts';
import type { RentalFact } from '../../app/features/rentals/rental-facts.ts';
import { formatIndiaDateTime } from '../../app/features/rentals/rentals.ts';
import { createPdf, dayText, figures, type Pdf } from '../documents/pdf.ts';
import { inLanguage } from '../i18n.ts';
import type { RentalInvoice } from './rental-invoice.ts';
import type { Booking } from './store.ts';

/**
 * A rental's documents as PDFs (decision 119), in the renter's language: the agreement made at
 * the confirmation, and the tax invoice of the settlement (CGST rule 46: the supplier's name,
 * address and GSTIN, a consecutive number and the date, the recipient, SAC, the taxable value,
 * each tax's rate and amount, the place of supply, the total in figures and words, a signature).
 */

type Key = Parameters<typeof salesText>[0];
type Language = 'en' | 'hi';

const LEFT = 40;
const WIDTH = 515;
const RIGHT = LEFT + WIDTH;
const LINE = '#cbd5e1';
const MUTED = '#475569';
/** Below this a block starts on a new page (A4 is 842 points high, pdfkit's margin 40). */
const PAGE_END = 795;

/** What the agreement says besides the booking: who rents, whose car, and the terms read from the terms page's source. */
export type AgreementParticulars = {
  number: string;
  /** India day of the confirmation. */
  date: string;
  language: Language;
  dealer: { legalName: string; address: string; gstin: string };
  renter: { name: string; phone: string; licenceNumber: string };
  registration: string;
  hubAddress: string;
  /** The terms as /rent/terms says them (app/features/rentals/rental-facts.ts), in the renter's language. */
  terms: RentalFact[];
};

function writer(pdf: Pdf) {
  const rule = (y: number, from = LEFT) => pdf.doc.moveTo(from, y).lineTo(RIGHT, y).lineWidth(0.7).strokeColor(LINE).stroke();
  /** `y`, or the top of a new page when fewer than `needs` points are left. */
  const room = (y: number, needs: number) => {
    if (y + needs <= PAGE_END) return y;
    pdf.doc.addPage();
    return 40;
  };
  return { rule, room };
}

/** The dealer's block at the top left; returns where it ends. */
function dealerBlock(
  pdf: Pdf,
  t: (key: Key, values?: Record<string, string | number>) => string,
  dealer: { legalName: string; address: string; gstin: string },
) {
  pdf.text(dealer.legalName, LEFT, 72, { size: 12, bold: true, width: 300 });
  pdf.text(dealer.address, LEFT, pdf.doc.y + 2, { width: 300, color: '#334155' });
  if (dealer.gstin) pdf.text(`${t('gstin')}: ${dealer.gstin}`, LEFT, pdf.doc.y + 2, { width: 300, bold: true });
  return pdf.doc.y;
}

/** Label-and-value pairs down the right-hand column from `y`; returns where they end. */
function factsColumn(pdf: Pdf, facts: Array<[string, string]>, y: number): number {
  for (const [label, value] of facts) {
    pdf.text(label, LEFT + 330, y, { width: 185, color: MUTED, size: 8 });
    pdf.text(value, LEFT + 330, pdf.doc.y, { width: 185, bold: true });
    y = pdf.doc.y + 4;
  }
  return y;
}

export async function renderRentalAgreement(booking: Booking, particulars: AgreementParticulars): Promise<Buffer> {
  const { language } = particulars;
  const t = (key: Key, values?: Record<string, string | number>) => salesText(key, values, language);
  const when = (ms: number) => inLanguage(language, () => formatIndiaDateTime(ms));
  const pdf = createPdf({ title: `${t('rentalAgreement')} ${particulars.number}`, author: particulars.dealer.legalName, language });
  const { rule, room } = writer(pdf);

  pdf.text(t('rentalAgreement'), LEFT, 40, { size: 18, bold: true });
  const dealerBottom = dealerBlock(pdf, t, particulars.dealer);
  let y = factsColumn(
    pdf,
    [
      [t('agreementNumber'), particulars.number],
      [t('date'), dayText(particulars.date)],
      [t('rentalAgainstBooking', { number: '' }).trim(), `#${booking.id}`],
    ],
    72,
  );
  y = Math.max(dealerBottom, y) + 10;
  rule(y);
  y += 8;
  pdf.text(t('agreementIntro', { dealer: particulars.dealer.legalName }), LEFT, y, { width: WIDTH });
  y = pdf.doc.y + 10;

  // The renter on the left, the car and the times on the right.
  const top = y;
  pdf.text(t('renter'), LEFT, y, { size: 8, color: MUTED });
  pdf.text(particulars.renter.name, LEFT, pdf.doc.y, { bold: true, size: 11, width: 300 });
  pdf.text(`${t('phone')}: ${particulars.renter.phone}`, LEFT, pdf.doc.y + 1, { width: 300 });
  pdf.text(`${t('licenceNumber')}: ${particulars.renter.licenceNumber}`, LEFT, pdf.doc.y + 1, { width: 300 });
  const renterBottom = pdf.doc.y;
  const place =
    booking.pickup === 'delivery'
      ? t('rentalDeliveredTo', { address: [booking.deliveryAddress, booking.pinCode].filter(Boolean).join(', ') })
      : t('rentalAtHub', { address: particulars.hubAddress });
  const carBottom = factsColumn(
    pdf,
    [
      [t('rentalCar'), [booking.carName, particulars.registration].filter(Boolean).join(' · ')],
      [t('rentalPickup'), when(booking.fromMs)],
      [t('rentalReturn'), when(booking.toMs)],
      [t('rentalPlace'), place],
    ],
    top,
  );
  y = Math.max(renterBottom, carBottom) + 6;
  rule(y);

  // The charges as quoted and booked, and the deposit on its own line.
  y += 8;
  pdf.text(t('rentalCharges'), LEFT, y, { size: 8, color: MUTED });
  pdf.text(`${t('amount')} (₹)`, LEFT + 405, y, { size: 8, color: MUTED, width: 110, align: 'right' });
  y += 14;
  const quote = quoteInLanguage(booking.quote, language);
  const row = (label: string, rupees: number, bold = false) => {
    pdf.text(label, LEFT, y, { width: 380, bold });
    pdf.text(figures(rupees * 100), LEFT + 405, y, { width: 110, align: 'right', bold });
    y = pdf.doc.y + 3;
  };
  for (const line of quote.lines) row(line.label, line.amount);
  const [total, deposit] = quoteTotals(quote, language);
  row(t('rentalChargesTotal'), total.amount, true);
  row(t('rentalDeposit'), deposit.amount);
  pdf.text(quote.kmIncluded === null ? t('rentalKmUnlimited') : t('rentalKmIncluded', { km: quote.kmIncluded, rate: quote.extraKmRate }), LEFT, y + 2, {
    width: WIDTH,
    size: 8,
  });
  y = pdf.doc.y + 8;
  rule(y);

  // The terms, each as the terms page says it.
  y += 8;
  pdf.text(t('rentalTermsHeading'), LEFT, y, { size: 12, bold: true });
  y = pdf.doc.y + 4;
  for (const fact of particulars.terms) {
    y = room(y, pdf.heightOf(fact.text, WIDTH - 130) + 6);
    pdf.text(fact.label, LEFT, y, { width: 120, bold: true });
    pdf.text(fact.text, LEFT + 130, y, { width: WIDTH - 130 });
    y = pdf.doc.y + 5;
  }
  y = room(y + 30, 45);
  pdf.text(t('signature', { dealer: particulars.dealer.legalName }), LEFT, y, { width: 250 });
  pdf.text(t('rentalRenterSignature', { renter: particulars.renter.name }), LEFT + 280, y, { width: 235 });
  pdf.text(t('computerMade'), LEFT, pdf.doc.y + 16, { width: WIDTH, size: 7, color: '#64748b' });
  return pdf.done();
}

export async function renderRentalInvoice(booking: Booking, invoice: RentalInvoice): Promise<Buffer> {
  const { language } = invoice;
  const t = (key: Key, values?: Record<string, string | number>) => salesText(key, values, language);
  const state = (code: string) => `${t(`state_${code}` as Key)} (${code})`;
  const when = (ms: number) => inLanguage(language, () => formatIndiaDateTime(ms));
  const pdf = createPdf({ title: `${t('taxInvoice')} ${invoice.number}`, author: invoice.dealer.legalName, language });
  const { rule } = writer(pdf);

  pdf.text(t('taxInvoice'), LEFT, 40, { size: 18, bold: true });
  pdf.text(t('rentalOriginal'), LEFT + 300, 46, { width: 215, align: 'right', color: MUTED });
  dealerBlock(pdf, t, invoice.dealer);
  pdf.text(`${t('state')}: ${state(invoice.dealer.stateCode)}`, LEFT, pdf.doc.y + 2, { width: 300 });
  const dealerBottom = pdf.doc.y;
  let y = factsColumn(
    pdf,
    [
      [t('invoiceNumber'), invoice.number],
      [t('date'), dayText(invoice.date)],
      [t('placeOfSupply'), state(invoice.supplyState)],
    ],
    72,
  );
  y = Math.max(dealerBottom, y) + 10;
  rule(y);

  y += 8;
  pdf.text(t('renter'), LEFT, y, { size: 8, color: MUTED });
  pdf.text(invoice.renter.name, LEFT, pdf.doc.y, { bold: true, size: 11, width: 300 });
  pdf.text(`${t('phone')}: ${invoice.renter.phone}`, LEFT, pdf.doc.y + 1, { width: 300 });
  pdf.text(
    `${t('rentalAgainstBooking', { number: `#${booking.id}` })} · ${[invoice.car.name, invoice.car.registration].filter(Boolean).join(' · ')}`,
    LEFT,
    pdf.doc.y + 1,
    {
      width: WIDTH,
    },
  );
  pdf.text(`${t('rentalPeriod')}: ${when(booking.handedOverMs ?? booking.fromMs)} – ${when(booking.returnedMs ?? booking.toMs)}`, LEFT, pdf.doc.y + 1, {
    width: WIDTH,
  });
  y = pdf.doc.y + 10;
  rule(y);

  // What was supplied, line by line, each with its SAC and taxable value.
  y += 8;
  pdf.text(t('description'), LEFT, y, { size: 8, color: MUTED, width: 330 });
  pdf.text(t('sac'), LEFT + 340, y, { size: 8, color: MUTED, width: 60 });
  pdf.text(`${t('taxableColumn')} (₹)`, LEFT + 405, y, { size: 8, color: MUTED, width: 110, align: 'right' });
  y += 16;
  for (const line of invoice.lines) {
    const label = t(`rentalLine_${line.kind}` as Key, line.kind === 'rent' ? { hours: formatHours(booking.quote.hours, language) } : {});
    pdf.text(label, LEFT, y, { width: 330 });
    pdf.text(line.sac, LEFT + 340, y, { width: 60 });
    pdf.text(figures(line.taxablePaise), LEFT + 405, y, { width: 110, align: 'right' });
    y = pdf.doc.y + 3;
  }
  y += 4;
  rule(y);
  y += 8;
  const amountRow = (label: string, amountPaise: number, bold = false) => {
    pdf.text(label, LEFT + 200, y, { width: 200, bold });
    pdf.text(figures(amountPaise), LEFT + 405, y, { width: 110, align: 'right', bold });
    y = pdf.doc.y + 3;
  };
  amountRow(t('taxableValue'), invoice.taxablePaise);
  for (const line of invoice.taxLines) amountRow(taxLabel(t, line), line.amountPaise);
  amountRow(t('totalTax'), invoice.taxPaise);
  y += 2;
  rule(y, LEFT + 200);
  y += 5;
  amountRow(t('total'), invoice.totalPaise, true);
  y += 6;
  pdf.text(t('amountInWords'), LEFT, y, { size: 8, color: MUTED });
  pdf.text(amountInWords(invoice.totalPaise, language), LEFT, pdf.doc.y, { bold: true, width: WIDTH });
  y = pdf.doc.y + 10;
  rule(y);

  // The deposit: money held and given back, not a supply.
  y += 8;
  pdf.text(t('rentalDepositHeading'), LEFT, y, { size: 8, color: MUTED });
  y = pdf.doc.y + 2;
  const depositRow = (label: string, amountPaise: number) => {
    pdf.text(label, LEFT, y, { width: 380 });
    pdf.text(figures(amountPaise), LEFT + 405, y, { width: 110, align: 'right' });
    y = pdf.doc.y + 2;
  };
  depositRow(t('rentalDepositTaken'), invoice.depositPaise);
  depositRow(t('rentalDepositReturned'), invoice.depositReturnedPaise);
  if (invoice.depositPaise > invoice.depositReturnedPaise) depositRow(t('rentalDepositKept'), invoice.depositPaise - invoice.depositReturnedPaise);
  y += 8;
  pdf.text(t('reverseCharge'), LEFT, y, { width: WIDTH, size: 8 });
  y = pdf.doc.y + 40;
  pdf.text(t('signature', { dealer: invoice.dealer.legalName }), LEFT + 255, y, { width: 260 });
  pdf.text(t('computerMade'), LEFT, pdf.doc.y + 16, { width: WIDTH, size: 7, color: '#64748b' });
  return pdf.done();
}

function taxLabel(t: (key: Key, values?: Record<string, string | number>) => string, line: TaxLine): string {
  return t(line.kind, { rate: formatRate(line.rateBasisPoints) });
}
