import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.ts';

/**
 * Notifications on the phone through Web Push (docs/decisions/124).
 *
 * - `push_subscriptions`: one row per device (browser or installed app) that switched
 *   notifications on, bound to the person signed in when it did. `endpoint` is the push
 *   service's address for that device, unique: a device that subscribes again, or for another
 *   person, replaces its row. `p256dh` and `auth` are the device's keys the payload is encrypted
 *   to (RFC 8291). `language` is the page's when it subscribed; `user_agent` a short label
 *   ("Chrome on Android") shown in the person's data. `failures` counts sends that failed in a
 *   row; a 404/410 from the push service deletes the row.
 * - `push_keys`: one row (id 1), the installation's VAPID key pair when VAPID_* is not set:
 *   made by the first instance that needs it and read by every other, so a subscription made
 *   through one instance is sent to by all, and survives restarts (server/notify/push-keys.ts).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect) {
  const serialId = dialect === 'postgres' ? 'serial' : 'integer';
  await db.schema
    .createTable('push_subscriptions')
    .addColumn('id', serialId, (col) => (dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('user_id', 'text', (col) => col.notNull())
    .addColumn('endpoint', 'text', (col) => col.notNull())
    .addColumn('p256dh', 'text', (col) => col.notNull())
    .addColumn('auth', 'text', (col) => col.notNull())
    .addColumn('language', 'text', (col) => col.notNull())
    .addColumn('user_agent', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('last_sent_at', 'text')
    .addColumn('failures', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('push_subscriptions_endpoint_uq').on('push_subscriptions').column('endpoint').unique().execute();
  await db.schema.createIndex('push_subscriptions_user_idx').on('push_subscriptions').column('user_id').execute();

  await db.schema
    .createTable('push_keys')
    .addColumn('id', 'integer', (col) => col.primaryKey())
    .addColumn('public_key', 'text', (col) => col.notNull())
    .addColumn('private_key', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
}
