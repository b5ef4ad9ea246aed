import type { Context, Hono } from 'hono';
import type { z } from 'zod';
import { parseWith } from '../../../app/lib/form-errors.ts';
import { personalSummarySchema, profileAnswerSchema, whatsappUpdatesSchema } from '../../http/api-answers.ts';
import { personalSummary } from '../personal-summary.ts';
import { languageChoiceSchema, profileUpdateSchema, whatsappChoiceSchema } from '../../../app/features/accounts/profile-schemas.ts';
import { chooseWhatsAppUpdates, whatsappUpdatesOf, type WhatsAppUpdates } from '../whatsapp-updates.ts';
import { currentUser, type SessionUser } from '../../auth/session.ts';
import { readFormOrJson } from '../../http/forms.ts';
import { bodyFields } from './body-fields.ts';
import { describeRoute } from '../../http/openapi.ts';
import { problem, problemFromError } from '../../http/problem.ts';
import type { AppServices } from '../../services.ts';
import { chooseLanguage, ensureProfile, isProfileComplete, personName, saveProfileName, type Profile } from '../profiles.ts';
import { accountText as t } from '../../../app/lib/i18n/account.ts';
import { indiaIso } from '../../../app/lib/india-time.ts';

const NO_STORE = { 'Cache-Control': 'no-store' };
const SIGN_IN_FIRST = () => t('signInFirst');

/** A stored ISO time as the API writes times: India's offset. */
function indiaTime(value: string | null): string | null {
  const ms = value ? Date.parse(value) : Number.NaN;
  return Number.isNaN(ms) ? null : indiaIso(ms);
}

/** The profile as the profile page shows it: the account's name and picture stand in for missing ones. */
function profileAnswer(user: SessionUser, profile: Profile): z.input<typeof profileAnswerSchema> {
  return {
    profile: {
      email: user.email,
      emailVerified: user.emailVerified,
      name: personName(profile, user),
      photoUrl: profile.photoUrl || user.image || '',
      phone: profile.phone,
      phoneVerified: profile.phoneVerified,
      complete: isProfileComplete(user, profile),
      createdAt: indiaTime(profile.createdAt),
      lastLoginAt: indiaTime(profile.lastLoginAt),
      updatedAt: indiaTime(profile.updatedAt),
      language: profile.language,
    },
  };
}

/** The switch as the API answers it: times in India's offset. */
function whatsappAnswer(state: WhatsAppUpdates): z.input<typeof whatsappUpdatesSchema> {
  const { phone, phoneVerified, optedIn, source, changedAt, wording, language, optInWording } = state;
  return { whatsapp: { phone, phoneVerified, optedIn, source, changedAt: indiaTime(changedAt), wording, language, optInWording } };
}

