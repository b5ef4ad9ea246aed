import { z } from 'zod';
import { deskInspectionsText as t } from './desk-inspections-texts.ts';
import { CONDITION_ITEMS, CONDITION_STATUSES, conditionItemLabel } from './inspection-desk.ts';
import { cleanLine } from '../../lib/input.ts';
import { MAX_ODOMETER_KM } from '../../lib/vehicle.ts';

/** The longest notes an inspection keeps. */
const MAX_INSPECTION_NOTES = 2000;

/** One checked item's status (CONDITION_STATUSES, as the vehicle form suggests them); empty when not checked. */
const itemStatus = (item: string) =>
  z
    .string()
    .optional()
    .transform((typed) => cleanLine(typed, 100))
    .refine((status) => status === '' || (CONDITION_STATUSES as readonly string[]).includes(status), {
      error: () => t('chooseStatusFor', { item: conditionItemLabel(item) }),
    });

const itemFields = Object.fromEntries(CONDITION_ITEMS.map((item, index) => [`item-${index}`, itemStatus(item)])) as Record<
  `item-${number}`,
  ReturnType<typeof itemStatus>
>;

/**
 * The inspection desk's record form (decision 109): one status per checked item, the notes
 * (their lines kept) and the odometer, each refused beside its field; the photos come from the
 * upload beside it.
 */
export const inspectionRecordSchema = z
  .object({
    ...itemFields,
    notes: z
      .string()
      .optional()
      .transform((typed) => (typed ?? '').slice(0, 4000).replace(/\r\n/g, '\n').trim())
      .refine((notes) => notes.length <= MAX_INSPECTION_NOTES, { error: () => t('notesTooLong') })
      .refine((notes) => !notes.includes('\u0000'), { error: () => t('notesBadCharacter') }),
    odometer: z
      .string()
      .optional()
      .transform((typed) => cleanLine(typed, 20).replace(/[\s,]/g, ''))
      .refine((text) => text === '' || (/^\d{1,7}$/.test(text) && Number(text) <= MAX_ODOMETER_KM), { error: () => t('odometerProblem') })
      .transform((text) => (text === '' ? null : Number(text))),
  })
  .transform((form) => {
    const condition: Record<string, string> = {};
    const statuses = form as Record<string, unknown>;
    CONDITION_ITEMS.forEach((item, index) => {
      const status = statuses[`item-${index}`];
      if (typeof status === 'string' && status) condition[item] = status;
    });
    return { condition, notes: form.notes, odometer: form.odometer };
  });
