import { redirect } from 'react-router';
import { requireAdmin } from '../../../server/admin/guard.ts';
import { AppError } from '../../../server/errors.ts';
import { flashHeaders } from '../../../server/http/flash.ts';
import { FormReadError, readFormOrError } from '../../../server/http/forms.ts';
import { cancelReservationAtDesk, extendReservation } from '../../../server/reservations/reservations.ts';
import { appContext } from '../../context.ts';
import { parseWith } from '../../lib/form-errors.ts';
import { formatRupees } from '../../lib/format.ts';
import { cleanLine, parseId } from '../../lib/input.ts';
import { adminPaths } from '../../lib/paths.ts';
import { deskReservationsText as t } from '../../features/admin/desk-reservations-texts.ts';
import { reservationExtendSchema } from '../../features/reservations/schemas.ts';
import type { Route } from './+types/reservation-action';
import { throwIfDatabaseOutage } from '../../../server/http/action-errors.ts';

/**
 * The desk's moves on a reservation (decision 080), from the dashboard or the car's page: extend,
 * convert to a sale (on the sale's form), cancel with a refund. Each is audit-logged by its service; the answer is a
 * notice back where the admin pressed it.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const admin = await requireAdmin(services, request);
  const form = await readFormOrError(request);
  const wanted = form instanceof FormReadError ? '' : cleanLine(form.get('backTo'), 300);
  // Only back to one of our admin pages.
  const backTo = /^\/admin(-panel)?(\/|$)/.test(wanted) && !wanted.startsWith('//') ? wanted : adminPaths.dashboard;
  const answer = async (tone: 'success' | 'error', text: string) =>
    redirect(backTo, { status: 303, headers: await flashHeaders(services.config.authSecret, { tone, text }) });
  if (form instanceof FormReadError) return answer('error', form.message);
  const id = parseId(params.id);
  if (id === null) return answer('error', t('notFound'));
  try {
    switch (cleanLine(form.get('intent'), 20)) {
      case 'extend': {
        const parsed = parseWith(reservationExtendSchema, { hours: cleanLine(form.get('hours'), 10) });
        if (!parsed.ok) return answer('error', parsed.error);
        await extendReservation(services, { reservationId: id, hours: parsed.value.hours, actorEmail: admin.email });
        return answer('success', t('extended', { id, hours: parsed.value.hours }));
      }
      case 'convert':
        // A reservation becomes a sale on the sale's own form (decision 114): the buyer's
        // address, PAN and the car's chassis number go on the tax invoice.
        // The price typed beside the button is the form's first value.
        return redirect(`${adminPaths.newSale(id)}&price=${encodeURIComponent(cleanLine(form.get('salePrice'), 20))}`, 303);
      case 'cancel': {
        const after = await cancelReservationAtDesk(services, { reservationId: id, actorEmail: admin.email });
        return answer('success', t('cancelled', { id, amount: formatRupees(after.amount) }));
      }
      default:
        return answer('error', t('unknownAction'));
    }
  } catch (error) {
    throwIfDatabaseOutage(error);
    if (error instanceof AppError) return answer('error', error.message);
    services.logger.error({ err: error, id }, 'reservation desk action failed');
    return answer('error', t('changeFailed'));
  }
}

/** Opened by hand: the dashboard. */
export function loader() {
  return redirect(adminPaths.dashboard);
}
