import en from './texts/en/auth.json' with { type: 'json' };
import hi from './texts/hi/auth.json' with { type: 'json' };
import { defineTexts } from '../../lib/i18n/texts.ts';

/** Texts of sign-up, login, Google sign-in, the app API's sign-in and the verification and reset mails. */
export const authText = defineTexts('auth', en, hi);
