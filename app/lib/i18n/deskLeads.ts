import en from './en/deskLeads.json' with { type: 'json' };
import hi from './hi/deskLeads.json' with { type: 'json' };
import { defineTexts } from './texts.ts';

/** The admin's lead lists: Requested Vehicles and Selling Vehicles, their cards, filters and answers. */
export const deskLeadsText = defineTexts('deskLeads', en, hi);
