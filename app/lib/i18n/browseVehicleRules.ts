import en from './en/browseVehicleRules.json' with { type: 'json' };
import hi from './hi/browseVehicleRules.json' with { type: 'json' };
import { defineTexts } from './texts.ts';

/** The rules of a car's details as the admin vehicle form checks them: its messages, field names and status labels. */
export const browseVehicleRulesText = defineTexts('browseVehicleRules', en, hi);
