import { z } from 'zod';
import { declareSettings, say } from '../settings/declarations.ts';
import { GST_SCHEMES, isGstin, normaliseGstin } from '../../app/features/sales/gst.ts';
import { INVOICE_PREFIX_SHAPE } from '../../app/features/sales/sale-rules.ts';

const rate = (fallback: number, label: Parameters<typeof say>[0]) => ({
  schema: z.coerce
    .number(say('gstRateRange'))
    .min(0, say('gstRateRange'))
    .max(100, say('gstRateRange'))
    .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6, say('gstRateRange')),
  default: fallback,
  label,
});

const dealerText = z.string().trim().max(300, say('dealerTextTooLong'));

/**
 * The sale's settings (decision 114): what a tax invoice says of the dealer and how a sale is
 * taxed. The rates are settings, not code: GST rates change by notification (they did on 22
 * September 2025), and the dealer's accountant, not a release, follows them. Defaults are the
 * rates in force since then: 18% on the margin of a used car (notification 8/2018 as amended),
 * 18% on a small car and 40% on any other under the normal scheme, no compensation cess.
 */
export const salesSettings = declareSettings('sales', {
  /**
   * A PAN is asked for above this price (whole rupees), ₹2,00,000 by default (income-tax rule
   * 114B's limit for a sale of goods). Rule 114B also lists the sale of a motor vehicle at any
   * price: a dealer whose accountant reads it so sets 0, and every sale asks for the PAN.
   */
  salePanThresholdRupees: {
    schema: z.coerce
      .number(say('salePanThresholdRange'))
      .int(say('salePanThresholdRange'))
      .min(0, say('salePanThresholdRange'))
      .max(10_000_000, say('salePanThresholdRange')),
    default: 200_000,
    label: 'salePanThresholdRupeesLabel',
  },
  invoicePrefix: {
    schema: z.string().trim().toUpperCase().regex(INVOICE_PREFIX_SHAPE, say('invoicePrefixShape')),
    default: 'GB',
    label: 'invoicePrefixLabel',
  },
  dealerLegalName: { schema: dealerText, default: '', label: 'dealerLegalNameLabel' },
  dealerAddress: { schema: dealerText, default: '', label: 'dealerAddressLabel' },
  /** Empty until the dealer gives it: no sale is recorded without it. */
  dealerGstin: {
    schema: z
      .string()
      .transform(normaliseGstin)
      .refine((value) => value === '' || isGstin(value), say('dealerGstinInvalid')),
    default: '',
    label: 'dealerGstinLabel',
  },
  gstScheme: { schema: z.enum(GST_SCHEMES, say('gstSchemeChoice')), default: 'margin', label: 'gstSchemeLabel' },
  gstMarginRatePercent: rate(18, 'gstMarginRatePercentLabel'),
  gstSmallCarRatePercent: rate(18, 'gstSmallCarRatePercentLabel'),
  gstLargeCarRatePercent: rate(40, 'gstLargeCarRatePercentLabel'),
  gstLargeCarCessPercent: rate(0, 'gstLargeCarCessPercentLabel'),
  /**
   * A sold car's registration transfer still open so many days after the sale is overdue
   * (decision 117): the admin panel warns and the desk is mailed once. 30 days by default, the
   * time section 50 of the Motor Vehicles Act gives the new owner to report the transfer.
   */
  rcTransferOverdueDays: {
    schema: z.coerce
      .number(say('rcTransferOverdueDaysRange'))
      .int(say('rcTransferOverdueDaysRange'))
      .min(1, say('rcTransferOverdueDaysRange'))
      .max(365, say('rcTransferOverdueDaysRange')),
    default: 30,
    label: 'rcTransferOverdueDaysLabel',
  },
});
