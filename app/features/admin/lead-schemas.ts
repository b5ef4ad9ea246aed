import { z } from 'zod';
import { deskLeadsText as desk } from './desk-leads-texts.ts';
import { leadsText as t } from '../../lib/i18n/leads.ts';
import { cleanText } from '../../lib/input.ts';
import { LEAD_STATUSES, MAX_NOTES } from '../../lib/lead-forms.ts';
import { idField } from '../../lib/schemas/fields.ts';

const leadId = idField(() => desk('leadNotFound'));

/**
 * The admin lead lists' forms (Requested Vehicles, Selling Vehicles), told apart by their
 * `intent` (decision 109): a lead's status and notes saved (the default), or the lead deleted.
 */
export const leadChangeSchema = z.discriminatedUnion(
  'intent',
  [
    z.object({
      intent: z.literal('update').default('update'),
      id: leadId,
      status: z.enum(LEAD_STATUSES, { error: () => t('chooseStatus') }),
      notes: z
        .string()
        .optional()
        .transform((typed) => cleanText(typed))
        .refine((notes) => notes.length <= MAX_NOTES, { error: () => t('notesTooLong', { max: MAX_NOTES }) }),
    }),
    z.object({ intent: z.literal('delete'), id: leadId }),
  ],
  { error: () => desk('changeNotSaved') },
);
