import en from './en/adminShell.json' with { type: 'json' };
import hi from './hi/adminShell.json' with { type: 'json' };
import { defineTexts } from './texts.ts';

/** The admin panel's frame, dashboard, shared controls and audit log. */
export const adminShellText = defineTexts('adminShell', en, hi);
