import { z } from 'zod';
import { parseIndiaDate } from '../../lib/india-time.ts';
import { parseRupeesAsPaise } from '../../lib/money.ts';
import { purchasesText as t } from './purchases-texts.ts';

/**
 * The desk's purchase of a seller's car (decision 118), as its form sends it: text fields read
 * once, here. What depends on stored data (the offer accepted, the date of possession against
 * today and the acceptance) is the service's check, right after this one.
 */

export const PURCHASE_PAYMENT_METHODS = ['transfer', 'upi', 'cheque', 'cash'] as const;
export type PurchasePaymentMethod = (typeof PURCHASE_PAYMENT_METHODS)[number];

/** The papers a dealer takes with a used car (the RC, Forms 29/30 for the transfer, Form 35 and the NOC when a loan was closed…). */
export const PURCHASE_DOCUMENTS = ['rc', 'insurance', 'puc', 'service-book', 'form-29', 'form-30', 'noc', 'form-35', 'keys'] as const;
export type PurchaseDocument = (typeof PURCHASE_DOCUMENTS)[number];

/** The checkbox of each document is its own field (`doc-rc`), since a form's field is read once. */
export const documentField = (document: PurchaseDocument) => `doc-${document}`;

const text = (max: number) => z.preprocess((value) => (typeof value === 'string' ? value.trim().replace(/\s+/g, ' ') : (value ?? '')), z.string().max(max));
const ticked = z.preprocess((value) => value === 'on' || value === 'true' || value === true, z.boolean());

export const purchaseFormSchema = z
  .object({
    price: z.preprocess(
      (value) => (typeof value === 'string' ? parseRupeesAsPaise(value, 1_000_000_000) : typeof value === 'number' ? value : null),
      z
        .number({ error: () => t('priceInvalid') })
        .int({ error: () => t('priceInvalid') })
        .positive({ error: () => t('priceInvalid') }),
    ),
    method: z.enum(PURCHASE_PAYMENT_METHODS, { error: () => t('methodInvalid') }),
    reference: text(60).pipe(z.string().min(1, { error: () => t('referenceRequired') })),
    documentsOther: text(300),
    possessionDate: z.preprocess(
      (value) => parseIndiaDate(typeof value === 'string' ? value.trim() : value),
      z.string({ error: () => t('possessionInvalid') }),
    ),
    sellerName: text(100).pipe(z.string().min(1, { error: () => t('sellerNameRequired') })),
    sellerPhone: text(30).pipe(z.string().min(1, { error: () => t('sellerPhoneRequired') })),
    sellerAddress: text(300).pipe(z.string().min(1, { error: () => t('sellerAddressRequired') })),
    /** The draft's category, when the purchase makes the draft. */
    categoryId: z.preprocess(
      (value) => (value === '' || value === undefined || value === null ? undefined : value),
      z.coerce
        .number({ error: () => t('categoryRequired') })
        .int()
        .positive()
        .max(2_147_483_647)
        .optional(),
    ),
    ...Object.fromEntries(PURCHASE_DOCUMENTS.map((document) => [documentField(document), ticked.optional()])),
  })
  .transform(({ price, method, reference, documentsOther, possessionDate, sellerName, sellerPhone, sellerAddress, categoryId, ...boxes }) => ({
    price,
    method,
    reference,
    documentsOther,
    possessionDate,
    sellerName,
    sellerPhone,
    sellerAddress,
    categoryId,
    documents: PURCHASE_DOCUMENTS.filter((document) => (boxes as Record<string, boolean | undefined>)[documentField(document)] === true),
  }));

export type PurchaseForm = z.output<typeof purchaseFormSchema>;

/** `2026-11`: a month of the books. */
export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;
