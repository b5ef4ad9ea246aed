import en from './en/leads.json' with { type: 'json' };
import hi from './hi/leads.json' with { type: 'json' };
import { defineTexts } from './texts.ts';

/** Texts of the Request a Vehicle and Sell Your Vehicle forms and the leads' messages. */
export const leadsText = defineTexts('leads', en, hi);
