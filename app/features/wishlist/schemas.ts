import { z } from 'zod';
import { MAX_DATABASE_ID, parseId } from '../../lib/input.ts';
import { formsText as t } from '../../lib/i18n/forms.ts';
import { vehicleText } from '../../lib/i18n/vehicle.ts';

/**
 * The wishlist through the app's API (`/api/v1/me/wishlist`): the car to add (its pages are
 * read by schemas/paging.ts). The site's heart button sends its car in the page's URL instead.
 */

/** The answer for a car that is not there, in the language of the request being answered. */
export const wishlistNotFound = () => t('wishlistNotFound');

/** A car's id as a JSON number or as the digits of a form field; anything else is no car at all. */
const vehicleId = z
  .union([z.int(), z.string()], { error: () => t('wishlistVehicleId') })
  .transform((value, context) => {
    const id = typeof value === 'number' ? (value >= 1 && value <= MAX_DATABASE_ID ? value : null) : parseId(value);
    if (id === null) {
      context.addIssue({ code: 'custom', message: t('wishlistVehicleId') });
      return z.NEVER;
    }
    return id;
  })
  .meta({ description: 'The car’s id (as in /vehicles).' });

export const wishlistAddSchema = z.object({ vehicleId }).meta({ description: 'The car to add.' });

/** The heart on a car's page (its car is in the page's URL): on or off the wishlist, nothing else. */
export const wishlistToggleSchema = z.object({
  wishlisted: z.enum(['true', 'false'], { error: () => vehicleText('wishlistFailed') }).transform((wanted) => wanted === 'true'),
});
