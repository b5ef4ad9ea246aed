import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

/**
 * The desk's side of an inspection (decision 084): what was found (condition items as a
 * vehicle's condition report keeps them, notes, the odometer, photos as the media pipeline
 * stores them: JSON text, the same on both databases), the offer made to the seller and their
 * answer, and the inventory draft made from an accepted offer.
 *
 * `offer_status` moves 'open' -> 'accepted' | 'declined' by conditional updates only, so two
 * acceptances at once give one. `draft_vehicle_id` is set once, under a unique index: one
 * inspection makes one draft whatever runs at once.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect) {
  const columns: Array<[string, 'text' | 'integer']> = [
    ['condition', 'text'],
    ['notes', 'text'],
    ['odometer', 'integer'],
    ['photos', 'text'],
    ['recorded_at', 'text'],
    ['offer_rupees', 'integer'],
    // India date 'YYYY-MM-DD': the offer holds to the end of that day, India time.
    ['offer_valid_until', 'text'],
    // null | 'open' | 'accepted' | 'declined'
    ['offer_status', 'text'],
    ['offer_made_at', 'text'],
    ['offer_answered_at', 'text'],
    ['draft_vehicle_id', 'integer'],
  ];
  for (const [name, type] of columns) await db.schema.alterTable('inspections').addColumn(name, type).execute();
  await sql`CREATE UNIQUE INDEX inspections_draft_uq ON inspections (draft_vehicle_id) WHERE draft_vehicle_id IS NOT NULL`.execute(db);
  await db.schema.createIndex('inspections_slot_idx').on('inspections').column('slot_start').execute();
}
