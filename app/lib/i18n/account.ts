import en from './en/account.json' with { type: 'json' };
import hi from './hi/account.json' with { type: 'json' };
import { defineTexts } from './texts.ts';

/** Texts of the profile, its devices and inspections, completing the profile and deleting the account. */
export const accountText = defineTexts('account', en, hi);
