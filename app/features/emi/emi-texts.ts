import en from './texts/en/emi.json' with { type: 'json' };
import hi from './texts/hi/emi.json' with { type: 'json' };
import { defineTexts } from '../../lib/i18n/texts.ts';

/** Texts of car-loan instalments: the EMI calculator, its messages and the finance terms note. */
export const emiText = defineTexts('emi', en, hi);
