import en from './en/adminAuth.json';
import hi from './hi/adminAuth.json';
import { defineTexts } from './texts.ts';

/** Admin sign-in, first-admin setup and creating admin accounts. */
export const adminAuthText = defineTexts('adminAuth', en, hi);
