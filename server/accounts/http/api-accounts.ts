import type { Context, Hono } from 'hono';
import type { z } from 'zod';
import { parseWith } from '../../../app/lib/form-errors.ts';
import { phoneMessages } from '../../../app/lib/phone.ts';
import { privacyMessages } from '../../../app/features/accounts/privacy.ts';
import { deleteConfirmationSchema, parseDeleteConfirmation } from '../../../app/features/accounts/deletion-schema.ts';
import { currentUser, forwardCookies } from '../../auth/session.ts';
import { problem, problemFromError } from '../../http/problem.ts';
import { describeRoute } from '../../http/openapi.ts';
import { accountDeletedSchema, personalDataSchema, phoneCodeSentSchema, phoneVerifiedSchema } from '../../http/api-answers.ts';
import { readFormOrJson } from '../../http/forms.ts';
import { bodyFields } from './body-fields.ts';
import type { AppServices } from '../../services.ts';
import { ensureProfile, getProfile } from '../profiles.ts';
import { phoneCodeBody, phoneVerify as phoneVerifyInput, sendProfileCode, verifyProfilePhone } from '../profile-phone.ts';
import { deleteAccountLimited, exportFileName, exportPersonalData, passwordVerifier } from '../privacy.ts';
import { accountText as t } from '../../../app/lib/i18n/account.ts';

const NO_STORE = { 'Cache-Control': 'no-store' };

