import en from './texts/en/deskTestDrives.json' with { type: 'json' };
import hi from './texts/hi/deskTestDrives.json' with { type: 'json' };
import { defineTexts } from '../../lib/i18n/texts.ts';

/** The admin's day of test drives: the schedule, its buttons and answers. */
export const deskTestDrivesText = defineTexts('deskTestDrives', en, hi);
