import en from './en/browseStates.json' with { type: 'json' };
import hi from './hi/browseStates.json' with { type: 'json' };
import { defineTexts } from './texts.ts';

/** The names of the states in Indian registration numbers (MH, KA, …), by their code. */
export const browseStatesText = defineTexts('browseStates', en, hi);
