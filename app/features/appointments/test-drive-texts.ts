import en from './texts/en/testDrive.json' with { type: 'json' };
import hi from './texts/hi/testDrive.json' with { type: 'json' };
import { defineTexts } from '../../lib/i18n/texts.ts';

/** Texts of test drives: booking them, the profile's list, their mails and SMS, the API's messages. */
export const testDriveText = defineTexts('testDrive', en, hi);
