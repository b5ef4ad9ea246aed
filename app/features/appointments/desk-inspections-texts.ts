import en from './texts/en/deskInspections.json' with { type: 'json' };
import hi from './texts/hi/deskInspections.json' with { type: 'json' };
import { defineTexts } from '../../lib/i18n/texts.ts';

/** Sellers' inspections at the desk: the day's list, one inspection's record and offer, the offer's mails and messages. */
export const deskInspectionsText = defineTexts('deskInspections', en, hi);
