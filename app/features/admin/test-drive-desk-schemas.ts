import { z } from 'zod';
import { deskTestDrivesText as t } from './desk-test-drives-texts.ts';
import { cleanLine } from '../../lib/input.ts';
import { parseSlot } from '../appointments/test-drives.ts';
import { idField } from '../../lib/schemas/fields.ts';

/** The buttons of a test drive on the admin's day (the status moves; which are allowed is the service's to say). */
export const ADMIN_TEST_DRIVE_ACTIONS = ['confirm', 'done', 'no_show', 'cancel'] as const;

const testDriveId = idField(() => t('notFound'));

/**
 * The admin test-drive desk's forms, told apart by their `intent` (decision 109): a status
 * button, or the move to a new slot (a whole hour in India time; whether it is still open is
 * the service's to say).
 */
export const adminTestDriveSchema = z.discriminatedUnion(
  'intent',
  [
    z.object({
      intent: z.literal('reschedule'),
      id: testDriveId,
      slot: z
        .string({ error: () => t('chooseNewSlot') })
        .transform((typed) => parseSlot(cleanLine(typed, 20)))
        .refine((slot) => slot !== null, { error: () => t('chooseNewSlot') })
        .transform((slot) => slot as string),
    }),
    z.object({ intent: z.enum(ADMIN_TEST_DRIVE_ACTIONS), id: testDriveId }),
  ],
  { error: () => t('unknownAction') },
);
