import { z } from 'zod';
import { deskRentalsText as desk } from './desk-rentals-texts.ts';
import { licenceText as t } from './licence-texts.ts';
import { cleanText } from '../../lib/input.ts';
import { MAX_REFUSAL_REASON } from './licence.ts';

/** Whose licence: the account id the page's form carries. */
const userId = z
  .string({ error: () => desk('formUnreadable') })
  .transform((typed) => typed.slice(0, 200))
  .refine((id) => id !== '', { error: () => desk('formUnreadable') });

/**
 * The licence review's forms (decision 109): approve, or refuse with the reason the customer
 * reads (required, told beside its field when missing).
 */
export const licenceReviewSchema = z.discriminatedUnion(
  'intent',
  [
    z.object({ intent: z.literal('approve'), userId }),
    z.object({
      intent: z.literal('refuse'),
      userId,
      reason: z
        .string()
        .optional()
        .transform((typed) => cleanText(typed, { multiline: true, maxLength: MAX_REFUSAL_REASON }))
        .refine((reason) => reason !== '', { error: () => t('refusalReasonNeeded') }),
    }),
  ],
  { error: () => desk('formUnreadable') },
);
