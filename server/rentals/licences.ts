import type { Database } from '../db/connection.ts';
import type { LicenceStatus } from '../db/schema.ts';

/**
 * Renters' driving licences. Booking rules read them here (server/rentals/bookings.ts): a
 * booking may be requested while the licence awaits review, and is confirmed only once it is
 * approved. Upload and review live beside this in the same file.
 */

export type LicenceSummary = {
  status: LicenceStatus;
  /** YYYY-MM-DD */
  dateOfBirth: string;
  refusalReason: string | null;
};

/**
 * The person's licence status and date of birth, or null when none is on file.
 * Input: the user id. Errors: none.
 */
export async function licenceStatusFor(database: Database, userId: string): Promise<LicenceSummary | null> {
  const row = await database.db
    .selectFrom('driving_licences')
    .select(['status', 'date_of_birth', 'refusal_reason'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ? { status: row.status, dateOfBirth: row.date_of_birth, refusalReason: row.refusal_reason } : null;
}
