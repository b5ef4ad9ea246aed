import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { pathInLanguage, type Language } from '../../app/lib/i18n/language.ts';
import { queueSms, type OutgoingServices } from './outgoing.ts';
import { queuePush } from './push.ts';
import { queueWhatsApp, whatsappReachable } from './whatsapp.ts';
import { hasOptedIn } from './whatsapp-consent.ts';
import type { TemplateMessage } from './whatsapp-templates.ts';

/**
 * What a customer is told on the phone about one event (decision 123): on WhatsApp when their
 * number opted in and WhatsApp can be reached, else by SMS; the SMS is also what goes when the
 * WhatsApp message fails. Mail is queued by the caller beside it, as before. Every customer
 * event (bookings, reminders, reservations, offers, rentals, the sale's steps) comes through here,
 * so a channel added later reaches all of them.
 */
export type PhoneMessage = {
  /** The person's account, when there is one. */
  userId: string | null;
  /** E.164, or null: nothing goes to a phone. */
  phone: string | null;
  /** The person's language: the template's and the SMS's. */
  language: Language;
  sms: string;
  whatsapp: TemplateMessage;
  /** A push notification to the person's devices: its title, text and the page it opens. */
  push: { title: string; body: string; url: string } | null;
};

/**
 * The push notification of an event whose SMS is `sms`: titled with the site's name, the SMS's
 * words (without the name it starts with), opening `path` of this site in the person's language.
 */
export function pushOfSms(siteName: string, sms: string, path: string, language: Language): NonNullable<PhoneMessage['push']> {
  const prefix = `${siteName}: `;
  return { title: siteName, body: sms.startsWith(prefix) ? sms.slice(prefix.length) : sms, url: pathInLanguage(path, language) };
}

/** Queues the message in `db`, the event's transaction; says which way it went to the phone's number. */
export async function queuePhoneMessage(db: Kysely<DB>, services: OutgoingServices, message: PhoneMessage): Promise<'whatsapp' | 'sms' | 'none'> {
  // The person's devices with notifications on (decision 124), whichever way the phone's number is told, and without one.
  if (message.userId && message.push) await queuePush(db, services, message.userId, message.push);
  return message.phone ? queueToNumber(db, services, message.phone, message) : 'none';
}

async function queueToNumber(db: Kysely<DB>, services: OutgoingServices, phone: string, message: PhoneMessage): Promise<'whatsapp' | 'sms'> {
  if (whatsappReachable(services.config) && (await hasOptedIn(db, phone))) {
    await queueWhatsApp(db, services, {
      to: phone,
      userId: message.userId,
      purpose: 'customer',
      language: message.language,
      message: message.whatsapp,
      smsFallback: message.sms,
    });
    return 'whatsapp';
  }
  await queueSms(db, services, phone, message.sms);
  return 'sms';
}
