import en from './texts/en/push.json' with { type: 'json' };
import hi from './texts/hi/push.json' with { type: 'json' };
import { defineTexts } from '../../lib/i18n/texts.ts';

/** Texts of notifications on the phone (Web Push, decision 124): the profile's switch and the API's refusals. */
export const pushText = defineTexts('push', en, hi);
