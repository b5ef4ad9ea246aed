import type { Kysely, Selectable } from 'kysely';
import { UPCOMING_STATUSES } from '../../app/features/appointments/test-drives.ts';
import type { DB } from '../db/schema.ts';
import type { AppointmentKind, AppointmentTable } from './kinds.ts';

/**
 * Sends the reminder of every upcoming booking of the kind that starts within its
 * `reminderBeforeMs` and was not reminded yet. Each is claimed first (reminded_at set only where
 * still empty) in the transaction that queues its messages (`queue`), so a reminder is marked
 * sent only with its messages, and two runs or two instances never send one twice. Returns how
 * many were sent.
 */
export async function sendClaimedReminders<Table extends AppointmentTable>(
  db: Kysely<DB>,
  kind: AppointmentKind<Table>,
  nowMs: number,
  queue: (trx: Kysely<DB>, row: Selectable<DB[Table]>) => Promise<void>,
): Promise<number> {
  // Both tables share these columns; Kysely cannot see that through a table chosen at run time.
  const slots = db as unknown as Kysely<Pick<DB, 'test_drives'>>;
  const now = new Date(nowMs).toISOString();
  const due = await slots
    .selectFrom(kind.table as 'test_drives')
    .selectAll()
    .where('status', 'in', [...UPCOMING_STATUSES])
    .where('reminded_at', 'is', null)
    .where('slot_start_ms', '>', nowMs)
    .where('slot_start_ms', '<=', nowMs + kind.reminderBeforeMs)
    .orderBy('slot_start_ms')
    .limit(500)
    .execute();
  let sent = 0;
  for (const row of due) {
    const claimed = await db.transaction().execute(async (trx) => {
      const result = await (trx as unknown as Kysely<Pick<DB, 'test_drives'>>)
        .updateTable(kind.table as 'test_drives')
        .set({ reminded_at: now })
        .where('id', '=', row.id)
        .where('reminded_at', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      await queue(trx, row as unknown as Selectable<DB[Table]>);
      return true;
    });
    if (claimed) sent += 1;
  }
  return sent;
}
