import type { Database } from '../db/connection.ts';
import type { Clock } from '../clock.ts';
import { CannotBookYetError } from '../errors.ts';
import { currentLanguage } from '../../app/lib/i18n/current.ts';
import type { Language } from '../../app/lib/i18n/language.ts';
import { whatsappText } from '../../app/features/notifications/whatsapp-texts.ts';
import { optInWording, recordConsent, type ConsentSource } from '../notify/whatsapp-consent.ts';
import { getProfile, hasVerifiedPhone } from './profiles.ts';

/**
 * The person's "Updates on WhatsApp" switch (decision 126), on the profile page and in the API
 * (`/api/v1/me/whatsapp`). Consent belongs to a number: the profile shows and changes the
 * consent of its verified phone, so a new number starts without one and the old number keeps
 * its history. Each change is a new row with the sentence shown, its language and the time.
 */

export type WhatsAppUpdates = {
  /** The profile's number (E.164), '' when none is on file. */
  phone: string;
  phoneVerified: boolean;
  optedIn: boolean;
  /** Where the number's latest choice was made, and when (ISO); null when it never made one. */
  source: ConsentSource | null;
  changedAt: string | null;
  /** The sentence recorded with that choice (a STOP reply's text for 'reply'), in its language. */
  wording: string | null;
  language: Language | null;
  /** The sentence a person agrees to by switching on, in the language of this request. */
  optInWording: string;
};

async function latestChoice(database: Database, phone: string) {
  return database.db
    .selectFrom('whatsapp_consents')
    .select(['choice', 'source', 'wording', 'language', 'created_at'])
    .where('phone', '=', phone)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The switch as it stands for `userId`'s profile number. */
export async function whatsappUpdatesOf(database: Database, userId: string): Promise<WhatsAppUpdates> {
  const profile = await getProfile(database, userId);
  const verified = hasVerifiedPhone(profile);
  const phone = profile?.phone ?? '';
  const latest = verified ? await latestChoice(database, phone) : undefined;
  return {
    phone,
    phoneVerified: verified,
    optedIn: latest?.choice === 'in',
    source: latest?.source ?? null,
    changedAt: latest?.created_at ?? null,
    wording: latest?.wording ?? null,
    language: latest ? (latest.language === 'hi' ? 'hi' : 'en') : null,
    optInWording: optInWording(currentLanguage()),
  };
}

/**
 * Switches updates on WhatsApp on or off for the profile's verified number, recording the opt-in
 * sentence as shown in this request's language (source 'profile'). Refused (422, reason 'phone')
 * without a verified number: there is nothing to consent for yet.
 */
export async function chooseWhatsAppUpdates(
  services: { database: Database; clock: Clock },
  input: { userId: string; optedIn: boolean },
): Promise<WhatsAppUpdates> {
  const profile = await getProfile(services.database, input.userId);
  if (!profile || !hasVerifiedPhone(profile)) throw new CannotBookYetError('phone', whatsappText('needsVerifiedPhone'));
  const language = currentLanguage();
  await recordConsent(services.database.db, {
    phone: profile.phone,
    userId: input.userId,
    optIn: input.optedIn,
    source: 'profile',
    wording: optInWording(language),
    language,
    nowMs: services.clock.now(),
  });
  return whatsappUpdatesOf(services.database, input.userId);
}

/**
 * The box ticked on the verification form: recorded once the number is verified (never before:
 * an unverified number may be someone else's), source 'form'. An unticked box records nothing.
 */
export async function optInFromForm(services: { database: Database; clock: Clock }, input: { userId: string; phone: string }): Promise<void> {
  const language = currentLanguage();
  await recordConsent(services.database.db, {
    phone: input.phone,
    userId: input.userId,
    optIn: true,
    source: 'form',
    wording: optInWording(language),
    language,
    nowMs: services.clock.now(),
  });
}
