import { rentalDeskText as t } from '../../app/features/rentals/rental-desk-texts.ts';
import { licenceStatusText } from '../../app/features/rentals/licence.ts';
import { ageOn } from '../../app/features/rentals/licence.ts';
import { getProfile, hasVerifiedPhone } from '../accounts/profiles.ts';
import type { Database } from '../db/connection.ts';
import { CannotBookYetError, type CannotBookYetReason } from '../errors.ts';
import { licenceStatusFor } from './licences.ts';
import { indiaDay } from '../../app/lib/india-time.ts';

/**
 * Whether a person may book a rental car now, as the steps the booking page shows: sign in,
 * verify the phone, a driving licence that is not refused, readable and old enough for the car.
 * The booking service refuses exactly when a step is not done (checkRenter), so the page and the
 * service cannot disagree.
 */

export type StepState = 'done' | 'waiting' | 'todo' | 'problem';

/** Where the person goes to do a step; the page turns it into a link that comes back. */
export type StepAction = { to: 'sign-in' | 'verify-phone' | 'licence'; label: string };

export type ReadinessStep = {
  label: string;
  state: StepState;
  detail: string;
  action?: StepAction;
  /** Why a booking is refused while this step is not done (todo or problem). */
  refusal?: { reason: CannotBookYetReason; message: string };
};

export type RenterReadiness = { steps: ReadinessStep[]; ready: boolean };

const phoneTodo = () => ({ label: t('stepVerifyPhone'), state: 'todo', detail: t('stepVerifyPhoneDetail') }) as const;
const licenceTodo = () => ({ label: t('stepLicence'), state: 'todo', detail: t('stepLicenceDetail') }) as const;

function licenceStep(licence: Awaited<ReturnType<typeof licenceStatusFor>>, minAge: number, pickupMs: number): ReadinessStep {
  if (!licence) {
    return { ...licenceTodo(), action: { to: 'licence', label: t('addLicence') }, refusal: { reason: 'licence', message: t('refusalAddLicence') } };
  }
  // A licence that is not approved yet can be replaced by its owner; an approved one only by the dealer.
  const replace: StepAction | undefined = licence.status === 'approved' ? undefined : { to: 'licence', label: t('uploadAgain') };
  if (licence.status === 'refused') {
    const why = licence.refusalReason ? t('refusedWhy', { reason: licence.refusalReason }) : '';
    return {
      label: t('stepLicence'),
      state: 'problem',
      detail: t('notAccepted', { why }),
      action: replace,
      refusal: { reason: 'licence-refused', message: t('refusalRefused', { why }) },
    };
  }
  const age = ageOn(licence.dateOfBirth, indiaDay(pickupMs));
  if (age === null) {
    const message = t('dateOfBirthUnreadable', { next: replace ? t('uploadLicenceAgain') : t('callToCorrect') });
    return {
      label: t('stepLicence'),
      state: 'problem',
      detail: message,
      ...(replace ? { action: replace } : {}),
      refusal: { reason: 'licence-date-of-birth', message },
    };
  }
  if (age < minAge) {
    return {
      label: t('stepLicence'),
      state: 'problem',
      detail: t('needsDriverAge', { age: minAge }),
      refusal: { reason: 'age', message: t('refusalAge', { age: minAge }) },
    };
  }
  if (licence.status === 'approved') return { label: t('stepLicence'), state: 'done', detail: licenceStatusText().approved };
  return { label: t('stepLicence'), state: 'waiting', detail: t('licencePendingDetail', { status: licenceStatusText().pending }) };
}

/**
 * The renter's booking steps for a car with this minimum age, picked up at `pickupMs`, in the
 * order the page shows them. `userId` null: signed out, every step still to do.
 * Input: user id or null, the car's minimum age, pickup time. Errors: none.
 */
export async function renterReadiness(database: Database, userId: string | null, car: { minAge: number }, pickupMs: number): Promise<RenterReadiness> {
  if (userId === null) {
    const signIn: ReadinessStep = { label: t('stepSignIn'), state: 'todo', detail: t('stepSignInDetail'), action: { to: 'sign-in', label: t('stepSignIn') } };
    return { steps: [signIn, phoneTodo(), licenceTodo()], ready: false };
  }
  const [profile, licence] = await Promise.all([getProfile(database, userId), licenceStatusFor(database, userId)]);
  const steps: ReadinessStep[] = [
    { label: t('stepSignIn'), state: 'done', detail: profile?.email ? t('signedInAs', { email: profile.email }) : t('signedIn') },
    hasVerifiedPhone(profile)
      ? { label: t('stepVerifyPhone'), state: 'done', detail: t('verifiedPhone', { phone: profile!.phone }) }
      : { ...phoneTodo(), action: { to: 'verify-phone', label: t('verifyPhone') }, refusal: { reason: 'phone', message: t('refusalPhone') } },
    licenceStep(licence, car.minAge, pickupMs),
  ];
  return { steps, ready: steps.every((step) => step.state === 'done' || step.state === 'waiting') };
}

/**
 * Whether this person may book this car now: every step of renterReadiness done or waiting.
 * Input: user id, the car's terms, pickup time. Errors: CannotBookYetError (422) of the first
 * step not done, its `reason` naming it.
 */
export async function checkRenter(database: Database, userId: string, terms: { minAge: number }, pickupMs: number): Promise<void> {
  const { steps } = await renterReadiness(database, userId, terms, pickupMs);
  const blocking = steps.find((step) => step.state === 'todo' || step.state === 'problem');
  if (blocking?.refusal) throw new CannotBookYetError(blocking.refusal.reason, blocking.refusal.message);
}
