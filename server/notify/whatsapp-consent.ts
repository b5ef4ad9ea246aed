import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { Language } from '../../app/lib/i18n/language.ts';
import { whatsappText } from '../../app/features/notifications/whatsapp-texts.ts';

/**
 * A person's consent to WhatsApp messages (DPDP Act; decision 123). Nothing goes to a number on
 * WhatsApp until its person opted in, on the profile or on the form that asked for the number,
 * with the sentence they agreed to kept beside the time. A STOP reply, or the switch off, opts
 * the number out. Every choice is a new row; the latest one is the number's consent.
 */

export type ConsentSource = 'profile' | 'form' | 'reply';

export type Consent = { optedIn: boolean; source: ConsentSource; at: string } | null;

/** The sentence the person agrees to, in their language: the one shown beside the switch and kept with the opt-in. */
export function optInWording(language: Language): string {
  return whatsappText('optInWording', undefined, language);
}

/** The number's latest choice, or null when it never made one. */
export async function consentOf(db: Kysely<DB>, phone: string): Promise<Consent> {
  const row = await db
    .selectFrom('whatsapp_consents')
    .select(['choice', 'source', 'created_at'])
    .where('phone', '=', phone)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { optedIn: row.choice === 'in', source: row.source, at: row.created_at } : null;
}

export async function hasOptedIn(db: Kysely<DB>, phone: string): Promise<boolean> {
  return (await consentOf(db, phone))?.optedIn === true;
}

/**
 * Records a choice, unless it is already the number's choice (a form sent twice, a STOP
 * replayed): returns whether anything changed. `wording` is what the person agreed to or wrote.
 */
export async function recordConsent(
  db: Kysely<DB>,
  input: { phone: string; userId: string | null; optIn: boolean; source: ConsentSource; wording: string; language: Language; nowMs: number },
): Promise<boolean> {
  const current = await consentOf(db, input.phone);
  if ((current?.optedIn ?? false) === input.optIn) return false;
  await db
    .insertInto('whatsapp_consents')
    .values({
      phone: input.phone,
      user_id: input.userId,
      choice: input.optIn ? 'in' : 'out',
      source: input.source,
      wording: input.wording.slice(0, 1000),
      language: input.language,
      created_at: new Date(input.nowMs).toISOString(),
    })
    .execute();
  return true;
}
