import type { AppServices } from '../../services.ts';
import { saveSettings, settingsFor } from '../../admin/settings.ts';
import { recordSale } from '../../sales/sales.ts';
import { recordDelivery } from '../../sales/deliveries.ts';
import { recordRcStep } from '../../sales/rc-transfers.ts';
import type { ChecklistInput } from '../../rentals/checklists.ts';
import type { RcStep, RcStepInput } from '../../../app/features/sales/rc-transfer-rules.ts';
import type { Sale } from '../../sales/store.ts';
import { HOUR_MS } from '../../../app/features/rentals/rental-price.ts';
import { rupeesToPaise } from '../../../app/lib/money.ts';
import type { StateCode } from '../../../app/features/sales/gst.ts';

/**
 * The demo's sales (issue 44): cars sold over the last weeks, handed over and with their
 * registration transfers in every state, so the desk's sales, documents, liability list and books
 * are not empty on a fresh demo. Each is recorded by the desk's own service with the clock
 * at the moment it was sold, so invoice numbers, dates and the audit log read as after real work.
 * The dealer's particulars (a sample GSTIN whose check character is right) are filled in first,
 * only where the settings are still empty: no sale is invoiced without them.
 */

const DESK = 'desk@gaadibazaar.in';

/** A GSTIN of Maharashtra (27) in the right shape, with its check character: a sample, not a real dealer's. */
export const DEMO_DEALER = {
  dealerLegalName: 'Gaadi Bazaar Motors LLP',
  dealerAddress: 'Shop 4, Link Road, Andheri West, Mumbai 400053, Maharashtra',
  dealerGstin: '27AAPFU0939F1ZV',
};

type DemoBuyer = { name: string; address: string; phone: string; email: string; pan: string; language: 'en' | 'hi'; state: StateCode };

const BUYERS: DemoBuyer[] = [
  {
    name: 'Rohan Mehta',
    address: 'B-702, Kalpataru Heights, Chakala, Andheri East, Mumbai 400099',
    phone: '+919820011223',
    email: 'rohan.mehta@example.in',
    pan: 'ABCPM1234F',
    language: 'en',
    state: '27',
  },
  {
    name: 'Sunita Deshmukh',
    address: '14, Shivaji Nagar, Pune 411005',
    phone: '+919822334455',
    email: '',
    pan: 'BKDPD4567K',
    language: 'hi',
    state: '27',
  },
  {
    name: 'Vikram Rao',
    address: '3rd Cross, Indiranagar, Bengaluru 560038',
    phone: '+919845012345',
    email: '',
    pan: 'AJRPR7788L',
    language: 'en',
    state: '29',
  },
  {
    name: 'Karan Malhotra',
    address: 'Flat 11, Sea Breeze, Carter Road, Bandra West, Mumbai 400050',
    phone: '+919821765430',
    email: 'karan.malhotra@example.in',
    pan: 'AFKPM9012Q',
    language: 'en',
    state: '27',
  },
  {
    name: 'Arjun Nair',
    address: '22, Marine Drive, Churchgate, Mumbai 400020',
    phone: '+919833445566',
    email: '',
    pan: 'AKNPN2233M',
    language: 'en',
    state: '27',
  },
  {
    name: 'Meena Gupta',
    address: 'C-12, Vasant Vihar, Thane West 400610',
    phone: '+919930112233',
    email: '',
    pan: 'CGMPG3456H',
    language: 'hi',
    state: '27',
  },
];

/**
 * Days before now each sale was made, oldest first, and how far its registration transfer has
 * gone (decision 117): one in each state, the second overdue (more than 30 days without the new
 * RC). Every car but the newest has been handed over with its delivery note (decision 116).
 */
const SOLD: Array<{ daysAgo: number; transfer: RcStep[] }> = [
  { daysAgo: 45, transfer: ['forms-signed', 'submitted', 'fee-paid', 'rc-issued', 'delivered'] },
  { daysAgo: 38, transfer: ['forms-signed', 'submitted', 'fee-paid', 'rc-issued'] },
  { daysAgo: 28, transfer: ['forms-signed', 'submitted', 'fee-paid'] },
  { daysAgo: 14, transfer: ['forms-signed', 'submitted'] },
  { daysAgo: 6, transfer: ['forms-signed'] },
  { daysAgo: 1, transfer: [] },
];

