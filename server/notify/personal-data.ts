import { OUTBOX_RETENTION_DAYS, WHATSAPP_MESSAGE_RETENTION_DAYS } from '../../app/lib/retention.ts';
import { deletedRows, type PersonalData } from '../privacy/personal-data.ts';

/** The copies of mail and SMS sent, and WhatsApp's consents and messages (server/notify). */
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
  {
    table: 'whatsapp_consents',
    personal: { phone: 'the number the choice is about', user_id: 'who made it', wording: 'the sentence agreed to, or the words of their STOP reply' },
    foundBy: 'user_id, and the profile phone',
    export: {
      section: 'whatsappConsents',
      gather: async ({ database, userId, profile }) =>
        database.db
          .selectFrom('whatsapp_consents')
          .select(['phone', 'choice', 'source', 'wording', 'language', 'created_at'])
          .where((eb) => eb.or([eb('user_id', '=', userId), ...(profile?.phone ? [eb('phone', '=', profile.phone)] : [])]))
          .orderBy('id')
          .execute(),
    },
    erase: {
      action: 'delete',
      rows: (trx, person) =>
        trx
          .deleteFrom('whatsapp_consents')
          .where((eb) => eb.or([eb('user_id', '=', person.userId), ...(person.profile?.phone ? [eb('phone', '=', person.profile.phone)] : [])]))
          .execute(),
    },
  },
  {
    table: 'whatsapp_messages',
    personal: {
      recipient: 'the number it went to',
      user_id: 'whose account',
      variables: 'may name the person, their car and their booking',
      preview: 'the message as they read it',
      sms_fallback: 'the SMS sent instead',
    },
    foundBy: 'user_id, and the profile phone',
    export: { omitted: 'copies of messages the person received' },
    erase: {
      action: 'delete',
      rows: (trx, person) =>
        trx
          .deleteFrom('whatsapp_messages')
          .where((eb) => eb.or([eb('user_id', '=', person.userId), ...(person.profile?.phone ? [eb('recipient', '=', person.profile.phone)] : [])]))
          .execute(),
    },
    retention: `${WHATSAPP_MESSAGE_RETENTION_DAYS} days`,
    purge: {
      report: 'whatsappMessages',
      run: async ({ database }, now) =>
        deletedRows(
          await database.db
            .deleteFrom('whatsapp_messages')
            .where('created_at', '<', new Date(now.getTime() - WHATSAPP_MESSAGE_RETENTION_DAYS * 24 * 60 * 60 * 1000).toISOString())
            .executeTakeFirst(),
        ),
    },
  },
];
