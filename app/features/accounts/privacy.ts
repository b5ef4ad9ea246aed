/** Texts of the account-deletion page, shared by the page and the service that checks the confirmation. */
import { dataDeletionText as t } from './data-deletion-texts.ts';
import { liveTexts } from '../../lib/i18n/texts.ts';

/** What the confirmation asks for: the password of a password account, else the word DELETE. */
export const DELETE_CONFIRMATION_WORD = 'DELETE';

/** Each sentence is read when it is said, in the language of that moment (decision 087). */
export const privacyMessages = liveTexts(t, {
  lastAdmin: 'lastAdmin',
  openRental: 'openRental',
  openReservation: 'openReservation',
  wrongPassword: 'wrongPassword',
  passwordRequired: 'passwordRequired',
  wordRequired: ['wordRequired', { word: DELETE_CONFIRMATION_WORD }],
  deleted: 'deleted',
  deleteFailed: 'deleteFailed',
});
