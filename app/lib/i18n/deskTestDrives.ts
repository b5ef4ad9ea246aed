import en from './en/deskTestDrives.json' with { type: 'json' };
import hi from './hi/deskTestDrives.json' with { type: 'json' };
import { defineTexts } from './texts.ts';

/** The admin's day of test drives: the schedule, its buttons and answers. */
export const deskTestDrivesText = defineTexts('deskTestDrives', en, hi);