/** A signed-in person's own account in the JSON API (/api/v1). `addressOf` keys rate limits as the pages do. */
export function accountsApi(api: Hono, services: AppServices, addressOf: (c: Context) => string) {
  const { database } = services;

  /** A refusal as problem+json with its status, reason and fields; anything unexpected is logged and answered with `fallback`. */
  const refusal = (c: Context, error: unknown, fallback: string, log: string) => problemFromError(c, error, services.logger, { fallback, log });

  // Completing the profile (SPEC 5), as /profile-complete does: a code texted to the phone,
  // then the code with the name. JSON or a form; the bot check's token as `botCheck`.
  const phoneCode = describeRoute({
    tag: 'Account',
    summary: 'Send a code to the phone to verify (completing the profile), by SMS or on WhatsApp',
    description:
      'JSON or a form. `botCheck` carries the bot check solution (GET /api/bot-check/challenge?action=…); rate limited per person, number and address, whichever `channel` the codes go by (Resend waits 120 seconds after either). `channel: whatsapp` sends the `phone_code` authentication template (copy-code button) in the request’s language; it is no opt-in to WhatsApp updates. 400 `reason` whatsapp-unavailable where the site cannot send on WhatsApp.',
    auth: true,
    body: { kind: 'form', schema: phoneCodeBody },
    ok: { status: 200, schema: phoneCodeSentSchema, description: 'The code was sent.' },
    refusals: {
      400: '',
      403: 'The bot check was not solved (`reason`: bot-check).',
      429: '',
      502: 'The SMS provider or WhatsApp did not take the code (`reason`: sms-failed, not-on-whatsapp, whatsapp-failed); no code is left waiting. After a WhatsApp refusal, ask again by SMS.',
    },
  });
  api.post('/me/phone/code', phoneCode, async (c) => {
    const user = await currentUser(services.auth, c.req.raw);
    if (!user) return problem(c, 401, phoneMessages.signInFirst);
    try {
      const form = await readFormOrJson(c.req.raw);
      const parsed = parseWith(phoneCodeBody, Object.fromEntries(form));
      if (!parsed.ok) return problem(c, 400, parsed.error, { fields: parsed.fields });
      const { phone, botCheck, channel } = parsed.value;
      await sendProfileCode({ ...services, clientAddress: addressOf(c) }, { userId: user.id, phone, botCheck, channel });
      return c.json({ sent: true, phone, channel } satisfies z.input<typeof phoneCodeSentSchema>, 200, NO_STORE);
    } catch (error) {
      return refusal(c, error, phoneMessages.sendFailed, 'OTP could not be sent');
    }
  });

  const phoneVerify = describeRoute({
    tag: 'Account',
    summary: 'Verify the code sent; sets the name and the verified phone',
    description:
      'JSON or a form. `whatsappOptIn: true` (the box, never pre-ticked) records the person’s consent to updates on WhatsApp for this number once it is verified, source `form`.',
    auth: true,
    body: { kind: 'form', schema: phoneVerifyInput },
    ok: { status: 200, schema: phoneVerifiedSchema, description: 'The profile as it now is.' },
    refusals: { 400: 'The input was refused, or the code is wrong or expired.', 429: '' },
  });
  api.post('/me/phone/verify', phoneVerify, async (c) => {
    const user = await currentUser(services.auth, c.req.raw);
    if (!user) return problem(c, 401, phoneMessages.signInFirst);
    try {
      const parsed = parseWith(phoneVerifyInput, await bodyFields(c.req.raw));
      if (!parsed.ok) return problem(c, 400, parsed.error, { fields: parsed.fields });
      // The page's loader makes the profile row; an app may never have opened that page.
      await ensureProfile(database, user, services.clock.now());
      await verifyProfilePhone({ ...services, clientAddress: addressOf(c) }, { userId: user.id, ...parsed.value });
      const { name, phone, phoneVerified } = (await getProfile(database, user.id))!;
      return c.json({ profile: { name, phone, phoneVerified } } satisfies z.input<typeof phoneVerifiedSchema>, 200, NO_STORE);
    } catch (error) {
      return refusal(c, error, t('verificationRetry'), 'phone verification failed');
    }
  });

  // DPDP rights for the app's signed-in person (cookie session), the same services as /profile.
  const myData = describeRoute({
    tag: 'Account',
    summary: 'Download everything held about me (DPDP)',
    auth: true,
    ok: {
      status: 200,
      schema: personalDataSchema,
      description: 'The export, as an attachment.',
      headers: { 'Content-Disposition': 'attachment; filename="…"' },
    },
  });
  api.get('/me/data', myData, async (c) => {
    const user = await currentUser(services.auth, c.req.raw);
    if (!user) return problem(c, 401, t('signInFirst'));
    const now = new Date(services.clock.now());
    const body = await exportPersonalData({ database, siteOrigin: services.config.siteOrigin, userId: user.id }, now);
    return c.json(body, 200, { 'Cache-Control': 'no-store', 'Content-Disposition': `attachment; filename="${exportFileName(now)}"` });
  });

  const deleteAccount = describeRoute({
    tag: 'Account',
    summary: 'Delete my account (signs out everywhere)',
    description: 'JSON or a form. 400 `reason`: password-required, wrong-password, word-required.',
    auth: true,
    body: { kind: 'form', schema: deleteConfirmationSchema },
    ok: { status: 200, schema: accountDeletedSchema, description: 'Deleted; the session cookie is cleared.' },
    refusals: {
      400: 'Not confirmed, or the password is wrong.',
      409: 'An open rental booking must end first (`reason` rental-open), or the last admin (last-admin).',
      429: '',
    },
  });
  api.post('/me/delete', deleteAccount, async (c) => {
    const user = await currentUser(services.auth, c.req.raw);
    if (!user) return problem(c, 401, t('signInFirst'));
    let result;
    try {
      // JSON or a form, read like every other body.
      const form = await readFormOrJson(c.req.raw);
      result = await deleteAccountLimited(
        { ...services, verifyPassword: passwordVerifier(services.auth) },
        { userId: user.id, ...parseDeleteConfirmation(form) },
      );
    } catch (error) {
      return problemFromError(c, error, services.logger, { fallback: privacyMessages.deleteFailed, log: 'account deletion failed' });
    }
    const signedOut = await services.auth.api.signOut({ headers: c.req.raw.headers, asResponse: true });
    // The sessions are gone already; this also clears the app's cookie.
    const headers = forwardCookies(signedOut.headers, new Headers({ 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }));
    return new Response(JSON.stringify({ deleted: true, leadsErased: result.leadsErased } satisfies z.input<typeof accountDeletedSchema>), {
      status: 200,
      headers,
    });
  });
}
