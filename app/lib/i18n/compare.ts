import en from './en/compare.json' with { type: 'json' };
import hi from './hi/compare.json' with { type: 'json' };
import { defineTexts } from './texts.ts';

/** Comparing cars: the Compare buttons, the tray and the compare page with its rows. */
export const compareText = defineTexts('compare', en, hi);
