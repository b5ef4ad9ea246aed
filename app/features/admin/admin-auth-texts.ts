import en from './texts/en/adminAuth.json' with { type: 'json' };
import hi from './texts/hi/adminAuth.json' with { type: 'json' };
import { defineTexts } from '../../lib/i18n/texts.ts';

/** Admin sign-in, first-admin setup and creating admin accounts. */
export const adminAuthText = defineTexts('adminAuth', en, hi);
