import en from './en/emi.json' with { type: 'json' };
import hi from './hi/emi.json' with { type: 'json' };
import { defineTexts } from './texts.ts';

/** Texts of car-loan instalments: the EMI calculator, its messages and the finance terms note. */
export const emiText = defineTexts('emi', en, hi);
