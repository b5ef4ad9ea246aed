import { data, redirect } from 'react-router';
import { appContext } from '../context.ts';
import type { Route } from './+types/language';
import { currentUser } from '../../server/auth/session.ts';
import { chooseLanguage } from '../../server/accounts/profiles.ts';
import { readFormOrError } from '../../server/http/forms.ts';
import { isLanguage, pathInLanguage } from '../lib/i18n/language.ts';
import { accountText } from '../lib/i18n/account.ts';
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
  if (!isLanguage(language)) throw data(accountText('chooseLanguage'), { status: 400 });
  const back = localRedirect(String(form instanceof FormData ? (form.get('back') ?? '') : '')) ?? paths.home;
  const user = await currentUser(services.auth, request);
  if (user) await chooseLanguage(services.database, user, language, services.clock.now());
  throw redirect(pathInLanguage(back, language), { headers: { 'Set-Cookie': languageCookie(language, services.config) } });
}

export function loader() {
  throw redirect(paths.home);
}
