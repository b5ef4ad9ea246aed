import en from './texts/en/compare.json' with { type: 'json' };
import hi from './texts/hi/compare.json' with { type: 'json' };
import { defineTexts } from '../../lib/i18n/texts.ts';

/** Comparing cars: the Compare buttons, the tray and the compare page with its rows. */
export const compareText = defineTexts('compare', en, hi);
