import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TEST_DRIVE_RULES } from '../../app/features/appointments/test-drives.ts';
import { countOn, freeSlots } from '../../server/appointments/appointments.ts';
import { INSPECTION, TEST_DRIVE } from '../../server/appointments/kinds.ts';
import { brokenUniqueRule } from '../../server/db/unique-rules.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { openTestDatabase, type TestDatabase } from '../support/database.ts';
import { sharedServer } from '../support/shared.ts';

/**
 * Migration 037 (decision 107) on bookings made before it: a database at 035 holds test drives
 * and inspections whose slots are UTC ISO text; after the migration each reads the same instant
 * as epoch milliseconds, the old column is gone, and the seats still hold: a second booking of a
 * taken seat is refused by the same index, a cancelled one holds none.
 */

const { dialect, url } = sharedServer();

/** Slots as the services wrote them (toISOString), one with milliseconds to show nothing is rounded. */
const SLOTS = ['2026-12-01T04:30:00.000Z', '2026-12-01T05:30:00.000Z', '2027-03-15T12:45:30.123Z'];
const NOW = '2026-11-28T10:00:00.000Z';

describe.skipIf(!url)(`migration 037 keeps slots as epoch milliseconds (${dialect})`, () => {
  let opened: TestDatabase;

  beforeAll(async () => {
    opened = await openTestDatabase(dialect, { upTo: '035-car-model-additions' });
    const { db } = opened.database;
    // Raw SQL: schema.ts describes the tables after the migration.
    for (const [index, slot] of SLOTS.entries()) {
      await sql`INSERT INTO test_drives (user_id, vehicle_id, vehicle_title, mode, pin_code, name, phone, email, slot_start, seat, status, reminded_at, created_at, updated_at)
        VALUES (${`user-${index}`}, ${null}, ${'Old Creta'}, ${'hub'}, ${''}, ${'Asha'}, ${'+919800000000'}, ${'asha@example.in'}, ${slot}, ${0}, ${'booked'}, ${null}, ${NOW}, ${NOW})`.execute(
        db,
      );
      await sql`INSERT INTO inspections (user_id, car, estimate, mode, pin_code, name, phone, email, slot_start, seat, status, created_at, updated_at)
        VALUES (${`seller-${index}`}, ${'{}'}, ${'{}'}, ${'hub'}, ${''}, ${'Rohan'}, ${'+919800000001'}, ${'rohan@example.in'}, ${slot}, ${0}, ${'booked'}, ${NOW}, ${NOW})`.execute(
        db,
      );
    }
    // A cancelled booking on the same seat as the first: it holds no seat, before or after.
    await sql`INSERT INTO test_drives (user_id, vehicle_id, vehicle_title, mode, pin_code, name, phone, email, slot_start, seat, status, reminded_at, created_at, updated_at)
      VALUES (${'user-cancelled'}, ${null}, ${'Old Creta'}, ${'hub'}, ${''}, ${'Asha'}, ${'+919800000000'}, ${'asha@example.in'}, ${SLOTS[0]}, ${0}, ${'cancelled'}, ${null}, ${NOW}, ${NOW})`.execute(
      db,
    );
    await migrateToLatest(opened.database);
  }, 120_000);

  afterAll(async () => {
    await opened?.cleanup();
  });

  it('reads the same instants as epoch milliseconds, and the text column is gone', async () => {
    const { db } = opened.database;
    for (const table of ['test_drives', 'inspections'] as const) {
      const rows = await db.selectFrom(table).select(['user_id', 'slot_start_ms', 'status']).orderBy('id').execute();
      expect(
        rows.filter((row) => row.status !== 'cancelled').map((row) => row.slot_start_ms),
        table,
      ).toEqual(SLOTS.map((slot) => Date.parse(slot)));
      for (const row of rows) expect(typeof row.slot_start_ms, table).toBe('number');
      const columns = (await db.introspection.getTables()).find((entry) => entry.name === table)!.columns.map((column) => column.name);
      expect(columns, table).toContain('slot_start_ms');
      expect(columns, table).not.toContain('slot_start');
    }
  });

  it('keeps the seats: a taken seat is refused by its index, a cancelled one holds none, and the slots count the migrated bookings', async () => {
    const { db } = opened.database;
    const taken = {
      user_id: 'someone-else',
      vehicle_id: null,
      vehicle_title: 'New Swift',
      mode: 'hub' as const,
      pin_code: '',
      name: 'Kabir',
      phone: '+919800000002',
      email: 'kabir@example.in',
      slot_start_ms: Date.parse(SLOTS[0]!),
      seat: 0,
      status: 'booked' as const,
      reminded_at: null,
      created_at: NOW,
      updated_at: NOW,
    };
    const refusal = await db
      .insertInto('test_drives')
      .values(taken)
      .execute()
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(brokenUniqueRule(refusal, TEST_DRIVE.table, TEST_DRIVE.seats)).toBe('seat');
    await db
      .insertInto('test_drives')
      .values({ ...taken, seat: 1 })
      .execute();
    const inspectionRefusal = await db
      .insertInto('inspections')
      .values({
        user_id: 'seller-0',
        car: '{}',
        estimate: '{}',
        mode: 'hub',
        pin_code: '',
        name: 'Rohan',
        phone: '+919800000001',
        email: 'rohan@example.in',
        slot_start_ms: Date.parse(SLOTS[0]!),
        seat: 1,
        status: 'booked',
        created_at: NOW,
        updated_at: NOW,
      })
      .execute()
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(brokenUniqueRule(inspectionRefusal, INSPECTION.table, INSPECTION.seats)).toBe('user');

    // 1 Dec 2026 in India: 10:00 holds two test drives now (the migrated one and seat 1), 11:00 one.
    expect(await countOn(opened.database, 'test_drives', '2026-12-01')).toBe(3);
    expect(await countOn(opened.database, 'inspections', '2026-12-01')).toBe(2);
    const slots = await freeSlots(opened.database, TEST_DRIVE, DEFAULT_TEST_DRIVE_RULES, '2026-12-01', Date.parse(NOW));
    expect(slots.filter((slot) => slot.start === '2026-12-01T10:00' || slot.start === '2026-12-01T11:00')).toEqual([
      { start: '2026-12-01T10:00', remaining: 0 },
      { start: '2026-12-01T11:00', remaining: 1 },
    ]);
  });
});
