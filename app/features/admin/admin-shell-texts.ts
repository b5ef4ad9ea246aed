import en from './texts/en/adminShell.json' with { type: 'json' };
import hi from './texts/hi/adminShell.json' with { type: 'json' };
import { defineTexts } from '../../lib/i18n/texts.ts';

/** The admin panel's frame, dashboard, shared controls and audit log. */
export const adminShellText = defineTexts('adminShell', en, hi);
