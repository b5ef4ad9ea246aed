import en from './en/auth.json' with { type: 'json' };
import hi from './hi/auth.json' with { type: 'json' };
import { defineTexts } from './texts.ts';

/** Texts of sign-up, login, Google sign-in, the app API's sign-in and the verification and reset mails. */
export const authText = defineTexts('auth', en, hi);
