import en from './texts/en/dataDeletion.json' with { type: 'json' };
import hi from './texts/hi/dataDeletion.json' with { type: 'json' };
import { defineTexts } from '../../lib/i18n/texts.ts';

/** Texts of deleting one's account: what the page and the service that checks the confirmation say. */
export const dataDeletionText = defineTexts('dataDeletion', en, hi);
