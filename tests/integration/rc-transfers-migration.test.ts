import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { openTestDatabase, type TestDatabase } from '../support/database.ts';
import { sharedServer } from '../support/shared.ts';

/**
 * Migration 043 (decision 117) on sales recorded before it: each gets its registration transfer,
 * dated from the sale: `sold` (nothing done yet) for a recorded sale, `closed` for a cancelled one.
 */

const { dialect, url } = sharedServer();
const SOLD = '2026-11-02T05:30:00.000Z';

describe.skipIf(!url)(`migration 043 opens a transfer for every sale already recorded (${dialect})`, () => {
  let opened: TestDatabase;

  beforeAll(async () => {
    opened = await openTestDatabase(dialect, { upTo: '041-sales' });
    const { db } = opened.database;
    // Raw SQL: schema.ts describes the tables after the migration.
    for (const [index, status] of (['recorded', 'cancelled'] as const).entries()) {
      await sql`INSERT INTO sales (vehicle_id, source, reservation_id, user_id, vehicle_title, make, model, variant, year, registration, chassis_number, engine_number,
          buyer_name, buyer_address, buyer_phone, buyer_email, buyer_pan, buyer_state_code, language, price_paise, token_paise, paid_paise, paid_method, loan_paise, lender,
          purchase_price_paise, invoice_number, invoice_date, scheme, taxable_paise, tax_paise, tax_lines, dealer, status, credit_note_number, credit_note_date,
          cancel_reason, cancelled_by, cancelled_at, recorded_by, created_at, updated_at)
        VALUES (${null}, ${'desk'}, ${null}, ${null}, ${'Old Swift'}, ${'Maruti'}, ${'Swift'}, ${'VXi'}, ${'2019'}, ${'MH-02'}, ${'MA3EWDE1S00123456'}, ${'K12MN1234567'},
          ${'Meera'}, ${'Pune'}, ${'+919820012345'}, ${''}, ${''}, ${'27'}, ${'en'}, ${650_000_00}, ${0}, ${650_000_00}, ${'cash'}, ${0}, ${''},
          ${null}, ${`GB/2026-27/0000${index + 1}`}, ${'2026-11-02'}, ${'margin'}, ${0}, ${0}, ${'[]'}, ${'{}'}, ${status},
          ${status === 'cancelled' ? 'CN/2026-27/00001' : null}, ${null}, ${null}, ${null}, ${null}, ${'admin@gaadibazaar.in'}, ${SOLD}, ${SOLD})`.execute(db);
    }
    await migrateToLatest(opened.database);
  }, 120_000);

  afterAll(async () => {
    await opened?.cleanup();
  });

  it('gives a recorded sale an open transfer and a cancelled one a closed transfer, both dated from the sale', async () => {
    const rows = await opened.database.db
      .selectFrom('rc_transfers')
      .innerJoin('sales', 'sales.id', 'rc_transfers.sale_id')
      .select(['sales.status', 'rc_transfers.step', 'rc_transfers.sold_ms', 'rc_transfers.overdue_told'])
      .orderBy('sales.id')
      .execute();
    expect(rows.map((row) => ({ ...row, sold_ms: Number(row.sold_ms), overdue_told: Number(row.overdue_told) }))).toEqual([
      { status: 'recorded', step: 'sold', sold_ms: Date.parse(SOLD), overdue_told: 0 },
      { status: 'cancelled', step: 'closed', sold_ms: Date.parse(SOLD), overdue_told: 0 },
    ]);
  });
});
