import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

/**
 * Our side of accounts (better-auth keeps its own user, session, account and verification
 * tables), plus the shared stores for rate limits, spent bot-check solutions and the outbox.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect) {
  const serialId = dialect === 'postgres' ? 'serial' : 'integer';

  // One row per signed-in user, keyed by the auth user's id (SPEC 3, User profile).
  await db.schema
    .createTable('profiles')
    .addColumn('user_id', 'text', (col) => col.primaryKey())
    .addColumn('email', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('name', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('photo_url', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('phone', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('phone_verified', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('last_login_at', 'text')
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();

  // A reference to the vehicle, not a copy: the wishlist shows the car as it is now. The title
  // is kept so a car that was removed can still be named as no longer available.
  await db.schema
    .createTable('wishlist_entries')
    .addColumn('user_id', 'text', (col) => col.notNull())
    .addColumn('vehicle_id', 'integer', (col) => col.notNull())
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('wishlist_entries_pk', ['user_id', 'vehicle_id'])
    .execute();

  // Phone verification codes, stored only as a keyed hash.
  await db.schema
    .createTable('phone_otps')
    .addColumn('id', serialId, (col) => (dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('user_id', 'text', (col) => col.notNull())
    .addColumn('phone', 'text', (col) => col.notNull())
    .addColumn('code_hash', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('phone_otps_user_idx').on('phone_otps').columns(['user_id', 'created_at']).execute();

  // Fixed-window counters shared by every app instance (rate limits must not live in memory).
  await db.schema
    .createTable('rate_limit_hits')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('window_start', 'bigint', (col) => col.notNull())
    .addColumn('count', 'integer', (col) => col.notNull())
    .execute();

  // A proof-of-work solution may be used once; kept until it would have expired anyway.
  await db.schema
    .createTable('bot_check_spent')
    .addColumn('signature', 'text', (col) => col.primaryKey())
    .addColumn('expires_at', 'bigint', (col) => col.notNull())
    .execute();

  // Demo and test mode keep every mail and SMS here for /dev/outbox.
  await db.schema
    .createTable('outbox_messages')
    .addColumn('id', serialId, (col) => (dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('channel', 'text', (col) => col.notNull())
    .addColumn('recipient', 'text', (col) => col.notNull())
    .addColumn('subject', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('body', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
}
