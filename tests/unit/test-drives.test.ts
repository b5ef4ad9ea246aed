import { describe, expect, it } from 'vitest';
import { localRedirect } from '../../app/lib/paths.ts';
import { offersTestDrive } from '../../app/lib/vehicle.ts';
import {
  bookableDays,
  DEFAULT_TEST_DRIVE_RULES,
  daySlots,
  hourLabel,
  parseSlot,
  slotInstant,
  slotLabel,
  slotProblem,
  testDriveMessages,
} from '../../app/features/appointments/test-drives.ts';
import { parseWith } from '../../app/lib/form-errors.ts';
import { pinCodeMessages } from '../../app/lib/pin-code.ts';
import { homeAddressMessages } from '../../app/features/appointments/home-address.ts';
import { testDriveRequestSchema } from '../../app/features/appointments/test-drive-schemas.ts';
import { indiaDateTimeParam, parseIndiaDate } from '../../app/lib/india-time.ts';

/** The test-drive rules that need no server: India time, the booking window, PIN codes, parsing. */

const rules = DEFAULT_TEST_DRIVE_RULES;
/** 1 Dec 2026, 09:30 in India (04:00 UTC). */
const now = Date.parse('2026-12-01T04:00:00Z');

describe('slots in India time', () => {
  it('turns an India-time slot into its UTC instant and back', () => {
    expect(slotInstant('2026-12-01T10:00').toISOString()).toBe('2026-12-01T04:30:00.000Z');
    expect(indiaDateTimeParam('2026-12-01T04:30:00.000Z')).toBe('2026-12-01T10:00');
    // India midnight is 18:30 UTC the day before.
    expect(slotInstant('2026-12-01T00:00').toISOString()).toBe('2026-11-30T18:30:00.000Z');
  });

  it('accepts only whole hours of real days', () => {
    expect(parseSlot('2026-12-01T10:00')).toBe('2026-12-01T10:00');
    for (const bad of [
      '2026-12-01T10:30',
      '2026-02-30T10:00',
      '2026-12-01 10:00',
      '2026-12-01T24:00',
      '2026-12-01T10:00:00',
      '',
      null,
      12,
      '2026-12-01T10:00\u0000',
    ]) {
      expect(parseSlot(bad), String(bad)).toBeNull();
    }
    expect(parseIndiaDate('2026-12-01')).toBe('2026-12-01');
    expect(parseIndiaDate('2026-13-01')).toBeNull();
  });

  it('offers today and six more days, 10 am to 7 pm, nothing sooner than two hours ahead', () => {
    expect(bookableDays(now, rules)).toEqual(['2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04', '2026-12-05', '2026-12-06', '2026-12-07']);
    // At 9:30 am the first slot is 11:30 or later: 12:00.
    expect(daySlots('2026-12-01', now, rules)[0]).toBe('2026-12-01T12:00');
    expect(daySlots('2026-12-02', now, rules)).toEqual(['10', '11', '12', '13', '14', '15', '16', '17', '18'].map((hour) => `2026-12-02T${hour}:00`));
    expect(daySlots('2026-12-08', now, rules)).toEqual([]);
    expect(daySlots('2026-11-30', now, rules)).toEqual([]);
    // Late in the evening nothing is left today.
    expect(daySlots('2026-12-01', Date.parse('2026-12-01T12:00:00Z'), rules)).toEqual([]);
  });

  it('says why a slot cannot be booked', () => {
    expect(slotProblem('2026-12-02T10:00', now, rules)).toBeNull();
    expect(slotProblem('2026-12-01T11:00', now, rules)).toBe(testDriveMessages.tooSoon(2));
    expect(slotProblem('2026-12-02T09:00', now, rules)).toBe(testDriveMessages.outsideHours(rules));
    expect(slotProblem('2026-12-02T19:00', now, rules)).toBe(testDriveMessages.outsideHours(rules));
    expect(slotProblem('2026-12-08T10:00', now, rules)).toBe(testDriveMessages.outsideWindow(6));
  });

  it('words times as buyers read them', () => {
    expect(hourLabel(0)).toBe('12:00 am');
    expect(hourLabel(12)).toBe('12:00 pm');
    expect(hourLabel(18)).toBe('6:00 pm');
    expect(slotLabel('2026-12-01T10:00')).toBe('Tue, 1 Dec, 10:00 am');
  });
});

describe('the booking request', () => {
  it('names every wrong field', () => {
    const parse = (request: unknown) => parseWith(testDriveRequestSchema, request);
    const hub = { slot: '2026-12-02T10:00', mode: 'hub', pinCode: '', street: '', landmark: '' };
    expect(parse({ slot: '2026-12-02T10:00', mode: 'hub', pinCode: undefined })).toEqual({ ok: true, value: hub });
    // The hub keeps no address, whatever was typed.
    expect(parse({ slot: '2026-12-02T10:00', mode: 'hub', pinCode: '40', street: '12 Sea View' })).toEqual({ ok: true, value: hub });
    expect(parse({ slot: '2026-12-02T10:00', mode: 'home', pinCode: ' 400 069 ', street: ' 12  Sea View,\nJuhu ', landmark: 'Juhu Circle' })).toEqual({
      ok: true,
      value: { slot: '2026-12-02T10:00', mode: 'home', pinCode: '400069', street: '12 Sea View, Juhu', landmark: 'Juhu Circle' },
    });
    const bad = parse({ slot: 'soon', mode: 'home', pinCode: 400069, street: '12\u0000 Sea View', landmark: 'x'.repeat(101) });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.fields).toMatchObject({ street: homeAddressMessages.streetControl, landmark: homeAddressMessages.landmarkTooLong });
    if (!bad.ok) expect(Object.keys(bad.fields).sort()).toEqual(['landmark', 'pinCode', 'slot', 'street']);
    const noPin = parse({ slot: '2026-12-02T25:00', mode: 'home', pinCode: '', street: '   ' });
    expect(noPin.ok || noPin.fields).toEqual({
      slot: testDriveMessages.slotInvalid,
      pinCode: pinCodeMessages.required,
      street: homeAddressMessages.streetRequired,
    });
    const noMode = parse({ slot: '2026-12-02T10:00', mode: 'car', pinCode: '' });
    expect(noMode.ok || noMode.error).toBe(testDriveMessages.chooseMode);
    expect(noMode.ok || noMode.fields).toEqual({ mode: testDriveMessages.chooseMode });
  });

  it('offers test drives on available cars only', () => {
    expect(offersTestDrive({ status: 'available' })).toBe(true);
    expect(offersTestDrive({ status: 'reserved' })).toBe(false);
    expect(offersTestDrive({ status: 'sold' })).toBe(false);
  });
});

describe('coming back after sign-in', () => {
  it('follows only paths of this site', () => {
    expect(localRedirect('/vehicle/3/test-drive?date=2026-12-01')).toBe('/vehicle/3/test-drive?date=2026-12-01');
    for (const bad of ['//evil.example', 'https://evil.example', '/\\evil.example', '/ok\u0000', '', null, undefined, 'vehicle/3']) {
      expect(localRedirect(bad), String(bad)).toBeNull();
    }
  });
});
