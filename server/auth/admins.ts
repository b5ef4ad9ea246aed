import type { Config } from '../config.ts';
import type { Database } from '../db/connection.ts';

/**
 * Who is an admin (SPEC 6): an allow-listed email (ADMIN_EMAILS), verified, with an admin
 * record. All three, checked on the server for every admin page and API.
 */

export function isAllowListed(config: Pick<Config, 'adminEmails'>, email: string): boolean {
  return config.adminEmails.includes(email.trim().toLowerCase());
}

export async function hasAdminRecord(database: Database, email: string): Promise<boolean> {
  const row = await database.db.selectFrom('admins').select('email').where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
  return Boolean(row);
}

export async function anyAdminExists(database: Database): Promise<boolean> {
  const row = await database.db.selectFrom('admins').select('email').limit(1).executeTakeFirst();
  return Boolean(row);
}

export async function addAdminRecord(database: Database, email: string, createdBy: string | null, nowMs: number): Promise<void> {
  await database.db
    .insertInto('admins')
    .values({ email: email.trim().toLowerCase(), created_by: createdBy, created_at: new Date(nowMs).toISOString() })
    .onConflict((conflict) => conflict.column('email').doNothing())
    .execute();
}

export type AdminStatus = 'admin' | 'not-allow-listed' | 'email-unverified' | 'no-admin-record';

export async function adminStatus(config: Config, database: Database, user: { email: string; emailVerified: boolean }): Promise<AdminStatus> {
  if (!isAllowListed(config, user.email)) return 'not-allow-listed';
  if (!user.emailVerified) return 'email-unverified';
  if (!(await hasAdminRecord(database, user.email))) return 'no-admin-record';
  return 'admin';
}

/** The auth account for an email, to tell 'no account' from 'wrong password' on admin login. */
export async function findAccountByEmail(database: Database, email: string) {
  return database.db.selectFrom('user').select(['id', 'email', 'emailVerified']).where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
}

export async function countUsers(database: Database): Promise<number> {
  const row = await database.db
    .selectFrom('user')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}
