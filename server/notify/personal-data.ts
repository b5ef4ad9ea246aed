import { OUTBOX_RETENTION_DAYS } from '../../app/lib/retention.ts';
import { deletedRows, type PersonalData } from '../privacy/personal-data.ts';

/** The copies of mail and SMS sent (server/notify). */
export const notifyPersonalData: PersonalData[] = [
  {
    table: 'outbox_messages',
    personal: { recipient: 'the email or phone it went to', subject: 'may name the person', body: 'may name the person, their car and their booking' },
    foundBy: 'recipient: the account email as typed and lower-cased, and the profile phone',
    export: { omitted: 'copies of messages the person received' },
    erase: {
      action: 'delete',
      rows: (trx, person) => {
        const recipients = [person.email, person.normalisedEmail, ...(person.profile?.phone ? [person.profile.phone] : [])];
        return trx.deleteFrom('outbox_messages').where('recipient', 'in', recipients).execute();
      },
    },
    retention: `${OUTBOX_RETENTION_DAYS} days`,
    purge: {
      report: 'outboxMessages',
      run: async ({ database }, now) =>
        deletedRows(
          await database.db
            .deleteFrom('outbox_messages')
            .where('created_at', '<', new Date(now.getTime() - OUTBOX_RETENTION_DAYS * 24 * 60 * 60 * 1000).toISOString())
            .executeTakeFirst(),
        ),
    },
  },
];
