import { z } from 'zod';
import { pinCodeMessages, pinCodeProblem, typedPinCode } from '../../lib/pin-code.ts';
import { parseSlot, TEST_DRIVE_MODES, testDriveMessages } from './test-drives.ts';
import { idField } from '../../lib/schemas/fields.ts';
import { homeAddressFields, homeNeedsStreet } from './home-address-schemas.ts';
import { parseIndiaDate } from '../../lib/india-time.ts';

/**
 * The test-drive request as the booking page's form and `POST /api/v1/test-drives` send it: the
 * slot in India time, the mode and (for home) the street address, an optional landmark and the
 * PIN code. Whether the PIN code is served and the slot still open depend on the settings and
 * are the service's to say.
 */
const testDriveRequestFields = {
  mode: z.enum(TEST_DRIVE_MODES, { error: () => testDriveMessages.chooseMode }),
  slot: z.string({ error: () => testDriveMessages.slotInvalid }).refine((value) => parseSlot(value) !== null, { error: () => testDriveMessages.slotInvalid }),
  pinCode: z
    .string({ error: pinCodeMessages.invalid })
    .nullish()
    .transform((value) => typedPinCode(value)),
  ...homeAddressFields,
};

type Place = { mode: (typeof TEST_DRIVE_MODES)[number]; pinCode: string; street: string; landmark: string };

/** A home test drive needs its street and PIN code (checked even when another field is wrong, so every field is named at once). */
function homePlace(request: Place, ctx: z.RefinementCtx): void {
  homeNeedsStreet(request, ctx);
  const problem = request.mode === 'home' ? pinCodeProblem(request.pinCode) : null;
  if (problem) ctx.addIssue({ code: 'custom', path: ['pinCode'], message: problem });
}

/** The hub's test drive keeps no address. */
const onlyHomeKeepsAddress = <Request extends Place>(request: Request): Request =>
  request.mode === 'home' ? request : { ...request, pinCode: '', street: '', landmark: '' };

export const testDriveRequestSchema = z.object(testDriveRequestFields).superRefine(homePlace).transform(onlyHomeKeepsAddress);

export type TestDriveRequest = z.output<typeof testDriveRequestSchema>;

/** Moving one's own test drive (`POST /api/v1/me/test-drives/:id/reschedule`): only the time changes. */
export const testDriveRescheduleSchema = z.object({ slot: testDriveRequestFields.slot });

/** `GET /api/v1/test-drives/slots`: a car and a day (India time). */
export const testDriveSlotsQuerySchema = z.object({
  vehicleId: idField('vehicleId must be a vehicle id (a whole number of 1 or more)'),
  date: z
    .string({ error: 'date must be a calendar date written YYYY-MM-DD (India time)' })
    .refine((text) => parseIndiaDate(text) !== null, 'date must be a calendar date written YYYY-MM-DD (India time)'),
});

/** The app's body: the request and the car (the page has the car in its URL). */
export const testDriveBodySchema = z
  .object({ vehicleId: idField('vehicleId must be a vehicle id (a whole number of 1 or more)'), ...testDriveRequestFields })
  .superRefine(homePlace)
  .transform(onlyHomeKeepsAddress);
