import en from './en/account.json';
import hi from './hi/account.json';
import { defineTexts } from './texts.ts';

/** Texts of the profile, its devices and inspections, completing the profile and deleting the account. */
export const accountText = defineTexts('account', en, hi);
