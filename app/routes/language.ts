import { data, redirect } from 'react-router';
import { appContext } from '../context.ts';
import type { Route } from './+types/language';
import { currentUser } from '../../server/auth/session.ts';
import { chooseLanguage } from '../../server/accounts/profiles.ts';
import { readFormOrError } from '../../server/http/forms.ts';
import { pathInLanguage } from '../lib/i18n/language.ts';
import { parseForm } from '../lib/form-errors.ts';
import { languageSwitchSchema } from '../features/accounts/profile-schemas.ts';
import { accountText } from '../lib/i18n/account.ts';
import { paths } from '../lib/paths.ts';
import { languageCookie } from '../../server/http/language-choice.ts';

/**
 * The language switch (decision 087): remembers the choice in a cookie (this browser) and in
 * the profile (every device the person signs in on), then opens the same page in it.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const form = await readFormOrError(request, { maxBytes: 8 * 1024 });
  const parsed = form instanceof FormData ? parseForm(languageSwitchSchema, form) : null;
  if (!parsed?.ok) throw data(parsed?.error ?? accountText('chooseLanguage'), { status: 400 });
  const { language, back } = parsed.value;
  const user = await currentUser(services.auth, request);
  if (user) await chooseLanguage(services.database, user, language, services.clock.now());
  throw redirect(pathInLanguage(back, language), { headers: { 'Set-Cookie': languageCookie(language, services.config) } });
}

export function loader() {
  throw redirect(paths.home);
}
