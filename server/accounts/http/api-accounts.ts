import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Context, Hono } from 'hono';
import { formError, parseWith } from '../../../app/lib/form-errors.ts';
import { phoneMessages } from '../../../app/lib/phone.ts';
import { parseDeleteConfirmation, privacyMessages } from '../../../app/lib/privacy.ts';
import { phoneCodeRequestSchema, phoneVerifySchema } from '../../../app/lib/schemas/profile.ts';
import { currentUser, forwardCookies } from '../../auth/session.ts';
import { answerError } from '../../http/action-errors.ts';
import { readFormOrJson } from '../../http/forms.ts';
import type { AppServices } from '../../services.ts';
import { ensureProfile, getProfile } from '../profiles.ts';
import { sendProfileCode, verifyProfilePhone } from '../profile-phone.ts';
import { deleteAccountLimited, exportFileName, exportPersonalData, passwordVerifier } from '../privacy.ts';

const NO_STORE = { 'Cache-Control': 'no-store' };

/** A signed-in person's own account in the JSON API (/api/v1). `addressOf` keys rate limits as the pages do. */
export function accountsApi(api: Hono, services: AppServices, addressOf: (c: Context) => string) {
  const { database } = services;

  /** A refusal as JSON with its status, reason and fields; anything unexpected is logged and answered with `fallback`. */
  const refusal = (c: Context, error: unknown, fallback: string, log: string) => {
    const answer = answerError(error, services.logger, { fallback, log });
    answer.headers.forEach((value, name) => c.header(name, value));
    const fields = Object.keys(answer.fields).length > 0 ? { fields: answer.fields } : {};
    return c.json({ error: answer.message, ...fields, ...(answer.reason ? { reason: answer.reason } : {}) }, answer.status as ContentfulStatusCode, NO_STORE);
  };

  // Completing the profile (SPEC 5), as /profile-complete does: a code texted to the phone,
  // then the code with the name. JSON or a form; the bot check's token as `botCheck`.
  api.post('/me/phone/code', async (c) => {
    const user = await currentUser(services.auth, c.req.raw);
    if (!user) return c.json({ error: phoneMessages.signInFirst }, 401, NO_STORE);
    try {
      const form = await readFormOrJson(c.req.raw);
      const parsed = parseWith(phoneCodeRequestSchema, Object.fromEntries(form));
      if (!parsed.ok) return c.json(formError(parsed.error, parsed.fields), 400, NO_STORE);
      await sendProfileCode({ ...services, clientAddress: addressOf(c) }, { userId: user.id, phone: parsed.value.phone, botCheck: String(form.get('botCheck') ?? '') });
      return c.json({ sent: true, phone: parsed.value.phone }, 200, NO_STORE);
    } catch (error) {
      return refusal(c, error, phoneMessages.sendFailed, 'OTP could not be sent');
    }
  });

  api.post('/me/phone/verify', async (c) => {
    const user = await currentUser(services.auth, c.req.raw);
    if (!user) return c.json({ error: phoneMessages.signInFirst }, 401, NO_STORE);
    try {
      const parsed = parseWith(phoneVerifySchema, Object.fromEntries(await readFormOrJson(c.req.raw)));
      if (!parsed.ok) return c.json(formError(parsed.error, parsed.fields), 400, NO_STORE);
      // The page's loader makes the profile row; an app may never have opened that page.
      await ensureProfile(database, user, services.clock.now());
      await verifyProfilePhone({ ...services, clientAddress: addressOf(c) }, { userId: user.id, ...parsed.value });
      const { name, phone, phoneVerified } = (await getProfile(database, user.id))!;
      return c.json({ profile: { name, phone, phoneVerified } }, 200, NO_STORE);
    } catch (error) {
      return refusal(c, error, 'Verification failed: please try again', 'phone verification failed');
    }
  });

  // DPDP rights for the app's signed-in person (cookie session), the same services as /profile.
  api.get('/me/data', async (c) => {
    const user = await currentUser(services.auth, c.req.raw);
    if (!user) return c.json({ error: 'Please sign in first.' }, 401, { 'Cache-Control': 'no-store' });
    const now = new Date(services.clock.now());
    const body = await exportPersonalData({ database, siteOrigin: services.config.siteOrigin, userId: user.id }, now);
    return c.json(body, 200, { 'Cache-Control': 'no-store', 'Content-Disposition': `attachment; filename="${exportFileName(now)}"` });
  });

  api.post('/me/delete', async (c) => {
    const user = await currentUser(services.auth, c.req.raw);
    if (!user) return c.json({ error: 'Please sign in first.' }, 401);
    let result;
    try {
      // JSON or a form, read like every other body.
      const form = await readFormOrJson(c.req.raw);
      result = await deleteAccountLimited({ ...services, verifyPassword: passwordVerifier(services.auth) }, { userId: user.id, ...parseDeleteConfirmation(form) });
    } catch (error) {
      const answer = answerError(error, services.logger, { fallback: privacyMessages.deleteFailed, log: 'account deletion failed' });
      return c.json({ error: answer.message, ...(answer.reason ? { reason: answer.reason } : {}) }, answer.status as ContentfulStatusCode, Object.fromEntries(answer.headers));
    }
    const signedOut = await services.auth.api.signOut({ headers: c.req.raw.headers, asResponse: true });
    // The sessions are gone already; this also clears the app's cookie.
    const headers = forwardCookies(signedOut.headers, new Headers({ 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }));
    return new Response(JSON.stringify({ deleted: true, leadsErased: result.leadsErased }), { status: 200, headers });
  });
}
