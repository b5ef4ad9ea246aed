import { z } from 'zod';
import { IN_PERSON_METHODS, parseRupeesAsPaise } from '../../lib/money.ts';
import { CAR_CLASSES, isStateCode } from './gst.ts';
import { isChassisNumber, isEngineNumber, isPan, normaliseChassis, normaliseEngine, normalisePan } from './sale-rules.ts';
import { salesText as t } from './sales-texts.ts';

/**
 * The desk's sale, as its page's form and `POST /api/v1/admin/sales` send it (decision 114): text
 * fields read once, here, for both. What depends on stored data (the PAN above the settings'
 * limit, the token paid, the purchase price under the margin scheme, the GSTIN) is the service's
 * check, right after this one.
 */

/** How the balance was paid at the desk: in person, or by bank transfer. */
export const SALE_PAYMENT_METHODS = [...IN_PERSON_METHODS, 'transfer'] as const;
export type SalePaymentMethod = (typeof SALE_PAYMENT_METHODS)[number];

const text = (max: number) => z.preprocess((value) => (typeof value === 'string' ? value.trim().replace(/\s+/g, ' ') : (value ?? '')), z.string().max(max));

/** Rupees as typed ('6,50,000', '₹ 6,50,000.50') in paise; empty is `empty`. */
const rupees = (message: () => string, empty: number | null) =>
  z.preprocess(
    (value) => (typeof value === 'number' ? String(value) : typeof value === 'string' ? value : ''),
    z.string().transform((typed, context) => {
      if (typed.trim() === '' && empty !== null) return empty;
      const paise = parseRupeesAsPaise(typed, 1_000_000_000);
      if (paise === null) {
        context.issues.push({ code: 'custom', message: message(), input: typed });
        return z.NEVER;
      }
      return paise;
    }),
  );

const id = z.preprocess(
  (value) => (value === '' || value === undefined || value === null ? undefined : value),
  z.coerce.number().int().positive().max(2_147_483_647).optional(),
);

export const saleFormSchema = z
  .object({
    /** A walk-in's car; from a reservation, the reservation's. */
    vehicleId: id,
    reservationId: id,
    buyerName: text(100).pipe(z.string().min(1, { error: () => t('nameRequired') })),
    buyerAddress: text(300).pipe(z.string().min(1, { error: () => t('addressRequired') })),
    buyerPhone: text(30).pipe(z.string().min(1, { error: () => t('phoneRequired') })),
    buyerEmail: text(200).pipe(z.union([z.literal(''), z.email({ error: () => t('emailInvalid') })])),
    buyerPan: text(20)
      .transform(normalisePan)
      .refine((pan) => pan === '' || isPan(pan), { error: () => t('panShape') }),
    supplyState: text(2).refine(isStateCode, { error: () => t('stateInvalid') }),
    language: z.enum(['en', 'hi'], { error: () => t('languageInvalid') }),
    price: rupees(() => t('priceInvalid'), null).refine((paise) => paise > 0, { error: () => t('priceInvalid') }),
    paid: rupees(() => t('amountInvalid'), 0),
    paidMethod: z.enum(SALE_PAYMENT_METHODS, { error: () => t('methodInvalid') }).default('cash'),
    loan: rupees(() => t('amountInvalid'), 0),
    lender: text(100),
    /** What the dealer paid for the car (the margin scheme's base); empty when not needed. */
    purchasePrice: rupees(() => t('amountInvalid'), -1).transform((paise) => (paise < 0 ? null : paise)),
    carClass: z.enum(CAR_CLASSES, { error: () => t('carClassInvalid') }).default('large'),
    chassisNumber: text(30)
      .transform(normaliseChassis)
      .refine(isChassisNumber, { error: () => t('chassisShape') }),
    engineNumber: text(30)
      .transform(normaliseEngine)
      .refine(isEngineNumber, { error: () => t('engineShape') }),
  })
  .superRefine((sale, context) => {
    if (sale.loan > 0 && sale.lender === '') context.issues.push({ code: 'custom', path: ['lender'], message: t('lenderRequired'), input: sale.lender });
    if (sale.vehicleId === undefined && sale.reservationId === undefined)
      context.issues.push({ code: 'custom', path: ['vehicleId'], message: t('carRequired'), input: sale.vehicleId });
  });

export type SaleForm = z.output<typeof saleFormSchema>;

/** The desk's cancellation: why, for the credit note. */
export const saleCancelSchema = z.object({
  reason: text(300).pipe(z.string().min(1, { error: () => t('cancelReasonRequired') })),
});
