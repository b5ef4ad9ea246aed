import { sql, type Kysely } from 'kysely';

/**
 * At most one live (unused) phone code per person, held by the database (decision 083). The
 * Resend wait (SPEC 4: 120 seconds) was a read before the send, so requests at once, each with
 * its own bot-check solution, all saw no code waiting and all texted one. Now a send first
 * retires the code that may be replaced and then inserts its own: a code another request has
 * just inserted is not retired, and this index refuses the second live one.
 *
 * Codes left live side by side by that race are retired first, all but the newest of each person.
 */
export async function up(db: Kysely<unknown>) {
  await sql`UPDATE phone_otps SET used_at = created_at
    WHERE used_at IS NULL AND id < (SELECT MAX(newest.id) FROM phone_otps newest WHERE newest.user_id = phone_otps.user_id AND newest.used_at IS NULL)`.execute(
    db,
  );
  await sql`CREATE UNIQUE INDEX phone_otps_live_uq ON phone_otps (user_id) WHERE used_at IS NULL`.execute(db);
}
