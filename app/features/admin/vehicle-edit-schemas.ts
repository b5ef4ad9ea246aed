import { z } from 'zod';
import { adminVehiclesText as t } from './admin-vehicles-texts.ts';
import { vehicleMessages } from '../../lib/vehicle-schema.ts';
import { idField } from '../../lib/schemas/fields.ts';

/**
 * The vehicle edit page's forms, told apart by their `intent` (decision 109): the vehicle's own
 * form (its fields read by the vehicle form's readers, parseVehicleValues and the rental terms),
 * photos added (from the upload), and a photo removed or moved, by its id and direction. The
 * photo buttons carry no typed field: a wrong one is the page's toast.
 */
export const vehicleEditSchema = z.discriminatedUnion(
  'intent',
  [
    z.object({ intent: z.literal('save') }),
    z.object({ intent: z.literal('add-images') }),
    z.object({ intent: z.literal('remove-image'), imageId: idField(() => vehicleMessages.removeImageFailed) }),
    z.object({
      intent: z.literal('move-image'),
      imageId: idField(() => t('moveFailed')),
      direction: z.enum(['left', 'right'], { error: () => t('moveFailed') }),
    }),
  ],
  { error: () => t('unknownAction') },
);
