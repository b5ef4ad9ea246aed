import { redirect } from 'react-router';
import { currentUser } from '../../server/auth/session.ts';
import { AppError, CannotBookYetError } from '../../server/errors.ts';
import { flashHeaders } from '../../server/http/flash.ts';
import { startReservation } from '../../server/reservations/reservations.ts';
import { appContext } from '../context.ts';
import { parseId } from '../lib/input.ts';
import { paths } from '../lib/paths.ts';
import { reservationMessages } from '../features/reservations/reservations.ts';
import type { Route } from './+types/reservation-start';
import { throwIfDatabaseOutage } from '../../server/http/action-errors.ts';

/**
 * The vehicle page's "Reserve" button (a plain form): starts the reservation and sends the buyer
 * to its pay page (Razorpay Checkout). Not signed in: the sign-in page, then back to the car; no
 * verified phone: the phone step, then back. Any refusal is a notice on the car's page.
 */
export async function action({ params, request, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const id = parseId(params.id);
  if (id === null) throw redirect(paths.home);
  const carPage = paths.vehicle(id);
  const user = await currentUser(services.auth, request);
  if (!user) throw redirect(paths.loginThen(carPage));
  try {
    const checkout = await startReservation(services, { userId: user.id, vehicleId: id });
    return redirect(paths.payReservation(checkout.reservationId));
  } catch (error) {
    throwIfDatabaseOutage(error);
    if (error instanceof CannotBookYetError) return redirect(paths.profileCompleteThen(carPage));
    if (!(error instanceof AppError)) services.logger.error({ err: error, vehicle: id }, 'reservation start failed');
    const text = error instanceof AppError ? error.message : reservationMessages.failed;
    return redirect(carPage, { headers: await flashHeaders(services.config.authSecret, { tone: 'error', text }) });
  }
}

/** Opened by hand: the car's page. */
export function loader({ params }: Route.LoaderArgs) {
  const id = parseId(params.id);
  return redirect(id === null ? paths.home : paths.vehicle(id));
}
