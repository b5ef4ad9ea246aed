/** Texts of the account-deletion page, shared by the page and the service that checks the confirmation. */
import { dataDeletionText as t } from './i18n/dataDeletion.ts';

/** What the confirmation asks for: the password of a password account, else the word DELETE. */
export const DELETE_CONFIRMATION_WORD = 'DELETE';

/** Each sentence is read when it is said, in the language of that moment (decision 087). */
export const privacyMessages = {
  get lastAdmin() {
    return t('lastAdmin');
  },
  get openRental() {
    return t('openRental');
  },
  get openReservation() {
    return t('openReservation');
  },
  get wrongPassword() {
    return t('wrongPassword');
  },
  get passwordRequired() {
    return t('passwordRequired');
  },
  get wordRequired() {
    return t('wordRequired', { word: DELETE_CONFIRMATION_WORD });
  },
  get deleted() {
    return t('deleted');
  },
  get deleteFailed() {
    return t('deleteFailed');
  },
};

/** The confirmation sent with a delete (the page's form or the Android API's body): the password or the word. */
export function parseDeleteConfirmation(form: FormData): { password: string; confirmationWord: string } {
  const field = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value.slice(0, 200) : '';
  };
  return { password: field('password'), confirmationWord: field('confirm') };
}
