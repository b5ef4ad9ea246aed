import type { Database } from '../db/connection.ts';

/**
 * The admin dashboard's first screen: today's work. New leads count from the admin's previous
 * visit; a visit is a run of dashboard loads less than VISIT_GAP_MS apart, so reloading the
 * dashboard (or coming back to it from a list) does not reset what is new.
 */

export const VISIT_GAP_MS = 30 * 60_000;

/** Records this dashboard load and answers the instant new leads count from (null on the first visit ever). */
export async function recordDashboardVisit(database: Database, adminEmail: string, now: Date): Promise<string | null> {
  const at = now.toISOString();
  const row = await database.db
    .selectFrom('admin_dashboard_visits')
    .select(['seen_at', 'previous_seen_at'])
    .where('admin_email', '=', adminEmail)
    .executeTakeFirst();
  if (!row) {
    await database.db
      .insertInto('admin_dashboard_visits')
      .values({ admin_email: adminEmail, seen_at: at, previous_seen_at: null })
      // Two tabs opened at once: the first one's visit stands.
      .onConflict((conflict) => conflict.column('admin_email').doNothing())
      .execute();
    return null;
  }
  if (now.getTime() - Date.parse(row.seen_at) < VISIT_GAP_MS) return row.previous_seen_at;
  // A new visit: what was the current visit becomes the previous one.
  await database.db.updateTable('admin_dashboard_visits').set({ seen_at: at, previous_seen_at: row.seen_at }).where('admin_email', '=', adminEmail).execute();
  return row.seen_at;
}

export type LeadsToAnswer = {
  /** Vehicle requests and sell offers that came in since `since` (or, on a first visit, every one not yet contacted). */
  requests: number;
  sellOffers: number;
  since: string | null;
};

/** New leads: since the previous visit, or every lead still marked new on an admin's first visit. */
export async function countNewLeads(database: Database, since: string | null): Promise<LeadsToAnswer> {
  const count = async (table: 'vehicle_requests' | 'sell_submissions') => {
    let query = database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('count'));
    query = since === null ? query.where('status', '=', 'new') : query.where('created_at', '>', since);
    return Number((await query.executeTakeFirst())?.count ?? 0);
  };
  const [requests, sellOffers] = await Promise.all([count('vehicle_requests'), count('sell_submissions')]);
  return { requests, sellOffers, since };
}
