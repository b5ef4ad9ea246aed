import { useState } from 'react';
import { data, Link, redirect } from 'react-router';
import { ensureProfile, personName } from '../../server/accounts/profiles.ts';
import { currentSession } from '../../server/auth/session.ts';
import { listDevices, revokeDevice } from '../../server/auth/devices.ts';
import { MyDevices, type MyDevice } from '../features/accounts/my-devices.tsx';
import { WhatsAppSwitch } from '../features/accounts/whatsapp-switch.tsx';
import { chooseWhatsAppUpdates, whatsappUpdatesOf } from '../../server/accounts/whatsapp-updates.ts';
import { whatsappText } from '../features/notifications/whatsapp-texts.ts';
import { PushSwitch } from '../features/notifications/push-switch.tsx';
import { pushEndpointsOf } from '../../server/notify/push.ts';
import { MyDocuments } from '../features/sales/my-documents.tsx';
import { documentsOfUser } from '../../server/documents/documents.ts';
import { MyRcTransfers } from '../features/sales/my-rc-transfers.tsx';
import { forTheBuyer, purchasesOfBuyer } from '../../server/sales/rc-transfers.ts';
import { takeFlash } from '../../server/http/flash.ts';
import { listOwnReservations } from '../../server/reservations/reservations.ts';
import { MyReservations } from '../features/reservations/my-reservations.tsx';
import { ownLicenceView } from '../../server/rentals/licences.ts';
import { LicenceSection } from '../features/rentals/licence-form.tsx';
import { MyBookings, type MyBooking } from '../features/rentals/my-bookings.tsx';
import { listOwnBookings } from '../../server/rentals/bookings.ts';
import { bookingCondition } from '../../server/rentals/checklists.ts';
import { cancelBooking, cancellationPreview } from '../../server/rentals/lifecycle.ts';
import { answerError, throwIfDatabaseOutage } from '../../server/http/action-errors.ts';
import { flashHeaders } from '../../server/http/flash.ts';
import { FormReadError, readFormOrError } from '../../server/http/forms.ts';
import { rentalDeskServices } from '../../server/rentals/http/rental-services.ts';
import { requireUser } from '../../server/auth/session.ts';
import { parseId } from '../lib/input.ts';
import { parseForm } from '../lib/form-errors.ts';
import { profileActionSchema } from '../features/accounts/profile-schemas.ts';
import { formatRupees } from '../lib/format.ts';
import type { AppServices } from '../context.ts';
import { FormCard, FormMessage, primaryButton, secondaryButton } from '../components/form.tsx';
import { UserIcon } from '../components/icons.tsx';
import { LogoutButton } from '../components/logout-button.tsx';
import { MyTestDrives, TEST_DRIVE_NOTICES } from '../features/appointments/my-test-drives.tsx';
import { listOwnTestDrives } from '../../server/test-drives/test-drives.ts';
import { listOwnInspections } from '../../server/inspections/inspections.ts';
import { inspectionNoticeFor, MyInspections } from '../features/appointments/my-inspections.tsx';
import { appContext } from '../context.ts';
import { formatDateTime } from '../lib/format.ts';
import { paths } from '../lib/paths.ts';
import { seo, siteFromMatches } from '../lib/seo.ts';
import type { Route } from './+types/profile';
import { accountText as t } from '../lib/i18n/account.ts';

export function meta({ matches }: Route.MetaArgs) {
  return seo({ site: siteFromMatches(matches), path: paths.profile, title: t('profileTitle'), noIndex: true });
}

