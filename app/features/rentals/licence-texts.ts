import en from './texts/en/licence.json' with { type: 'json' };
import hi from './texts/hi/licence.json' with { type: 'json' };
import { defineTexts } from '../../lib/i18n/texts.ts';

/** Texts of the driving licence: the renter's licence page and its review. */
export const licenceText = defineTexts('licence', en, hi);
