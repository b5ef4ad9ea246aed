/** Texts of the account-deletion page, shared by the page and the service that checks the confirmation. */

/** What the confirmation asks for: the password of a password account, else the word DELETE. */
export const DELETE_CONFIRMATION_WORD = 'DELETE';

export const privacyMessages = {
  lastAdmin:
    'You are the only admin, so this account cannot be deleted: the shop would have nobody left to manage it. Add another admin first (Admin → Register admin), then delete this account.',
  openRental:
    'You have a rental booking in progress. Cancel it on your profile, or return the car and wait for the deposit to be settled, then delete your account.',
  openReservation: 'You have a car reserved. Cancel the reservation on your profile (the token is refunded in full), then delete your account.',
  wrongPassword: 'That password is not right. Please enter the password you sign in with.',
  passwordRequired: 'Please enter your password to confirm.',
  wordRequired: `Please type ${DELETE_CONFIRMATION_WORD} (in capital letters) to confirm.`,
  deleted: 'Your account and your data have been deleted. You are signed out.',
  deleteFailed: 'Your account could not be deleted just now. Please try again in a moment.',
} as const;

/** The confirmation sent with a delete (the page's form or the Android API's body): the password or the word. */
export function parseDeleteConfirmation(form: FormData): { password: string; confirmationWord: string } {
  const field = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value.slice(0, 200) : '';
  };
  return { password: field('password'), confirmationWord: field('confirm') };
}
