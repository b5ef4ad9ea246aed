import { describe, expect, it } from 'vitest';
import { daySlots, slotInstant, testDriveMessages, type SlotRules } from '../../app/features/appointments/test-drives.ts';
import { defaultSettings, type Settings } from '../../server/admin/settings.ts';
import { isUpcoming, slotRefusal, slotStartMs, upcomingFirst } from '../../server/appointments/appointments.ts';
import { checkPlace, homeVisitColumns } from '../../server/appointments/home-visit.ts';
import { INSPECTION, MAX_UPCOMING_INSPECTIONS, TEST_DRIVE } from '../../server/appointments/kinds.ts';
import { brokenUniqueRule } from '../../server/db/unique-rules.ts';
import { InvalidInputError } from '../../server/errors.ts';

/**
 * The appointments module's rules per kind (decision 107): which settings give each kind its
 * hours, slot length, notice, days ahead and seats, where a visit may be, how the database's
 * refusals are told apart, and what each kind says when a time is refused.
 */

const settings: Settings = {
  ...defaultSettings({ siteName: 'Gaadi Bazaar', adminEmail: 'admin@example.in' }),
  testDriveOpeningHour: 9,
  testDriveClosingHour: 18,
  testDriveCapacity: 3,
  testDriveLeadHours: 4,
  testDriveDaysAhead: 5,
  inspectionOpeningHour: 11,
  inspectionClosingHour: 16,
  inspectionCapacity: 1,
  serviceAreas: [{ locality: 'Andheri West', pinCode: '400053' }],
};
/** 1 Dec 2026, 09:30 in India. */
const now = Date.parse('2026-12-01T04:00:00Z');

describe('each kind reads its own rules from the settings', () => {
  it('test drives: their hours and capacity, one-hour slots, at the hub or at home', () => {
    expect(TEST_DRIVE.rules(settings)).toEqual({ openingHour: 9, closingHour: 18, slotMinutes: 60, capacity: 3, leadHours: 4, daysAhead: 5 });
    expect(TEST_DRIVE.modes).toEqual(['hub', 'home']);
    expect(TEST_DRIVE.maxUpcoming).toBeNull();
    expect(TEST_DRIVE.reminderBeforeMs).toBe(60 * 60_000);
  });

  it("inspections: their own hours and capacity, the test drives' notice and days ahead, at most three upcoming", () => {
    expect(INSPECTION.rules(settings)).toEqual({ openingHour: 11, closingHour: 16, slotMinutes: 60, capacity: 1, leadHours: 4, daysAhead: 5 });
    expect(INSPECTION.modes).toEqual(['hub', 'home']);
    expect(INSPECTION.maxUpcoming?.count).toBe(MAX_UPCOMING_INSPECTIONS);
    expect(INSPECTION.maxUpcoming?.refusal()).toMatch(/^You already have 3 upcoming inspections/);
    expect(INSPECTION.reminderBeforeMs).toBe(2 * 60 * 60_000);
  });

  it('a closing hour not after the opening hour offers no slot', () => {
    for (const kind of [TEST_DRIVE, INSPECTION]) {
      const closed = kind.rules({ ...settings, testDriveClosingHour: 8, inspectionClosingHour: 10 });
      expect(closed.closingHour).toBe(closed.openingHour);
      expect(daySlots('2026-12-02', now, closed)).toEqual([]);
    }
  });

  it('slots follow each other by the slot length from the opening hour', () => {
    const halfHours: SlotRules = { ...TEST_DRIVE.rules(settings), openingHour: 10, closingHour: 12, slotMinutes: 30 };
    expect(daySlots('2026-12-02', now, halfHours)).toEqual(['2026-12-02T10:00', '2026-12-02T10:30', '2026-12-02T11:00', '2026-12-02T11:30']);
    expect(daySlots('2026-12-02', now, INSPECTION.rules(settings))).toEqual(['11', '12', '13', '14', '15'].map((hour) => `2026-12-02T${hour}:00`));
  });
});

describe('a refused time is told in the words of its kind', () => {
  it('outside the hours: each kind names its own', () => {
    const testDrives = TEST_DRIVE.rules(settings);
    const inspections = INSPECTION.rules(settings);
    expect(slotRefusal(TEST_DRIVE, testDrives, '2026-12-02T08:00', now)).toBe(testDriveMessages.outsideHours(testDrives));
    expect(slotRefusal(INSPECTION, inspections, '2026-12-02T10:00', now)).toBe('Inspections run from 11:00 am to 4:00 pm.');
    expect(slotRefusal(INSPECTION, inspections, '2026-12-02T16:00', now)).toBe('Inspections run from 11:00 am to 4:00 pm.');
    expect(slotRefusal(INSPECTION, inspections, '2026-12-02T15:00', now)).toBeNull();
  });

  it('too soon and too far are the same rule for both', () => {
    for (const kind of [TEST_DRIVE, INSPECTION]) {
      const rules = kind.rules(settings);
      expect(slotRefusal(kind, rules, '2026-12-01T12:00', now)).toBe(testDriveMessages.tooSoon(4));
      expect(slotRefusal(kind, rules, '2026-12-09T12:00', now)).toBe(testDriveMessages.outsideWindow(5));
    }
  });
});

