import en from './en/adminSettings.json' with { type: 'json' };
import hi from './hi/adminSettings.json' with { type: 'json' };
import { defineTexts } from './texts.ts';

/** The admin Settings screen and its validation messages. */
export const adminSettingsText = defineTexts('adminSettings', en, hi);
