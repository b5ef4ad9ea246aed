import type { HttpClient } from './http-client.ts';

/** What the sales tests share (decision 114): the dealer's particulars and a walk-in's sale as the desk's form sends it. */

/** A GSTIN whose check character holds (Maharashtra, state 27): a sample, not a real dealer's. */
export const GSTIN = '27AAPFU0939F1ZV';

/** The settings page's sales section, as posted: the dealer, the invoice prefix, the scheme and its rates. */
export const DEALER_SETTINGS_FORM = {
  intent: 'sales',
  dealerLegalName: 'Gaadi Bazaar Motors LLP',
  dealerAddress: 'Andheri East, Mumbai 400069',
  dealerGstin: GSTIN,
  invoicePrefix: 'GB',
  salePanThresholdRupees: '200000',
  gstScheme: 'margin',
  gstMarginRatePercent: '18',
  gstSmallCarRatePercent: '18',
  gstLargeCarRatePercent: '40',
  gstLargeCarCessPercent: '0',
};

/** Saves the dealer's particulars through the settings page, as the desk's admin does; answers the redirect's status. */
export async function saveDealerSettings(admin: HttpClient, changes: Record<string, string> = {}): Promise<number> {
  return (await admin.postForm('/admin/settings', { ...DEALER_SETTINGS_FORM, ...changes })).status;
}

/** A walk-in's sale of `vehicleId` as the desk's form (and the desk's API) sends it: ₹6,50,000 paid by transfer, bought for ₹5,90,000. */
export function walkInSaleForm(vehicleId: number, changes: Record<string, string> = {}): Record<string, string> {
  return {
    vehicleId: String(vehicleId),
    buyerName: 'Meera Kulkarni',
    buyerAddress: 'Flat 4, Shanti Niwas, Paud Road, Pune 411038',
    buyerPhone: '98200 12345',
    buyerEmail: '',
    buyerPan: 'ABCPK1234F',
    supplyState: '27',
    language: 'en',
    price: '6,50,000',
    paid: '6,50,000',
    paidMethod: 'transfer',
    loan: '',
    lender: '',
    purchasePrice: '5,90,000',
    carClass: 'large',
    chassisNumber: 'MA3EWDE1S00123456',
    engineNumber: 'K12MN1234567',
    ...changes,
  };
}
