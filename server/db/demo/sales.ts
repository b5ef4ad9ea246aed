import type { AppServices } from '../../services.ts';
import { saveSettings, settingsFor } from '../../admin/settings.ts';
import { recordSale } from '../../sales/sales.ts';
import type { Sale } from '../../sales/store.ts';
import { HOUR_MS } from '../../../app/features/rentals/rental-price.ts';
import { rupeesToPaise } from '../../../app/lib/money.ts';
import type { StateCode } from '../../../app/features/sales/gst.ts';

/**
 * The demo's sales (issue 44): cars sold over the last weeks, so the desk's sales, documents and
 * books are not empty on a fresh demo. Each is recorded by the desk's own service with the clock
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
    name: 'Meena Gupta',
    address: 'C-12, Vasant Vihar, Thane West 400610',
    phone: '+919930112233',
    email: '',
    pan: 'CGMPG3456H',
    language: 'hi',
    state: '27',
  },
];

/** Days before now each sale was made, oldest first: the oldest transfers are overdue by now. */
const SOLD_DAYS_AGO = [45, 28, 14, 6, 1];

/** Chassis and engine numbers in their shapes (17-character VIN without I, O or Q). */
const chassis = (index: number) => `MA3EWDE1S00${String(123450 + index).padStart(6, '0')}`;
const engine = (index: number) => `K12MN${String(4567890 + index)}`;

export async function seedDemoSales(services: AppServices): Promise<Sale[]> {
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
    const soldMs = nowMs - SOLD_DAYS_AGO[index]! * 24 * HOUR_MS;
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
  }
  return sales;
}
