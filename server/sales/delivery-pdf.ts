import { deliveryText } from '../../app/features/sales/delivery-texts.ts';
import { FUEL_EIGHTHS_MAX } from '../../app/features/rentals/rentals.ts';
import { createPdf } from '../documents/pdf.ts';
import { indiaMomentText, type DeliveryRecord } from './delivery-store.ts';
import type { Sale } from './store.ts';

/**
 * The delivery note of a sold car (decision 116), in the sale's language: the dealer, the buyer,
 * the car, its reading at the handover, the keys and documents handed over, and the buyer's
 * signature (the drawn image, or the typed name set large) with the time in India time.
 */

type Key = Parameters<typeof deliveryText>[0];

const LEFT = 40;
const WIDTH = 515;
const RIGHT = LEFT + WIDTH;
const LINE = '#cbd5e1';
const GREY = '#475569';

const dayText = (day: string) => `${day.slice(8, 10)}-${day.slice(5, 7)}-${day.slice(0, 4)}`;

export async function renderDeliveryNote(sale: Sale, delivery: DeliveryRecord, number: string, signaturePng: Buffer | null): Promise<Buffer> {
  const language = sale.language;
  const t = (key: Key, values?: Record<string, string | number>) => deliveryText(key, values, language);
  const pdf = createPdf({ title: `${t('deliveryNote')} ${number}`, author: sale.dealer.legalName, language });
  const { doc } = pdf;
  const rule = (y: number) => doc.moveTo(LEFT, y).lineTo(RIGHT, y).lineWidth(0.7).strokeColor(LINE).stroke();

  pdf.text(t('deliveryNote'), LEFT, 40, { size: 18, bold: true });
  pdf.text(sale.dealer.legalName, LEFT, 72, { size: 12, bold: true, width: 300 });
  pdf.text(sale.dealer.address, LEFT, doc.y + 2, { width: 300, color: '#334155' });
  pdf.text(`GSTIN: ${sale.dealer.gstin}`, LEFT, doc.y + 2, { width: 300 });
  const dealerBottom = doc.y;
  let y = 72;
  for (const [label, value] of [
    [t('deliveryNoteNumber'), number],
    [t('handedOverAt'), indiaMomentText(delivery.signedAtMs)],
  ] as const) {
    pdf.text(label, LEFT + 330, y, { width: 185, color: GREY, size: 8 });
    pdf.text(value, LEFT + 330, doc.y, { width: 185, bold: true });
    y = doc.y + 4;
  }
  pdf.text(t('againstInvoice', { number: sale.invoiceNumber, date: dayText(sale.invoiceDate) }), LEFT + 330, y, { width: 185, size: 8 });
  y = Math.max(dealerBottom, doc.y) + 10;
  rule(y);

  y += 8;
  pdf.text(t('buyer'), LEFT, y, { size: 8, color: GREY });
  pdf.text(sale.buyer.name, LEFT, doc.y, { bold: true, size: 11, width: WIDTH });
  pdf.text(sale.buyer.address, LEFT, doc.y + 1, { width: WIDTH });
  pdf.text(sale.buyer.phone, LEFT, doc.y + 1, { width: WIDTH });
  y = doc.y + 10;
  rule(y);

  y += 8;
  pdf.text(t('car'), LEFT, y, { size: 8, color: GREY });
  const car = sale.vehicle;
  pdf.text(`${car.make} ${car.model}`.trim() || car.title, LEFT, doc.y, { bold: true, size: 11, width: WIDTH });
  for (const [label, value] of [
    ['variant', car.variant],
    ['registration', car.registration],
    ['chassis', car.chassisNumber],
    ['engine', car.engineNumber],
  ] as Array<[Key, string]>) {
    if (value) pdf.text(`${t(label)}: ${value}`, LEFT, doc.y + 1, { width: WIDTH });
  }
  y = doc.y + 10;
  rule(y);

  y += 8;
  pdf.text(t('reading'), LEFT, y, { size: 8, color: GREY });
  pdf.text(t('odometerKm', { km: delivery.odometer.toLocaleString('en-IN') }), LEFT, doc.y + 1, { width: WIDTH, bold: true });
  pdf.text(t('fuelLevel', { fuel: `${delivery.fuel}/${FUEL_EIGHTHS_MAX}` }), LEFT, doc.y + 1, { width: WIDTH, bold: true });
  pdf.text(t('keysCount', { keys: delivery.keys }), LEFT, doc.y + 1, { width: WIDTH, bold: true });
  pdf.text(t('photosTaken', { count: delivery.photoCount }), LEFT, doc.y + 1, { width: WIDTH });
  y = doc.y + 10;
  rule(y);

  y += 8;
  pdf.text(t('documentsHandedOver'), LEFT, y, { size: 8, color: GREY });
  const handed = delivery.documents.map((document) => `• ${t(`doc_${document}` as Key)}`);
  if (delivery.otherDocuments) handed.push(`• ${t('otherDocument', { text: delivery.otherDocuments })}`);
  if (handed.length === 0) handed.push(t('noDocumentsHandedOver'));
  for (const text of handed) pdf.text(text, LEFT, doc.y + 1, { width: WIDTH });
  y = doc.y + 10;
  rule(y);

  y += 10;
  pdf.text(t('acknowledgement'), LEFT, y, { width: WIDTH });
  y = doc.y + 10;
  pdf.text(t('buyerSignature'), LEFT, y, { size: 8, color: GREY });
  y = doc.y + 4;
  if (signaturePng) {
    doc.image(signaturePng, LEFT, y, { fit: [240, 90] });
    y += 94;
  } else {
    // The typed name, set large as a signature line would hold it.
    pdf.text(delivery.typedSignature ?? delivery.signerName, LEFT, y + 10, { size: 22, width: 300 });
    y = doc.y + 4;
  }
  doc
    .moveTo(LEFT, y)
    .lineTo(LEFT + 260, y)
    .lineWidth(0.7)
    .strokeColor('#0f172a')
    .stroke();
  pdf.text(t('signedOn', { name: delivery.signerName, time: indiaMomentText(delivery.signedAtMs) }), LEFT, y + 4, { width: 300 });
  if (!signaturePng) pdf.text(t('typedNote'), LEFT, doc.y + 1, { width: 300, size: 8, color: GREY });
  pdf.text(t('dealerSignature', { dealer: sale.dealer.legalName }), LEFT + 300, y + 4, { width: 215, align: 'right' });
  pdf.text(t('computerMade'), LEFT, doc.y + 30, { width: WIDTH, size: 7, color: '#64748b' });
  return pdf.done();
}
