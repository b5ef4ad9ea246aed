import en from './en/browseStates.json';
import hi from './hi/browseStates.json';
import { defineTexts } from './texts.ts';

/** The names of the states in Indian registration numbers (MH, KA, …), by their code. */
export const browseStatesText = defineTexts('browseStates', en, hi);
