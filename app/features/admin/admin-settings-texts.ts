import en from './texts/en/adminSettings.json' with { type: 'json' };
import hi from './texts/hi/adminSettings.json' with { type: 'json' };
import { defineTexts } from '../../lib/i18n/texts.ts';

/** The admin Settings screen and its validation messages. */
export const adminSettingsText = defineTexts('adminSettings', en, hi);
