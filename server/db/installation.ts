import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.ts';
import type { Database } from './connection.ts';

/**
 * This installation's own id: a random UUID made the first time any instance asks for it and
 * kept in the database's `installation` row (migration 032), so every instance of one site
 * reads the same id and every other site (a staging, a fresh database) has another. Row ids
 * start at 1 everywhere; what goes to a provider shared by several installations (a Razorpay
 * account's refund idempotency keys, docs/decisions/093) carries this id to stay apart.
 *
 * Read once per database and kept for the process's life: it never changes once made. A read
 * that fails (the database is down) is not kept, so the next call asks again.
 */
const known = new WeakMap<Database, Promise<string>>();

export function installationId(services: { database: Database; clock: Clock }): Promise<string> {
  const { database } = services;
  let id = known.get(database);
  if (!id) {
    id = readOrMake(services);
    known.set(database, id);
    id.catch(() => {
      if (known.get(database) === id) known.delete(database);
    });
  }
  return id;
}

async function readOrMake({ database, clock }: { database: Database; clock: Clock }): Promise<string> {
  const read = () => database.db.selectFrom('installation').select('installation_id').where('id', '=', 1).executeTakeFirst();
  const existing = await read();
  if (existing) return existing.installation_id;
  // Two instances starting together both try; the row's key keeps the first, and both read it.
  await database.db
    .insertInto('installation')
    .values({ id: 1, installation_id: randomUUID(), created_at: new Date(clock.now()).toISOString() })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .execute();
  const made = await read();
  if (!made) throw new Error('The installation id could not be stored.');
  return made.installation_id;
}
