import { LICENCE_STATUS_TEXT } from '../../app/lib/licence.ts';
import { ageOn } from '../../app/lib/licence.ts';
import { indiaDay } from '../../app/lib/rentals.ts';
import { getProfile, hasVerifiedPhone } from '../accounts/profiles.ts';
import type { Database } from '../db/connection.ts';
import { CannotBookYetError, type CannotBookYetReason } from '../errors.ts';
import { licenceStatusFor } from './licences.ts';

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

const PHONE_TODO = { label: 'Verify your phone', state: 'todo', detail: 'We send a 6-digit code by SMS.' } as const;
const LICENCE_TODO = { label: 'Driving licence', state: 'todo', detail: 'Number, date of birth and photos of both sides.' } as const;

function licenceStep(licence: Awaited<ReturnType<typeof licenceStatusFor>>, minAge: number, pickupMs: number): ReadinessStep {
  if (!licence) {
    return { ...LICENCE_TODO, action: { to: 'licence', label: 'Add licence' }, refusal: { reason: 'licence', message: 'Please add your driving licence on your profile before booking.' } };
  }
  // A licence that is not approved yet can be replaced by its owner; an approved one only by the dealer.
  const replace: StepAction | undefined = licence.status === 'approved' ? undefined : { to: 'licence', label: 'Upload again' };
  if (licence.status === 'refused') {
    const why = licence.refusalReason ? `: ${licence.refusalReason}` : '';
    return { label: 'Driving licence', state: 'problem', detail: `Not accepted${why}`, action: replace, refusal: { reason: 'licence-refused', message: `Your driving licence was not accepted${why}. Please upload it again.` } };
  }
  const age = ageOn(licence.dateOfBirth, indiaDay(pickupMs));
  if (age === null) {
    const message = `The date of birth on your driving licence cannot be read, so we cannot check your age. ${replace ? 'Please upload your licence again.' : 'Please call us to correct it.'}`;
    return { label: 'Driving licence', state: 'problem', detail: message, ...(replace ? { action: replace } : {}), refusal: { reason: 'licence-date-of-birth', message } };
  }
  if (age < minAge) {
    return { label: 'Driving licence', state: 'problem', detail: `This car needs a driver of at least ${minAge}.`, refusal: { reason: 'age', message: `You must be at least ${minAge} years old at pickup to rent this car.` } };
  }
  if (licence.status === 'approved') return { label: 'Driving licence', state: 'done', detail: 'Approved' };
  return { label: 'Driving licence', state: 'waiting', detail: `${LICENCE_STATUS_TEXT.pending}: you can book now; we confirm once it is approved.` };
}

/**
 * The renter's booking steps for a car with this minimum age, picked up at `pickupMs`, in the
 * order the page shows them. `userId` null: signed out, every step still to do.
 * Input: user id or null, the car's minimum age, pickup time. Errors: none.
 */
export async function renterReadiness(database: Database, userId: string | null, car: { minAge: number }, pickupMs: number): Promise<RenterReadiness> {
  if (userId === null) {
    const signIn: ReadinessStep = { label: 'Sign in', state: 'todo', detail: 'Sign in or create an account to book.', action: { to: 'sign-in', label: 'Sign in' } };
    return { steps: [signIn, PHONE_TODO, LICENCE_TODO], ready: false };
  }
  const [profile, licence] = await Promise.all([getProfile(database, userId), licenceStatusFor(database, userId)]);
  const steps: ReadinessStep[] = [
    { label: 'Sign in', state: 'done', detail: profile?.email ? `Signed in as ${profile.email}` : 'Signed in' },
    hasVerifiedPhone(profile)
      ? { label: 'Verify your phone', state: 'done', detail: `Verified ${profile!.phone}` }
      : { ...PHONE_TODO, action: { to: 'verify-phone', label: 'Verify phone' }, refusal: { reason: 'phone', message: 'Please verify your phone number before booking.' } },
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
