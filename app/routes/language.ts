import { data, redirect } from 'react-router';
import { appContext } from '../context.ts';
import type { Route } from './+types/language';
import { currentUser } from '../../server/auth/session.ts';
import { ensureProfile, saveLanguageChoice } from '../../server/accounts/profiles.ts';
import { readFormOrError } from '../../server/http/forms.ts';
import { isLanguage, pathInLanguage } from '../lib/i18n/language.ts';
import { localRedirect, paths } from '../lib/paths.ts';
import { languageCookie } from '../../server/http/language-choice.ts';

/**
 * The language switch (decision 087): remembers the choice in a cookie (this browser) and in
 * the profile (every device the person signs in on), then opens the same page in it.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const form = await readFormOrError(request, { maxBytes: 8 * 1024 });
  const language = form instanceof FormData ? form.get('language') : null;
  if (!isLanguage(language)) throw data('Choose English or Hindi.', { status: 400 });
  const back = localRedirect(String(form instanceof FormData ? (form.get('back') ?? '') : '')) ?? paths.home;
  const user = await currentUser(services.auth, request);
  if (user) {
    // A new account has no profile row until its first page that needs one.
    await ensureProfile(services.database, { ...user, emailVerified: Boolean(user.emailVerified) }, services.clock.now());
    await saveLanguageChoice(services.database, user.id, language);
  }
  throw redirect(pathInLanguage(back, language), { headers: { 'Set-Cookie': languageCookie(language, services.config) } });
}

export function loader() {
  throw redirect(paths.home);
}
