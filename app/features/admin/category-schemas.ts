import { z } from 'zod';
import { categoryMessages, MAX_CATEGORY_NAME } from '../../lib/category-rules.ts';
import { adminVehiclesText as t } from './admin-vehicles-texts.ts';
import { idField } from '../../lib/schemas/fields.ts';

/** A category's name: trimmed, required, at most MAX_CATEGORY_NAME characters (messages read in the request's language). */
const categoryName = z
  .string({ error: () => categoryMessages.nameRequired })
  .trim()
  .min(1, { error: () => categoryMessages.nameRequired })
  .max(MAX_CATEGORY_NAME, { error: () => t('categoryNameTooLong', { max: MAX_CATEGORY_NAME }) });

/** The add-a-category form (its image is read from the upload beside it). */
export const categoryAddSchema = z.object({ name: categoryName });

/**
 * The categories list's forms, told apart by their `intent` (decision 109): a row's rename (with
 * its image replaced or removed from the upload beside it) and its deletion.
 */
export const categoryChangeSchema = z.discriminatedUnion(
  'intent',
  [
    z.object({
      intent: z.literal('update'),
      id: idField(() => categoryMessages.updateFailed),
      name: categoryName,
      removeImage: z
        .string()
        .optional()
        .transform((box) => box === 'on'),
    }),
    z.object({ intent: z.literal('delete'), id: idField(() => categoryMessages.deleteFailed) }),
  ],
  { error: () => t('unknownAction') },
);
