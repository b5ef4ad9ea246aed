import { redirect } from 'react-router';
import { currentUser } from '../../server/auth/session.ts';
import { AppError, NotFoundError } from '../../server/errors.ts';
import { flashHeaders } from '../../server/http/flash.ts';
import { cancelOwnReservation } from '../../server/reservations/reservations.ts';
import { appContext } from '../context.ts';
import { formatRupees } from '../lib/format.ts';
import { parseId } from '../lib/input.ts';
import { paths } from '../lib/paths.ts';
import { reservationMessages } from '../features/reservations/reservations.ts';
import { reservationText as t } from '../features/reservations/reservation-texts.ts';
import type { Route } from './+types/reservation-cancel';
import { throwIfDatabaseOutage } from '../../server/http/action-errors.ts';

/** The profile's Cancel button of a reservation (a plain form); the answer is a notice on /profile. */
export async function action({ params, request, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const user = await currentUser(services.auth, request);
  if (!user) throw redirect(paths.loginThen(paths.myReservations));
  const id = parseId(params.id);
  let flash: { tone: 'success' | 'error'; text: string };
  try {
    if (id === null) throw new NotFoundError(reservationMessages.notYours);
    const { refund } = await cancelOwnReservation(services, { userId: user.id, reservationId: id });
    flash = { tone: 'success', text: refund > 0 ? t('cancelledRefund', { amount: formatRupees(refund) }) : t('cancelledOnly') };
  } catch (error) {
    throwIfDatabaseOutage(error);
    if (!(error instanceof AppError)) services.logger.error({ err: error, id }, 'reservation cancel failed');
    flash = { tone: 'error', text: error instanceof AppError ? error.message : reservationMessages.failed };
  }
  return redirect(paths.myReservations, { headers: await flashHeaders(services.config.authSecret, flash) });
}

/** Opened by hand: the list it belongs to. */
export function loader() {
  return redirect(paths.myReservations);
}
