import en from './en/dealerWords.json' with { type: 'json' };
import hi from './hi/dealerWords.json' with { type: 'json' };
import { defineTexts } from './texts.ts';

/**
 * The words dealers type into a car's record over and over (condition report items and ratings,
 * refurbishment and finance headings, owners, the demo's categories), each English text the one
 * a Hindi page recognises, its Hindi the one it shows (app/lib/dealer-words.ts, decision 101).
 */
export const dealerWordsText = defineTexts('dealerWords', en, hi);
