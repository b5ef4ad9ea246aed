import en from './en/compare.json';
import hi from './hi/compare.json';
import { defineTexts } from './texts.ts';

/** Comparing cars: the Compare buttons, the tray and the compare page with its rows. */
export const compareText = defineTexts('compare', en, hi);
