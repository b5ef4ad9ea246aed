import { z } from 'zod';
import { pinCodeMessages, pinCodeProblem, typedPinCode } from '../../lib/pin-code.ts';
import { parseSlot, TEST_DRIVE_MODES } from './test-drives.ts';
import { sellCarSchema } from '../sell/estimate-schemas.ts';
import { homeAddressFields, homeNeedsStreet } from './home-address-schemas.ts';
import { formsText as t } from '../../lib/i18n/forms.ts';
import { liveTexts } from '../../lib/i18n/texts.ts';
import { parseIndiaDate } from '../../lib/india-time.ts';

/**
 * Booking an inspection of a seller's car (decision 081), as `POST /api/v1/inspections` sends
 * it: the car (the estimate's schema), at the hub or at home (with the street address, an
 * optional landmark and the PIN code), and a slot in India time. Whether the PIN code is served and the slot open is the service's to say.
 */

/** Read when a value is refused, in the language of that moment. */
export const inspectionMessages = liveTexts(t, {
  chooseMode: 'inspectionChooseMode',
  slotInvalid: 'inspectionSlotInvalid',
  dateInvalid: 'inspectionDateInvalid',
});

const slot = z
  .string({ error: () => inspectionMessages.slotInvalid })
  .refine((value) => parseSlot(value) !== null, { error: () => inspectionMessages.slotInvalid });

export const inspectionBodySchema = z
  .object({
    car: sellCarSchema,
    mode: z.enum(TEST_DRIVE_MODES, { error: () => inspectionMessages.chooseMode }),
    slot,
    pinCode: z
      .string({ error: () => pinCodeMessages.invalid })
      .nullish()
      .transform((value) => typedPinCode(value)),
    ...homeAddressFields,
  })
  .superRefine((request, ctx) => {
    homeNeedsStreet(request, ctx);
    const problem = request.mode === 'home' ? pinCodeProblem(request.pinCode) : null;
    if (problem) ctx.addIssue({ code: 'custom', path: ['pinCode'], message: problem });
  })
  // The hub's inspection keeps no address.
  .transform((request) => (request.mode === 'home' ? request : { ...request, pinCode: '', street: '', landmark: '' }));

export type InspectionRequest = z.output<typeof inspectionBodySchema>;

export const inspectionRescheduleSchema = z.object({ slot });

export const inspectionSlotsQuerySchema = z.object({
  date: z
    .string({ error: () => inspectionMessages.dateInvalid })
    .refine((text) => parseIndiaDate(text) !== null, { error: () => inspectionMessages.dateInvalid }),
});
