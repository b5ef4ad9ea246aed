import { OUTBOX_RETENTION_DAYS, WHATSAPP_MESSAGE_RETENTION_DAYS } from '../../app/lib/retention.ts';
import { deletedRows, type PersonalData } from '../privacy/personal-data.ts';
import { pushRecipient } from './push.ts';

/** The copies of mail, SMS and notifications sent, WhatsApp's consents and messages, and the devices notifications go to (server/notify). */
export const notifyPersonalData: PersonalData[] = [
  {
    table: 'outbox_messages',
    personal: { recipient: 'the email or phone it went to', subject: 'may name the person', body: 'may name the person, their car and their booking' },
    foundBy: 'recipient: the account email as typed and lower-cased, the profile phone, and user:<account id> for notifications on the phone',
    export: { omitted: 'copies of messages the person received' },
    erase: {
      action: 'delete',
      rows: (trx, person) => {
        const recipients = [person.email, person.normalisedEmail, pushRecipient(person.userId), ...(person.profile?.phone ? [person.profile.phone] : [])];
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
  {
    table: 'push_subscriptions',
    personal: {
      user_id: 'whose device it is',
      endpoint: "the device's address at its push service",
      p256dh: "the device's key notifications are encrypted to",
      auth: "the device's secret notifications are encrypted with",
      user_agent: 'the browser and system, as a short label ("Chrome on Android")',
    },
    foundBy: 'user_id',
    export: {
      section: 'devicesWithNotificationsOn',
      // What the person recognises each device by; the keys and the push service's address are of no use to them.
      gather: async ({ database, userId }) =>
        (
          await database.db
            .selectFrom('push_subscriptions')
            .select(['user_agent', 'language', 'created_at', 'last_sent_at'])
            .where('user_id', '=', userId)
            .orderBy('id')
            .execute()
        ).map((row) => ({ device: row.user_agent, language: row.language, switchedOnAt: row.created_at, lastNotifiedAt: row.last_sent_at })),
    },
    erase: { action: 'delete', rows: (trx, person) => trx.deleteFrom('push_subscriptions').where('user_id', '=', person.userId).execute() },
  },
];
