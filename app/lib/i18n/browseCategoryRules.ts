import en from './en/browseCategoryRules.json' with { type: 'json' };
import hi from './hi/browseCategoryRules.json' with { type: 'json' };
import { defineTexts } from './texts.ts';

/** The category rules' messages (adding, renaming and deleting a category). */
export const browseCategoryRulesText = defineTexts('browseCategoryRules', en, hi);
