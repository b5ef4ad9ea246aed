import { z } from 'zod';
import { deskRentalsText as t } from './desk-rentals-texts.ts';
import { idField } from '../../lib/schemas/fields.ts';
import { deskBlockSchema, deskRefusalSchema } from './desk-schemas.ts';

const bookingId = idField(() => t('bookingNotFound'));

/**
 * The rental desk page's forms, told apart by their `intent` (decision 109): a block added or
 * removed, a requested booking confirmed or refused (with the reason the customer reads).
 */
export const rentalDeskActionSchema = z.discriminatedUnion(
  'intent',
  [
    deskBlockSchema.extend({ intent: z.literal('add-block') }),
    z.object({ intent: z.literal('remove-block'), blockId: idField(() => t('blockNotFound')) }),
    z.object({ intent: z.literal('confirm'), bookingId }),
    deskRefusalSchema.extend({ intent: z.literal('refuse'), bookingId }),
  ],
  { error: () => t('formUnreadable') },
);
