import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Dialect } from '../connection.ts';

/**
 * The money and the times of a rental's handover and return as they happened (docs/decisions/099):
 * when the car actually went out (`handed_over_ms`, beside the booked `starts_ms`), what the desk
 * collected at the handover and how, and what moved at the settlement (the deposit returned, or
 * charges beyond it collected) and how. Amounts in paise; a UPI or card movement carries its
 * transaction reference. The rules are the database's, so no path can store a UPI payment
 * without its reference or a return before the handover.
 */
const METHODS = sql`('cash', 'upi', 'card', 'online')`;

function referenceGiven(method: string, reference: string): RawBuilder<unknown> {
  return sql`${sql.ref(method)} IS NULL OR ${sql.ref(method)} NOT IN ('upi', 'card') OR coalesce(length(trim(${sql.ref(reference)})), 0) > 0`;
}

const RULES: Array<{ name: string; column: string; check: RawBuilder<unknown> }> = [
  {
    name: 'rental_bookings_returned_after_handover',
    column: 'handed_over_ms',
    check: sql`returned_ms IS NULL OR handed_over_ms IS NULL OR returned_ms >= handed_over_ms`,
  },
  { name: 'rental_bookings_handover_paise_check', column: 'handover_paise', check: sql`handover_paise IS NULL OR handover_paise >= 0` },
  // 'online': nothing was due at the desk, everything was paid online before.
  {
    name: 'rental_bookings_handover_method_check',
    column: 'handover_method',
    check: sql`handover_method IS NULL OR (handover_paise IS NOT NULL AND handover_method IN ${METHODS} AND (handover_method <> 'online' OR handover_paise = 0))`,
  },
  { name: 'rental_bookings_handover_reference_check', column: 'handover_reference', check: referenceGiven('handover_method', 'handover_reference') },
  {
    name: 'rental_bookings_settle_direction_check',
    column: 'settle_direction',
    check: sql`settle_direction IS NULL OR settle_direction IN ('returned', 'collected', 'none')`,
  },
  {
    name: 'rental_bookings_settle_paise_check',
    column: 'settle_paise',
    check: sql`settle_direction IS NULL AND settle_paise IS NULL OR settle_direction IS NOT NULL AND coalesce(settle_paise, -1) >= 0 AND (settle_direction = 'none') = (settle_paise = 0)`,
  },
  // Nothing moved: no method. Online: only a refund through the provider.
  {
    name: 'rental_bookings_settle_method_check',
    column: 'settle_method',
    check: sql`(settle_direction IS NULL OR settle_direction = 'none') AND settle_method IS NULL OR settle_direction IN ('returned', 'collected') AND coalesce(settle_method, '') IN ${METHODS} AND (settle_method <> 'online' OR settle_direction = 'returned')`,
  },
  { name: 'rental_bookings_settle_reference_check', column: 'settle_reference', check: referenceGiven('settle_method', 'settle_reference') },
];

const TYPES: Record<string, 'bigint' | 'text'> = {
  handed_over_ms: 'bigint',
  handover_paise: 'bigint',
  handover_method: 'text',
  handover_reference: 'text',
  settle_direction: 'text',
  settle_paise: 'bigint',
  settle_method: 'text',
  settle_reference: 'text',
};

export async function up(db: Kysely<unknown>, dialect: Dialect) {
  for (const [column, type] of Object.entries(TYPES)) {
    // SQLite cannot add a constraint to a table, only a column with its own CHECK (which may name the row's other columns).
    const rule = dialect === 'sqlite' ? RULES.find((candidate) => candidate.column === column) : undefined;
    await db.schema
      .alterTable('rental_bookings')
      .addColumn(column, type, (col) => (rule ? col.check(rule.check) : col))
      .execute();
  }
  if (dialect === 'postgres') {
    for (const rule of RULES) await db.schema.alterTable('rental_bookings').addCheckConstraint(rule.name, rule.check).execute();
  }
}
