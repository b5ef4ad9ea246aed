import en from './en/adminStats.json' with { type: 'json' };
import hi from './hi/adminStats.json' with { type: 'json' };
import { defineTexts } from './texts.ts';

/** The admin Statistics screen and its chart. */
export const adminStatsText = defineTexts('adminStats', en, hi);
