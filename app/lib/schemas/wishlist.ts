import { z } from 'zod';
import { MAX_DATABASE_ID, parseId } from '../input.ts';

/**
 * The wishlist through the app's API (`/api/v1/me/wishlist`): the car to add, and the page of
 * the list to read. The site's heart button sends its car in the page's URL instead.
 */

export const WISHLIST_NOT_FOUND = 'This vehicle was not found.';
export const WISHLIST_DEFAULT_PER_PAGE = 20;
export const WISHLIST_MAX_PER_PAGE = 50;

/** A car's id as a JSON number or as the digits of a form field; anything else is no car at all. */
const vehicleId = z
  .union([z.int(), z.string()], { error: 'vehicleId must be the id of a car (a whole number of 1 or more)' })
  .transform((value, context) => {
    const id = typeof value === 'number' ? (value >= 1 && value <= MAX_DATABASE_ID ? value : null) : parseId(value);
    if (id === null) {
      context.addIssue({ code: 'custom', message: 'vehicleId must be the id of a car (a whole number of 1 or more)' });
      return z.NEVER;
    }
    return id;
  })
  .meta({ description: 'The car’s id (as in /vehicles).' });

export const wishlistAddSchema = z.object({ vehicleId }).meta({ description: 'The car to add.' });

/** A count from the query string: digits only. */
const count = (name: string) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `${name} must be a whole number of 1 or more`)
    .transform(Number)
    .refine((value) => value >= 1, `${name} must be a whole number of 1 or more`);

export const wishlistQuerySchema = z.object({
  page: count('page').optional().meta({ description: 'From 1 (default 1).' }),
  perPage: count('perPage')
    .transform((value) => Math.min(value, WISHLIST_MAX_PER_PAGE))
    .optional()
    .meta({ description: `Cars per page: default ${WISHLIST_DEFAULT_PER_PAGE}, at most ${WISHLIST_MAX_PER_PAGE} (more is read as ${WISHLIST_MAX_PER_PAGE}).` }),
});