const verificationFailed = () => t('verificationFailed');

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  const { auth, database, logger, config } = services;
  const url = new URL(request.url);
  const session = await currentSession(auth, request);
  if (!session) return { signedIn: false as const };
  const { user } = session;
  // better-auth sends a verification link that failed (expired, used, forged) here too, with `error`.
  const verification = !url.searchParams.has('verified') ? null : user.emailVerified ? t('emailVerified') : verificationFailed();
  const notice = verification ?? (url.searchParams.get('linked') ? t('googleLinked') : null);
  try {
    // SPEC 4, Profile load: the record is created from the account when it is missing.
    const profile = await ensureProfile(database, user, services.clock.now());
    const inspectionNotice = inspectionNoticeFor(url.searchParams.get('inspection') ?? '');
    const testDriveNotice =
      TEST_DRIVE_NOTICES[url.searchParams.get('testDrive') ?? ''] ?? (inspectionNotice ? { tone: 'success' as const, text: inspectionNotice } : null);
    const [licence, flash, bookings, testDrives, devices, reservations, inspections, documents, purchases, whatsapp, pushEndpoints] = await Promise.all([
      ownLicenceView(database, user.id),
      takeFlash(config.authSecret, request),
      myBookings(services, user.id),
      listOwnTestDrives(services, user.id),
      listDevices({ database, secret: config.authSecret, now: services.clock.now() }, { userId: user.id, currentSessionId: session.sessionId }),
      listOwnReservations(services, user.id),
      listOwnInspections(services, user.id),
      documentsOfUser(database, user.id),
      purchasesOfBuyer(database, user.id),
      whatsappUpdatesOf(database, user.id),
      pushEndpointsOf(database, user.id),
    ]);
    return data(
      {
        signedIn: true as const,
        notice: flash.toast?.text ?? notice,
        // A refusal flashed here (an offer that expired meanwhile) reads as one.
        noticeIsError: flash.toast?.tone === 'error',
        testDriveNotice,
        testDrives,
        inspections,
        // "Accept offer" asks first (`?confirmOffer=ID`): the seller confirms the amount before it binds.
        confirmOffer: parseId(url.searchParams.get('confirmOffer') ?? ''),
        licence,
        bookings,
        // Where this person's notifications go (decision 124): the switch reads whether this device is one.
        pushEndpoints,
        devices: devices.map((device): MyDevice => ({ ...device, createdAt: device.createdAt.toISOString(), lastSeenAt: device.lastSeenAt.toISOString() })),
        // Reservations with the time left by the server's clock, the same on both sides of hydration.
        reservations: { items: reservations.items, nowMs: services.clock.now() },
        // The invoices and credit notes of cars bought (decision 114).
        documents: documents.map(({ id, kind, number, createdAt }) => ({ id, kind, number, createdAt })),
        // The registration transfer of each car bought (decision 117).
        purchases: purchases.map(forTheBuyer),
        // The "Updates on WhatsApp" switch of the profile's number (decision 126).
        whatsapp,
        user: { email: user.email, name: personName(profile, user), photoUrl: profile.photoUrl || user.image || '', emailVerified: user.emailVerified },
        profile,
        // Only the signed-in person's own record, and only when asked for.
        debug:
          url.searchParams.get('debug') === '1'
            ? { account: { id: user.id, email: user.email, name: user.name, emailVerified: user.emailVerified, createdAt: user.createdAt }, profile }
            : null,
      },
      { headers: flash.headers },
    );
  } catch (error) {
    throwIfDatabaseOutage(error);
    // Logged, never shown: the message of an unexpected error may hold SQL or paths (decision 017).
    logger.error({ err: error }, 'profile load failed');
    return { signedIn: true as const, notice: null, loadError: t('loadFailed') };
  }
}

const row = 'flex flex-col gap-0.5 px-4 py-3 sm:grid sm:grid-cols-[9rem_minmax(0,1fr)] sm:items-center sm:gap-3';
const label = 'text-sm font-semibold text-slate-600 sm:text-base sm:text-slate-900';
/** The person's bookings, newest first, each with what cancelling it now would give back. */
async function myBookings(services: AppServices, userId: string): Promise<MyBooking[]> {
  const bookings = await listOwnBookings(services.database, userId);
  return Promise.all(
    bookings.map(async (booking) => {
      const cancellable = booking.status === 'requested' || booking.status === 'confirmed';
      const preview = cancellable ? await cancellationPreview(services, { userId, bookingId: booking.id }) : null;
      return {
        id: booking.id,
        carName: booking.carName,
        vehicleId: booking.vehicleId,
        status: booking.status,
        from: booking.from,
        to: booking.to,
        quote: booking.quote,
        paidOnline: booking.paymentMethod === 'razorpay' ? booking.amountPaid : null,
        holdExpiresAt: booking.holdExpiresAt,
        cancel: preview ? { ...preview, paid: booking.amountPaid } : null,
        charges: booking.charges
          ? { total: booking.charges.total, depositRefund: booking.depositRefund ?? booking.charges.depositRefund, amountDue: booking.charges.amountDue }
          : null,
        refunds: { refundedOnlinePaise: booking.refundedOnlinePaise, owedPaise: booking.refundOwedPaise },
        handedOverAt: booking.handedOverAt,
        returnedAt: booking.returnedAt,
        handoverMoney: booking.handoverMoney,
        settlement: booking.settlement,
        condition: booking.odometerOut !== null ? await bookingCondition(services.database, booking) : null,
      };
    }),
  );
}