describe('the place of a visit', () => {
  it('a home visit needs its street and a served PIN code; a hub visit keeps no address', () => {
    for (const kind of [TEST_DRIVE, INSPECTION]) {
      expect(() => checkPlace(kind, { mode: 'hub', pinCode: '', street: '' }, settings.serviceAreas, 'Hub, Andheri')).not.toThrow();
      expect(() => checkPlace(kind, { mode: 'home', pinCode: '400053', street: '12 Sea View' }, settings.serviceAreas, 'Hub, Andheri')).not.toThrow();
      expect(() => checkPlace(kind, { mode: 'home', pinCode: '400053', street: '  ' }, settings.serviceAreas, 'Hub, Andheri')).toThrow(InvalidInputError);
      expect(() => checkPlace(kind, { mode: 'home', pinCode: '560001', street: '1 MG Road' }, settings.serviceAreas, 'Hub, Andheri')).toThrow(
        /We don't visit 560001 yet/,
      );
    }
    expect(homeVisitColumns({ mode: 'hub', pinCode: '400053', street: '12 Sea View', landmark: 'Near the temple' })).toEqual({
      mode: 'hub',
      pin_code: '',
      street: '',
      landmark: '',
    });
  });

  it('a mode the kind does not offer is refused in its words', () => {
    const hubOnly = { ...INSPECTION, modes: ['hub'] as const };
    expect(() => checkPlace(hubOnly, { mode: 'home', pinCode: '400053', street: '12 Sea View' }, settings.serviceAreas, 'Hub')).toThrow(
      INSPECTION.chooseMode(),
    );
  });
});

describe('upcoming bookings', () => {
  it('are booked or confirmed and not begun, the soonest first, then the rest newest first', () => {
    const start = slotStartMs('2026-12-02T10:00');
    expect(start).toBe(slotInstant('2026-12-02T10:00').getTime());
    expect(isUpcoming({ status: 'booked', slot_start_ms: start }, now)).toBe(true);
    expect(isUpcoming({ status: 'confirmed', slot_start_ms: start }, now)).toBe(true);
    expect(isUpcoming({ status: 'confirmed', slot_start_ms: start }, start)).toBe(false);
    expect(isUpcoming({ status: 'done', slot_start_ms: start }, now)).toBe(false);
    const newestFirst = [
      { id: 4, changeable: true },
      { id: 3, changeable: true },
      { id: 2, changeable: false },
      { id: 1, changeable: false },
    ];
    expect(upcomingFirst(newestFirst).map((booking) => booking.id)).toEqual([3, 4, 2, 1]);
  });
});

describe("the database's refusals, told apart on both databases", () => {
  it('test drives: the seat, the car, the person', () => {
    const refused = (error: unknown) => brokenUniqueRule(error, TEST_DRIVE.table, TEST_DRIVE.seats);
    expect(refused({ code: '23505', constraint: 'test_drives_vehicle_slot_uq' })).toBe('vehicle');
    expect(refused({ code: '23505', constraint: 'test_drives_seat_uq' })).toBe('seat');
    expect(refused({ code: '23505', constraint: 'test_drives_user_slot_uq' })).toBe('user');
    expect(refused({ code: '23505', constraint: 'profiles_pkey' })).toBeNull();
    expect(refused(new Error('UNIQUE constraint failed: test_drives.slot_start_ms, test_drives.seat'))).toBe('seat');
    expect(refused(new Error('UNIQUE constraint failed: test_drives.vehicle_id, test_drives.slot_start_ms'))).toBe('vehicle');
    expect(refused(new Error('UNIQUE constraint failed: test_drives.user_id, test_drives.slot_start_ms'))).toBe('user');
    expect(refused(new Error('UNIQUE constraint failed: settings.key'))).toBeNull();
    expect(refused(null)).toBeNull();
    expect(TEST_DRIVE.refusals.vehicle()).toBe(testDriveMessages.carTaken);
    expect(TEST_DRIVE.slotFull()).toBe(testDriveMessages.slotFull);
  });

  it('inspections: the seat, the person', () => {
    const refused = (error: unknown) => brokenUniqueRule(error, INSPECTION.table, INSPECTION.seats);
    expect(refused({ code: '23505', constraint: 'inspections_seat_uq' })).toBe('seat');
    expect(refused({ code: '23505', constraint: 'inspections_user_slot_uq' })).toBe('user');
    expect(refused({ code: '23505', constraint: 'inspections_draft_uq' })).toBeNull();
    expect(refused(new Error('UNIQUE constraint failed: inspections.slot_start_ms, inspections.seat'))).toBe('seat');
    expect(refused(new Error('UNIQUE constraint failed: inspections.user_id, inspections.slot_start_ms'))).toBe('user');
    expect(INSPECTION.refusals.user()).toBe('You already have an inspection at that time. Please choose another time.');
  });
});
