import en from './texts/en/deskLeads.json' with { type: 'json' };
import hi from './texts/hi/deskLeads.json' with { type: 'json' };
import { defineTexts } from '../../lib/i18n/texts.ts';

/** The admin's lead lists: Requested Vehicles and Selling Vehicles, their cards, filters and answers. */
export const deskLeadsText = defineTexts('deskLeads', en, hi);