/** The signed-in person's profile in the app's API (/api/v1): read it, rename it, choose its language. The phone changes by /me/phone/*. */
export function profileApi(api: Hono, services: AppServices) {
  const { database, clock } = services;

  /**
   * A change the signed-in person makes to their profile, from a form or JSON: refused without
   * a session (401) or with a bad field (400, the field named), answered with the profile as it
   * now is.
   */
  function profileChange<S extends z.ZodType>(schema: S, log: string, change: (user: SessionUser, value: z.output<S>) => Promise<void>) {
    return async (c: Context) => {
      const user = await currentUser(services.auth, c.req.raw);
      if (!user) return problem(c, 401, SIGN_IN_FIRST());
      try {
        const parsed = parseWith(schema, Object.fromEntries(await readFormOrJson(c.req.raw)));
        if (!parsed.ok) return problem(c, 400, parsed.error, { fields: parsed.fields });
        await change(user, parsed.value);
        const profile = await ensureProfile(database, user, clock.now());
        return c.json(profileAnswer(user, profile), 200, NO_STORE);
      } catch (error) {
        return problemFromError(c, error, services.logger, { fallback: t('profileSaveFailed'), log });
      }
    };
  }

  const summary = describeRoute({
    tag: 'Account',
    summary: 'Who is looking: signed in or not, my name, the ids of my wishlisted cars',
    description:
      'The one small private answer the public pages ask for after they loaded (decision 127): they are the same for everyone, and the hearts and the top bar are filled in from this. With a session cookie or the app’s token; signed out it answers 200 with `signedIn: false` (a page asks before it knows). Never cached (`private, no-store`).',
    ok: { status: 200, schema: personalSummarySchema, description: 'The person, or the signed-out answer.' },
  });
  api.get('/me/summary', summary, async (c) => {
    try {
      const user = await currentUser(services.auth, c.req.raw);
      return c.json(await personalSummary(database, user), 200, { 'Cache-Control': 'private, no-store' });
    } catch (error) {
      return problemFromError(c, error, services.logger, { fallback: t('loadFailed'), log: 'personal summary failed' });
    }
  });

  const read = describeRoute({
    tag: 'Account',
    summary: 'My profile: name, email, picture, phone and whether it is verified',
    description: 'Made from the account on first read, as the profile page does.',
    auth: true,
    ok: { status: 200, schema: profileAnswerSchema, description: 'The profile.' },
  });
  api.get('/me/profile', read, async (c) => {
    const user = await currentUser(services.auth, c.req.raw);
    if (!user) return problem(c, 401, SIGN_IN_FIRST());
    const profile = await ensureProfile(database, user, clock.now());
    return c.json(profileAnswer(user, profile), 200, NO_STORE);
  });

  const update = describeRoute({
    tag: 'Account',
    summary: 'Change my name',
    description:
      'JSON or a form. The name shown on bookings and to the dealer, by the profile form’s rule (some letters, at most 100 characters). The phone is not changed here: POST /me/phone/code, then /me/phone/verify.',
    auth: true,
    body: { kind: 'form', schema: profileUpdateSchema },
    ok: { status: 200, schema: profileAnswerSchema, description: 'The profile as it now is.' },
    refusals: { 400: '' },
  });
  api.post(
    '/me/profile',
    update,
    profileChange(profileUpdateSchema, 'profile update failed', async (user, { name }) => {
      await ensureProfile(database, user, clock.now());
      await saveProfileName(database, user.id, name, clock.now());
    }),
  );

  const language = describeRoute({
    tag: 'Account',
    summary: 'Choose my language',
    description:
      'JSON or a form, as the site’s language switch (decision 087): the mails and SMS the site sends this person later (reminders, offers, the desk’s answers) and their pages on every device they sign in on are in it. The API’s own messages follow each request’s `Accept-Language`.',
    auth: true,
    body: { kind: 'form', schema: languageChoiceSchema },
    ok: { status: 200, schema: profileAnswerSchema, description: 'The profile with its language.' },
    refusals: { 400: '' },
  });
  api.post(
    '/me/language',
    language,
    profileChange(languageChoiceSchema, 'language choice failed', (user, { language: chosen }) => chooseLanguage(database, user, chosen, clock.now())),
  );

  const whatsappRead = describeRoute({
    tag: 'Account',
    summary: 'My updates on WhatsApp: on or off for my verified number, since when, and the sentence agreed to',
    description:
      'The consent of the profile’s number (decision 126): consent belongs to a number, so after a change of phone the new number starts off. `optInWording` is the sentence to show under the switch.',
    auth: true,
    ok: { status: 200, schema: whatsappUpdatesSchema, description: 'The switch as it stands.' },
  });
  api.get('/me/whatsapp', whatsappRead, async (c) => {
    const user = await currentUser(services.auth, c.req.raw);
    if (!user) return problem(c, 401, SIGN_IN_FIRST());
    await ensureProfile(database, user, clock.now());
    return c.json(whatsappAnswer(await whatsappUpdatesOf(database, user.id)), 200, NO_STORE);
  });

  const whatsappChoose = describeRoute({
    tag: 'Account',
    summary: 'Switch updates on WhatsApp on or off',
    description:
      'JSON or a form, as the profile page’s switch. On records the person’s consent for the profile’s verified number: `optInWording` in the request’s language, with the time (DPDP Act). Off records the opt-out; updates then come by SMS. Asking for the state it already has changes nothing.',
    auth: true,
    body: { kind: 'form', schema: whatsappChoiceSchema },
    ok: { status: 200, schema: whatsappUpdatesSchema, description: 'The switch as it now stands.' },
    refusals: { 400: '', 422: 'No verified phone number yet (`reason`: phone): verify one first (POST /me/phone/code, /me/phone/verify).' },
  });
  api.put('/me/whatsapp', whatsappChoose, async (c) => {
    const user = await currentUser(services.auth, c.req.raw);
    if (!user) return problem(c, 401, SIGN_IN_FIRST());
    try {
      const parsed = parseWith(whatsappChoiceSchema, await bodyFields(c.req.raw));
      if (!parsed.ok) return problem(c, 400, parsed.error, { fields: parsed.fields });
      await ensureProfile(database, user, clock.now());
      const state = await chooseWhatsAppUpdates(services, { userId: user.id, optedIn: parsed.value.optedIn });
      return c.json(whatsappAnswer(state), 200, NO_STORE);
    } catch (error) {
      return problemFromError(c, error, services.logger, { fallback: t('profileSaveFailed'), log: 'whatsapp choice failed' });
    }
  });
}
