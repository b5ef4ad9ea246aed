import en from './texts/en/adminStats.json' with { type: 'json' };
import hi from './texts/hi/adminStats.json' with { type: 'json' };
import { defineTexts } from '../../lib/i18n/texts.ts';

/** The admin Statistics screen and its chart. */
export const adminStatsText = defineTexts('adminStats', en, hi);
