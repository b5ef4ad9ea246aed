import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Hono } from 'hono';
import { parseDeleteConfirmation, privacyMessages } from '../../../app/lib/privacy.ts';
import { currentUser, forwardCookies } from '../../auth/session.ts';
import { answerError } from '../../http/action-errors.ts';
import { readFormOrJson } from '../../http/forms.ts';
import type { AppServices } from '../../services.ts';
import { deleteAccountLimited, exportFileName, exportPersonalData, passwordVerifier } from '../privacy.ts';

/** A signed-in person's own account in the JSON API (/api/v1). */
export function accountsApi(api: Hono, services: AppServices) {
  const { database } = services;

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
