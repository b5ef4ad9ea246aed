import { z } from 'zod';

/** `GET /api/v1/me/reservations`: which page of the buyer's reservations. */
export const reservationListQuerySchema = z.object({
  page: z.coerce.number('The page must be a number').int('The page must be a whole number').min(1, 'The page must be 1 to 1000').max(1000, 'The page must be 1 to 1000').default(1),
});

/** The desk's extend form: hours more. */
export const reservationExtendSchema = z.object({
  hours: z.coerce.number('Enter the hours').int('Enter whole hours').min(1, 'Extend by 1 to 336 hours').max(336, 'Extend by 1 to 336 hours'),
});

/** The desk's convert form: what the car sold for, whole rupees (commas allowed). */
export const reservationConvertSchema = z.object({
  salePrice: z.preprocess((value) => (typeof value === 'string' ? value.replace(/[₹,\s]/g, '') : value), z.coerce.number('Enter the sale price in rupees').int('Enter whole rupees').min(1, 'Enter the sale price in rupees').max(1_000_000_000, 'The sale price is too large')),
});
