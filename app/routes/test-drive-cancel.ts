import { redirect } from 'react-router';
import { currentUser } from '../../server/auth/session.ts';
import { AppError, RateLimitedError } from '../../server/errors.ts';
import { cancelOwn } from '../../server/test-drives/booking.ts';
import { appContext } from '../context.ts';
import { parseId } from '../lib/input.ts';
import { paths } from '../lib/paths.ts';
import type { Route } from './+types/test-drive-cancel';
import { throwIfDatabaseOutage } from '../../server/http/action-errors.ts';

/** The profile's Cancel button (a plain form, so it works without JavaScript); the answer is a notice on /profile. */
export async function action({ params, request, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const user = await currentUser(services.auth, request);
  if (!user) throw redirect(paths.loginThen(paths.myTestDrives));
  const id = parseId(params.id);
  let notice = 'cancelled';
  try {
    if (id === null) notice = 'not-found';
    else await cancelOwn(services, { id, userId: user.id });
  } catch (error) {
    throwIfDatabaseOutage(error);
    if (!(error instanceof AppError)) {
      services.logger.error({ err: error, id }, 'test-drive cancel failed');
      notice = 'failed';
    } else notice = error instanceof RateLimitedError ? 'too-many' : error.status === 404 ? 'not-found' : 'not-changed';
  }
  return redirect(`${paths.profileWithNotice('testDrive', notice)}#test-drives`);
}

/** Opened by hand: the list it belongs to. */
export function loader() {
  return redirect(paths.myTestDrives);
}
