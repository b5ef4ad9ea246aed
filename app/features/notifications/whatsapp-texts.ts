import en from './texts/en/whatsapp.json' with { type: 'json' };
import hi from './texts/hi/whatsapp.json' with { type: 'json' };
import { defineTexts } from '../../lib/i18n/texts.ts';

/** WhatsApp: the approved templates' bodies (docs/whatsapp-templates.md), the opt-in's wording and the profile's switch. */
export const whatsappText = defineTexts('whatsapp', en, hi);