/** Cancelling one of my bookings (after the refund was shown on the page), or signing a device out. */
export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const user = await requireUser(services.auth, request);
  const form = await readFormOrError(request);
  if (form instanceof FormReadError) return data({ bookingError: form.message }, { status: form.status });
  const parsed = parseForm(profileActionSchema, form);
  if (!parsed.ok) {
    // The WhatsApp switch sent without its choice: said beside the switch.
    if (form.get('intent') === 'whatsapp') return data({ whatsappError: parsed.error }, { status: 400 });
    // Nothing is typed on this page: a wrong device or booking is told as one not found.
    return data(parsed.fields.deviceId ? { deviceNotice: parsed.error } : { bookingError: parsed.error }, { status: 404 });
  }
  const asked = parsed.value;
  if (asked.intent === 'whatsapp') {
    try {
      const state = await chooseWhatsAppUpdates(services, { userId: user.id, optedIn: asked.optedIn });
      return { whatsappNotice: state.optedIn ? whatsappText('optInSaved', { phone: state.phone }) : whatsappText('optOutSaved') };
    } catch (error) {
      const answer = answerError(error, services.logger, { fallback: t('profileSaveFailed'), log: 'whatsapp choice failed' });
      return data({ whatsappError: answer.message }, { status: answer.status });
    }
  }
  if (asked.intent === 'revoke-device') {
    const deps = { database: services.database, auth: services.auth, secret: services.config.authSecret, now: services.clock.now() };
    const revoked = await revokeDevice(deps, { userId: user.id, id: asked.deviceId });
    if (!revoked) return data({ deviceNotice: t('deviceNotFound') }, { status: 404 });
    // Revoking this very browser signs it out: the next page is the signed-out profile.
    return { deviceNotice: t('deviceSignedOut') };
  }
  const { bookingId } = asked;
  try {
    const { booking, refund } = await cancelBooking(rentalDeskServices(services), { userId: user.id, bookingId });
    const text = `${t('bookingCancelled', { id: booking.id })}${refund.refund > 0 ? t('bookingRefund', { amount: formatRupees(refund.refund) }) : ''}`;
    throw redirect(paths.myBookings, { headers: await flashHeaders(services.config.authSecret, { tone: 'success', text }) });
  } catch (error) {
    if (error instanceof Response) throw error;
    const answer = answerError(error, services.logger, { fallback: t('bookingCancelFailed'), log: 'booking cancel failed' });
    return data({ bookingError: answer.message }, { status: answer.status });
  }
}

function Avatar({ url, name }: { url: string; name: string }) {
  const [failed, setFailed] = useState(false);
  if (!url || failed) {
    return (
      <span
        className="flex h-20 w-20 shrink-0 items-center justify-center rounded-full bg-brand-100 text-brand-700"
        role="img"
        aria-label={t('pictureOf', { name })}
      >
        <UserIcon className="h-10 w-10" />
      </span>
    );
  }
  return (
    <img
      src={url}
      alt={t('pictureOf', { name })}
      width={80}
      height={80}
      referrerPolicy="no-referrer"
      onError={() => setFailed(true)}
      className="h-20 w-20 shrink-0 rounded-full object-cover"
    />
  );
}

