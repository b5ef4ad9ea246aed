import en from './en/carModels.json' with { type: 'json' };
import hi from './hi/carModels.json' with { type: 'json' };
import { defineTexts } from './texts.ts';

/** Texts of the catalogue of car models: the sell page's pickers, reading a typed car, and the admin's additions (decision 098). */
export const carModelsText = defineTexts('carModels', en, hi);
