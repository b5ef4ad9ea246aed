import en from './en/licence.json' with { type: 'json' };
import hi from './hi/licence.json' with { type: 'json' };
import { defineTexts } from './texts.ts';

/** Texts of the driving licence: the renter's licence page and its review. */
export const licenceText = defineTexts('licence', en, hi);
