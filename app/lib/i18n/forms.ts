import en from './en/forms.json' with { type: 'json' };
import hi from './hi/forms.json' with { type: 'json' };
import { defineTexts } from './texts.ts';

/** Texts every form shares: phone, OTP, name, PIN code and photo-size messages, and the server's form refusals. */
export const formsText = defineTexts('forms', en, hi);
