import en from './en/adminAuth.json' with { type: 'json' };
import hi from './hi/adminAuth.json' with { type: 'json' };
import { defineTexts } from './texts.ts';

/** Admin sign-in, first-admin setup and creating admin accounts. */
export const adminAuthText = defineTexts('adminAuth', en, hi);
