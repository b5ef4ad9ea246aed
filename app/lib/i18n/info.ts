import en from './en/info.json' with { type: 'json' };
import hi from './hi/info.json' with { type: 'json' };
import { defineTexts } from './texts.ts';

/** Texts of the About and Contact pages, and the WhatsApp message a visitor sends about a car. */
export const infoText = defineTexts('info', en, hi);