export default function Profile({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData.signedIn) {
    return (
      <FormCard title={t('welcome')}>
        <p className="text-slate-700">{t('pleaseLogIn')}</p>
        <div className="mt-5 flex gap-3">
          <Link to={paths.login} className={primaryButton}>
            {t('login')}
          </Link>
          <Link to={paths.signup} className={secondaryButton}>
            {t('signUp')}
          </Link>
        </div>
      </FormCard>
    );
  }
  if ('loadError' in loaderData) {
    return (
      <FormCard title={t('profileTitle')}>
        <FormMessage tone="error">{loaderData.loadError}</FormMessage>
      </FormCard>
    );
  }
  const {
    user,
    profile,
    notice,
    noticeIsError,
    debug,
    testDriveNotice,
    testDrives,
    inspections,
    confirmOffer,
    licence,
    bookings,
    devices,
    pushEndpoints,
    reservations,
    documents,
    purchases,
    whatsapp,
  } = loaderData;
  const name = user.name || t('userFallback');
  const phoneText = profile.phone || (profile.phoneVerified ? t('verified') : t('notSet'));
  return (
    <FormCard title={t('profileTitle')}>
      {notice ? (
        <div className="mb-4">
          <FormMessage tone={noticeIsError || notice === verificationFailed() ? 'error' : 'success'}>{notice}</FormMessage>
        </div>
      ) : null}
      {testDriveNotice ? (
        <div className="mb-4">
          <FormMessage tone={testDriveNotice.tone}>{testDriveNotice.text}</FormMessage>
        </div>
      ) : null}
      <div className="flex items-center gap-4">
        <Avatar url={user.photoUrl} name={name} />
        <div className="min-w-0">
          <p className="text-xl font-bold [overflow-wrap:anywhere]">{name}</p>
          {/* The whole address, broken where it must be: a cut-off email is no use. */}
          <p className="text-slate-600 [overflow-wrap:anywhere]">{user.email}</p>
        </div>
      </div>
      {/* Phones: each label above its value; wider: one column of labels, one of values. */}
      <dl className="mt-6 divide-y divide-slate-200 rounded-xl ring-1 ring-slate-200">
        <div className={row}>
          <dt className={label}>{t('phone')}</dt>
          <dd className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
            <span className="[overflow-wrap:anywhere]">{phoneText}</span>
            {profile.phoneVerified ? (
              <span className="rounded-full bg-green-100 px-2.5 py-0.5 text-sm font-semibold text-green-800">{t('verified')}</span>
            ) : (
              <Link to={paths.profileComplete} className="inline-flex min-h-11 items-center font-semibold text-brand-700 underline">
                {t('verify')}
              </Link>
            )}
          </dd>
        </div>
        <div className={row}>
          <dt id="whatsapp-label" className={label}>
            {whatsappText('optInLabel')}
          </dt>
          <dd className="min-w-0">
            <WhatsAppSwitch
              state={whatsapp}
              notice={actionData && 'whatsappNotice' in actionData ? actionData.whatsappNotice : undefined}
              error={actionData && 'whatsappError' in actionData ? actionData.whatsappError : undefined}
            />
          </dd>
        </div>
        <div className={row}>
          <dt className={label}>{t('memberSince')}</dt>
          <dd>{formatDateTime(profile.createdAt)}</dd>
        </div>
        <div className={row}>
          <dt className={label}>{t('lastLogin')}</dt>
          <dd>{formatDateTime(profile.lastLoginAt)}</dd>
        </div>
        <div className={row}>
          <dt className={label}>{t('updated')}</dt>
          <dd>{formatDateTime(profile.updatedAt)}</dd>
        </div>
      </dl>
      <div className="mt-6 flex flex-wrap gap-3">
        <Link to={paths.wishlist} className={secondaryButton}>
          {t('myWishlist')}
        </Link>
        <LogoutButton className={secondaryButton} />
      </div>
      <MyReservations reservations={reservations.items} nowMs={reservations.nowMs} />
      <MyDocuments documents={documents} />
      <MyRcTransfers purchases={purchases} />
      <MyTestDrives testDrives={testDrives} />
      <MyInspections inspections={inspections} confirmOffer={confirmOffer} />
      <MyBookings bookings={bookings} error={actionData && 'bookingError' in actionData ? actionData.bookingError : undefined} />
      <LicenceSection licence={licence} />
      <PushSwitch endpoints={pushEndpoints} />
      <MyDevices devices={devices} notice={actionData && 'deviceNotice' in actionData ? actionData.deviceNotice : undefined} />
      <section aria-labelledby="your-data" className="mt-8 border-t border-slate-200 pt-6">
        <h2 id="your-data" className="text-lg font-bold">
          {t('yourData')}
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          {t('yourDataText')}{' '}
          <Link to={paths.privacy} className="font-semibold text-brand-700 underline">
            {t('privacy')}
          </Link>
        </p>
        <div className="mt-4 flex flex-wrap gap-3">
          {/* A plain link: the file comes from a resource route, not a page the router renders. */}
          <a href={`${paths.profile}/my-data`} download className={secondaryButton}>
            {t('downloadMyData')}
          </a>
          <Link to={`${paths.profile}/delete`} className={secondaryButton.replace('text-slate-800', 'text-red-700')}>
            {t('deleteMyAccount')}
          </Link>
        </div>
      </section>
      {debug ? (
        <details open className="mt-6">
          <summary className="cursor-pointer font-semibold">{t('debugRaw')}</summary>
          <pre className="mt-2 overflow-x-auto rounded-xl bg-slate-900 p-4 text-xs text-slate-100">{JSON.stringify(debug, null, 2)}</pre>
        </details>
      ) : null}
    </FormCard>
  );
}
