import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { queueWhatsApp, whatsappReachable, type WhatsAppServices } from './whatsapp.ts';
import { whatsappTemplate } from './whatsapp-templates.ts';
import { canonicalPhone } from '../phone.ts';
import { whatsappChatLink } from '../../app/lib/contact.ts';
import { whatsappText } from '../../app/features/notifications/whatsapp-texts.ts';

/**
 * The desk told on WhatsApp (decision 123): each of the team's numbers (the admin setting) gets
 * the `team_alert` template about a new lead, booking, reservation or cancellation, with a
 * wa.me link that opens a chat with the customer and the desk's page. The team set the numbers
 * themselves, so no opt-in is asked; the desk reads English, as its mail.
 */
export type TeamAlert = {
  /** What happened, in a few words (teamEvent): "test drive #12". */
  event: string;
  customerName: string;
  /** E.164, or '' when the customer left none. */
  customerPhone: string;
  detail: string;
  /** The desk's page about it: an absolute address. */
  deskUrl: string;
};

/** The chat with `phone` on WhatsApp (the site's one wa.me link), with +91 for a number typed without it. */
export function chatLink(phone: string): string {
  const canonical = canonicalPhone(phone);
  const number = canonical.ok ? canonical.phone : phone;
  return /\d/.test(number) ? whatsappChatLink(number) : '-';
}

/** The event's words for the desk: "test drive #12". */
export function teamEvent(key: TeamEventKey, id: number): string {
  return whatsappText(key, { id }, 'en');
}

export type TeamEventKey =
  | 'teamNewRequest'
  | 'teamNewSell'
  | 'teamNewTestDrive'
  | 'teamNewRental'
  | 'teamRentalCancelled'
  | 'teamReserved'
  | 'teamReservationCancelled'
  | 'teamReservationExpired';

export async function queueTeamAlert(db: Kysely<DB>, services: WhatsAppServices, numbers: readonly string[], alert: TeamAlert): Promise<number> {
  if (numbers.length === 0 || !whatsappReachable(services.config)) return 0;
  const customer = [alert.customerName.trim(), alert.customerPhone].filter(Boolean).join(', ') || '-';
  const message = whatsappTemplate('team_alert', {
    event: alert.event,
    customer,
    detail: alert.detail,
    chat: chatLink(alert.customerPhone),
    desk: alert.deskUrl,
  });
  for (const to of numbers) await queueWhatsApp(db, services, { to, userId: null, purpose: 'team', language: 'en', message, smsFallback: null });
  return numbers.length;
}
