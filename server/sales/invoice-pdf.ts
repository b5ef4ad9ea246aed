import { amountInWords } from '../../app/features/sales/amount-in-words.ts';
import { CAR_HSN, formatRate, type TaxLine } from '../../app/features/sales/gst.ts';
import { salesText } from '../../app/features/sales/sales-texts.ts';
import { createPdf, dayText, figures, type Pdf } from '../documents/pdf.ts';
import type { Sale } from './store.ts';

/**
 * The tax invoice of a sale and the credit note of its cancellation (decision 114), in the
 * buyer's language: what rule 46 of the CGST rules asks an invoice to say (the supplier's name,
 * address and GSTIN, a consecutive number and the date, the recipient, HSN, the taxable value,
 * the rate and amount of each tax, the place of supply, the total, a signature) and the car's
 * particulars. Amounts are written as figures without ₹ in columns headed "(₹)".
 */

export type SaleDocumentKind = 'tax-invoice' | 'credit-note';

type Key = Parameters<typeof salesText>[0];

const LEFT = 40;
const WIDTH = 515;
const RIGHT = LEFT + WIDTH;
const LINE = '#cbd5e1';

export async function renderSaleDocument(sale: Sale, kind: SaleDocumentKind): Promise<Buffer> {
  const language = sale.language;
  const t = (key: Key, values?: Record<string, string | number>) => salesText(key, values, language);
  const state = (code: string) => `${t(`state_${code}` as Key)} (${code})`;
  const credit = kind === 'credit-note';
  const title = credit ? t('creditNote') : t('taxInvoice');
  const number = credit ? sale.creditNoteNumber! : sale.invoiceNumber;
  const date = credit ? sale.creditNoteDate! : sale.invoiceDate;
  const pdf = createPdf({ title: `${title} ${number}`, author: sale.dealer.legalName, language });
  const { doc } = pdf;
  const rule = (y: number) => doc.moveTo(LEFT, y).lineTo(RIGHT, y).lineWidth(0.7).strokeColor(LINE).stroke();

  // The heading: what the document is, and the dealer.
  pdf.text(title, LEFT, 40, { size: 18, bold: true });
  if (!credit) pdf.text(t('original'), LEFT + 300, 46, { width: 215, align: 'right', color: '#475569' });
  pdf.text(sale.dealer.legalName, LEFT, 72, { size: 12, bold: true, width: 300 });
  pdf.text(sale.dealer.address, LEFT, doc.y + 2, { width: 300, color: '#334155' });
  pdf.text(`${t('gstin')}: ${sale.dealer.gstin}`, LEFT, doc.y + 2, { width: 300, bold: true });
  pdf.text(`${t('state')}: ${state(sale.dealer.stateCode)}`, LEFT, doc.y + 2, { width: 300 });
  const dealerBottom = doc.y;

  // The document's number, date and place of supply, on the right.
  const facts: Array<[string, string]> = [
    [credit ? t('creditNoteNumber') : t('invoiceNumber'), number],
    [t('date'), dayText(date)],
    [t('placeOfSupply'), state(sale.supplyState)],
  ];
  let y = 72;
  for (const [label, value] of facts) {
    pdf.text(label, LEFT + 330, y, { width: 185, color: '#475569', size: 8 });
    pdf.text(value, LEFT + 330, doc.y, { width: 185, bold: true });
    y = doc.y + 4;
  }
  if (credit) {
    pdf.text(t('againstInvoice', { number: sale.invoiceNumber, date: dayText(sale.invoiceDate) }), LEFT + 330, y, { width: 185, size: 8 });
    y = doc.y + 4;
  }
  y = Math.max(dealerBottom, y) + 10;
  rule(y);

  // The buyer.
  y += 8;
  pdf.text(t('buyer'), LEFT, y, { size: 8, color: '#475569' });
  pdf.text(sale.buyer.name, LEFT, doc.y, { bold: true, size: 11, width: 300 });
  pdf.text(sale.buyer.address, LEFT, doc.y + 1, { width: 300 });
  const contact = [
    `${t('phone')}: ${sale.buyer.phone}`,
    sale.buyer.email ? `${t('email')}: ${sale.buyer.email}` : '',
    sale.buyer.pan ? `${t('pan')}: ${sale.buyer.pan}` : '',
  ]
    .filter(Boolean)
    .join('   ');
  pdf.text(contact, LEFT, doc.y + 2, { width: WIDTH });
  y = doc.y + 10;
  rule(y);

  // The car, one line of the invoice.
  y += 8;
  pdf.text(t('description'), LEFT, y, { size: 8, color: '#475569', width: 330 });
  pdf.text(t('hsn'), LEFT + 340, y, { size: 8, color: '#475569', width: 60 });
  pdf.text(`${t('amount')} (₹)`, LEFT + 405, y, { size: 8, color: '#475569', width: 110, align: 'right' });
  y += 16;
  const car = sale.vehicle;
  pdf.text(`${car.make} ${car.model}`.trim() || car.title, LEFT, y, { bold: true, size: 11, width: 330 });
  pdf.text(CAR_HSN, LEFT + 340, y, { width: 60, bold: true });
  pdf.text(figures(sale.pricePaise), LEFT + 405, y, { width: 110, align: 'right', bold: true });
  y = doc.y + 4;
  const particulars: Array<[Key, string]> = [
    ['variant', car.variant],
    ['year', car.year],
    ['registration', car.registration],
    ['chassis', car.chassisNumber],
    ['engine', car.engineNumber],
  ];
  for (const [label, value] of particulars) {
    if (!value) continue;
    pdf.text(`${t(label)}: ${value}`, LEFT, y, { width: 330 });
    y = doc.y + 1;
  }
  y += 8;
  rule(y);

  // The tax.
  y += 8;
  const amountRow = (label: string, amountPaise: number, options: { bold?: boolean } = {}) => {
    pdf.text(label, LEFT + 200, y, { width: 200, bold: options.bold });
    pdf.text(figures(amountPaise), LEFT + 405, y, { width: 110, align: 'right', bold: options.bold });
    y = doc.y + 3;
  };
  amountRow(t('salePrice'), sale.pricePaise);
  amountRow(sale.scheme === 'margin' ? t('marginValue') : t('taxableValue'), sale.taxablePaise);
  for (const line of sale.taxLines) amountRow(taxLabel(t, line), line.amountPaise);
  amountRow(t('totalTax'), sale.taxPaise);
  y += 2;
  doc
    .moveTo(LEFT + 200, y)
    .lineTo(RIGHT, y)
    .lineWidth(0.7)
    .strokeColor(LINE)
    .stroke();
  y += 5;
  amountRow(credit ? t('creditedValue') : t('total'), sale.pricePaise, { bold: true });
  y += 6;
  pdf.text(t('amountInWords'), LEFT, y, { size: 8, color: '#475569' });
  pdf.text(amountInWords(sale.pricePaise, language), LEFT, doc.y, { bold: true, width: WIDTH });
  y = doc.y + 10;
  rule(y);
  y += 8;

  if (credit) {
    pdf.text(t('reason'), LEFT, y, { size: 8, color: '#475569' });
    pdf.text(sale.cancelReason ?? '', LEFT, doc.y, { width: WIDTH });
    y = doc.y + 10;
  } else {
    // How it was paid: the token, the desk, the loan.
    pdf.text(t('payments'), LEFT, y, { size: 8, color: '#475569' });
    y = doc.y + 2;
    const paid: Array<[string, number]> = [];
    if (sale.tokenPaise > 0) paid.push([t('token'), sale.tokenPaise]);
    if (sale.paidPaise > 0) paid.push([t('paidAtDesk', { method: t(`method_${sale.paidMethod}` as Key) }), sale.paidPaise]);
    if (sale.loanPaise > 0) paid.push([t('loan', { lender: sale.lender }), sale.loanPaise]);
    for (const [label, amount] of paid) {
      pdf.text(label, LEFT, y, { width: 380 });
      pdf.text(figures(amount), LEFT + 405, y, { width: 110, align: 'right' });
      y = doc.y + 2;
    }
    y += 8;
  }

  if (sale.scheme === 'margin') {
    pdf.text(t('marginScheme'), LEFT, y, { width: WIDTH, size: 8 });
    y = doc.y + 2;
  }
  pdf.text(t('reverseCharge'), LEFT, y, { width: WIDTH, size: 8 });
  y = doc.y + 40;
  pdf.text(t('signature', { dealer: sale.dealer.legalName }), LEFT + 255, y, { width: 260 });
  pdf.text(t('computerMade'), LEFT, doc.y + 16, { width: WIDTH, size: 7, color: '#64748b' });
  return finish(pdf);
}

function taxLabel(t: (key: Key, values?: Record<string, string | number>) => string, line: TaxLine): string {
  return t(line.kind, { rate: formatRate(line.rateBasisPoints) });
}

function finish(pdf: Pdf): Promise<Buffer> {
  return pdf.done();
}
