import en from './en/paperValidity.json' with { type: 'json' };
import hi from './hi/paperValidity.json' with { type: 'json' };
import { defineTexts } from './texts.ts';

/** Texts of a car paper's validity: expired, expires soon. */
export const paperValidityText = defineTexts('paperValidity', en, hi);