/** Each step's details as the desk types them, and how many days after the sale it was recorded. */
function stepOf(step: RcStep, index: number): { input: RcStepInput; afterDays: number } {
  switch (step) {
    case 'forms-signed':
      return { input: { step, form35Needed: index === 1, form28Needed: false }, afterDays: 1 };
    case 'submitted':
      return { input: { step, applicationNumber: `MH24110${String(7000000 + index * 1371).padStart(8, '0')}` }, afterDays: 4 };
    case 'fee-paid':
      return { input: { step, fee: 135_000, feeReceipt: `VAHAN-${48213 + index}` }, afterDays: 5 };
    case 'rc-issued':
      return { input: { step, newRegistration: '' }, afterDays: 27 };
    case 'delivered':
      return { input: { step }, afterDays: 32 };
  }
}

/** Chassis and engine numbers in their shapes (17-character VIN without I, O or Q). */
const chassis = (index: number) => `MA3EWDE1S00${String(123450 + index).padStart(6, '0')}`;
const engine = (index: number) => `K12MN${String(4567890 + index)}`;

/**
 * `checklist` draws the handover's photos (the week's own drawing, server/db/demo/week.ts), so a
 * delivery reads like the rental handovers beside it.
 */
export async function seedDemoSales(services: AppServices, checklist: (car: string, reading: string) => Promise<ChecklistInput>): Promise<Sale[]> {
  const nowMs = services.clock.now();
  const settings = await settingsFor(services);
  if (settings.dealerGstin === '' || settings.dealerLegalName === '' || settings.dealerAddress === '') {
    await saveSettings(
      services,
      {
        ...settings,
        dealerLegalName: settings.dealerLegalName || DEMO_DEALER.dealerLegalName,
        dealerAddress: settings.dealerAddress || DEMO_DEALER.dealerAddress,
        dealerGstin: settings.dealerGstin || DEMO_DEALER.dealerGstin,
      },
      DESK,
    );
  }
  // Cars from the middle of the stock, clear of the week's test drives (the newest eight) and of
  // the first cars a visitor sees.
  const cars = await services.database.db
    .selectFrom('vehicles')
    .select(['id', 'price_rupees'])
    .where('purpose', '=', 'sale')
    .where('status', '=', 'available')
    .where('featured', '=', 0)
    .where('price_rupees', 'is not', null)
    .orderBy('id')
    .offset(12)
    .limit(BUYERS.length)
    .execute();
  const sales: Sale[] = [];
  for (const [index, car] of cars.entries()) {
    const buyer = BUYERS[index]!;
    const plan = SOLD[index]!;
    const soldMs = nowMs - plan.daysAgo * 24 * HOUR_MS;
    const pricePaise = rupeesToPaise(Number(car.price_rupees));
    // A loan on one sale, the rest paid at the desk; the dealer bought each at about 88% of its price.
    const loanPaise = index === 1 ? Math.round((pricePaise * 0.6) / 100_000) * 100_000 : 0;
    sales.push(
      await recordSale(
        { ...services, clock: { now: () => soldMs } },
        {
          vehicleId: Number(car.id),
          reservationId: undefined,
          buyerName: buyer.name,
          buyerAddress: buyer.address,
          buyerPhone: buyer.phone,
          buyerEmail: buyer.email,
          buyerPan: buyer.pan,
          supplyState: buyer.state,
          language: buyer.language,
          price: pricePaise,
          paid: pricePaise - loanPaise,
          paidMethod: index % 2 === 0 ? 'transfer' : 'upi',
          loan: loanPaise,
          lender: loanPaise > 0 ? 'HDFC Bank' : '',
          purchasePrice: Math.round((pricePaise * 0.88) / 100_000) * 100_000,
          carClass: 'large',
          chassisNumber: chassis(index),
          engineNumber: engine(index),
          actorEmail: DESK,
        },
      ),
    );
    const sale = sales.at(-1)!;
    if (plan.daysAgo > 1) {
      const odometer = 30_000 + index * 7_345;
      await recordDelivery(
        { ...services, clock: { now: () => soldMs + 26 * HOUR_MS } },
        {
          saleId: sale.id,
          odometer,
          fuel: 8,
          keys: 2,
          documents: ['rc', 'insurance', 'puc', 'service-book', 'form-29', 'form-30'],
          otherDocuments: '',
          signerName: buyer.name,
          typedSignature: buyer.name,
          signature: '',
          checklist: await checklist(sale.vehicle.model || sale.vehicle.title, `${odometer.toLocaleString('en-IN')} km · full`),
          actorEmail: DESK,
        },
      );
    }
    for (const step of plan.transfer) {
      const { input, afterDays } = stepOf(step, index);
      await recordRcStep({ ...services, clock: { now: () => soldMs + afterDays * 24 * HOUR_MS } }, { saleId: sale.id, step: input, actorEmail: DESK });
    }
  }
  return sales;
}
