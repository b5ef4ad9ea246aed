import webpush from 'web-push';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/connection.ts';

/**
 * The VAPID key pair the push services know this site by (RFC 8292, decision 124). From the
 * environment when VAPID_* is set; otherwise made the first time any instance asks and kept in
 * the database's `push_keys` row (migration 048), so every instance signs with one pair, the
 * demo and the tests work with nothing set, and a restart keeps every device's subscription
 * (a browser's subscription is bound to the public key it was made with). The database, not
 * DATA_DIR: instances on several machines share the database and nothing else.
 *
 * Read once per database and kept for the process's life; a read that fails is not kept.
 */
export type VapidKeys = { publicKey: string; privateKey: string; subject: string };

type Deps = { config: Pick<Config, 'push'>; database: Database; clock: Clock };

const known = new WeakMap<Database, Promise<{ publicKey: string; privateKey: string }>>();

export async function vapidKeys(deps: Deps): Promise<VapidKeys> {
  const { subject, vapid } = deps.config.push;
  if (vapid) return { ...vapid, subject };
  let pair = known.get(deps.database);
  if (!pair) {
    pair = readOrMake(deps);
    known.set(deps.database, pair);
    pair.catch(() => {
      if (known.get(deps.database) === pair) known.delete(deps.database);
    });
  }
  return { ...(await pair), subject };
}

async function readOrMake({ database, clock }: Deps): Promise<{ publicKey: string; privateKey: string }> {
  const read = () => database.db.selectFrom('push_keys').select(['public_key', 'private_key']).where('id', '=', 1).executeTakeFirst();
  const existing = await read();
  if (existing) return { publicKey: existing.public_key, privateKey: existing.private_key };
  const made = webpush.generateVAPIDKeys();
  // Two instances asking at once both try; the row's key keeps the first, and both read it.
  await database.db
    .insertInto('push_keys')
    .values({ id: 1, public_key: made.publicKey, private_key: made.privateKey, created_at: new Date(clock.now()).toISOString() })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .execute();
  const kept = await read();
  if (!kept) throw new Error('The push key pair could not be stored.');
  return { publicKey: kept.public_key, privateKey: kept.private_key };
}
