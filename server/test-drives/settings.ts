import { z } from 'zod';
import { isPinCode, pinCodeMessages } from '../../app/lib/pin-code.ts';
import { DEFAULT_SERVICE_AREAS, LOCALITY_MAX, MAX_SERVICE_AREAS } from '../../app/lib/service-areas.ts';
import { DEFAULT_TEST_DRIVE_RULES } from '../../app/features/appointments/test-drives.ts';
import { declareSettings, say } from '../settings/declarations.ts';

/**
 * Test drives' settings (decision 025): when buyers can book one and how many run at once, 10 am
 * to 7 pm, two at once, 2 hours' notice, a week ahead by default. Slots are one hour on the hour,
 * so the opening hours are whole hours (India time). `serviceAreas` are where the team drives to,
 * a locality and its PIN code each (decision 097): home test drives, home inspections and rental
 * delivery, around the Andheri East hub (Mumbai) by default.
 */
export const testDriveSettings = declareSettings('test-drives', {
  testDriveOpeningHour: {
    schema: z.coerce.number().int(say('openingHourWhole')).min(0, say('openingHourRange')).max(23, say('openingHourRange')),
    default: DEFAULT_TEST_DRIVE_RULES.openingHour,
    label: 'testDriveOpeningHourLabel',
  },
  testDriveClosingHour: {
    schema: z.coerce.number().int(say('closingHourWhole')).min(1, say('closingHourRange')).max(24, say('closingHourRange')),
    default: DEFAULT_TEST_DRIVE_RULES.closingHour,
    label: 'testDriveClosingHourLabel',
  },
  testDriveCapacity: {
    schema: z.coerce.number().int(say('testDrivesAtOnceWhole')).min(1, say('testDrivesAtOnceRange')).max(20, say('testDrivesAtOnceRange')),
    default: DEFAULT_TEST_DRIVE_RULES.capacity,
    label: 'testDriveCapacityLabel',
  },
  testDriveLeadHours: {
    schema: z.coerce.number().int(say('noticeWhole')).min(0, say('noticeRange')).max(72, say('noticeRange')),
    default: DEFAULT_TEST_DRIVE_RULES.leadHours,
    label: 'testDriveLeadHoursLabel',
  },
  testDriveDaysAhead: {
    schema: z.coerce.number().int(say('daysAheadWhole')).min(0, say('daysAheadRange')).max(30, say('daysAheadRange')),
    default: DEFAULT_TEST_DRIVE_RULES.daysAhead,
    label: 'testDriveDaysAheadLabel',
  },
  serviceAreas: {
    schema: z
      .array(
        z.object({
          locality: z.string().trim().min(1).max(LOCALITY_MAX),
          pinCode: z.string().refine(isPinCode, { error: () => pinCodeMessages.invalid }),
        }),
      )
      .max(MAX_SERVICE_AREAS, say('areasMax', { max: MAX_SERVICE_AREAS }))
      .refine((areas) => new Set(areas.map((area) => area.pinCode)).size === areas.length, say('areasOnePerPin')),
    default: DEFAULT_SERVICE_AREAS.map((area) => ({ ...area })),
    label: 'serviceAreasLabel',
  },
});
