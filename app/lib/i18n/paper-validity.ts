import en from './en/paper-validity.json';
import hi from './hi/paper-validity.json';
import { defineTexts } from './texts.ts';

/** Texts of a car paper's validity: expired, expires soon. */
export const paperValidityText = defineTexts('paperValidity', en, hi);
