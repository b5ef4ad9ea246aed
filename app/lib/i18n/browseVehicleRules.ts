import en from './en/browseVehicleRules.json';
import hi from './hi/browseVehicleRules.json';
import { defineTexts } from './texts.ts';

/** The rules of a car's details as the admin vehicle form checks them: its messages, field names and status labels. */
export const browseVehicleRulesText = defineTexts('browseVehicleRules', en, hi);
