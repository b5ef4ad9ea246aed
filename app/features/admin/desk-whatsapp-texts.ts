import en from './texts/en/deskWhatsApp.json' with { type: 'json' };
import hi from './texts/hi/deskWhatsApp.json' with { type: 'json' };
import { defineTexts } from '../../lib/i18n/texts.ts';

/** The desk's list of WhatsApp messages and their delivery statuses, and the dashboard's line about them. */
export const deskWhatsAppText = defineTexts('deskWhatsApp', en, hi);
