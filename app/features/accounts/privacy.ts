/** Texts of the account-deletion page, shared by the page and the service that checks the confirmation. */
import { dataDeletionText as t } from './data-deletion-texts.ts';
import { liveTexts } from '../../lib/i18n/texts.ts';

/** What the confirmation asks for: the password of a password account, else the word DELETE. */
export const DELETE_CONFIRMATION_WORD = 'DELETE';

/** Each sentence is read when it is said, in the language of that moment (decision 087). */
export const privacyMessages = liveTexts(t, { lastAdmin: 'lastAdmin', openRental: 'openRental', openReservation: 'openReservation', wrongPassword: 'wrongPassword', passwordRequired: 'passwordRequired', wordRequired: ['wordRequired', { word: DELETE_CONFIRMATION_WORD }], deleted: 'deleted', deleteFailed: 'deleteFailed' });

/** The confirmation sent with a delete (the page's form or the Android API's body): the password or the word. */
export function parseDeleteConfirmation(form: FormData): { password: string; confirmationWord: string } {
  const field = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value.slice(0, 200) : '';
  };
  return { password: field('password'), confirmationWord: field('confirm') };
}
