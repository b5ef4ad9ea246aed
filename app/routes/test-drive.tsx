import { data, Form, Link, redirect, useActionData, useNavigation } from 'react-router';
import { ensureProfile } from '../../server/accounts/profiles.ts';
import { settingsFor } from '../../server/admin/settings.ts';
import { currentUser } from '../../server/auth/session.ts';
import { getVehicle } from '../../server/catalog/vehicles.ts';
import { answerError } from '../../server/http/action-errors.ts';
import { FormReadError, readFormOrError } from '../../server/http/forms.ts';
import { bookAndConfirm, rescheduleAndConfirm } from '../../server/test-drives/booking.ts';
import { listOwnTestDrives, slotsFor } from '../../server/test-drives/test-drives.ts';
import { TEST_DRIVE } from '../../server/appointments/kinds.ts';
import { FormMessage, primaryButton, secondaryButton } from '../components/form.tsx';
import { MissingPage } from '../components/empty-state.tsx';
import { VehicleImage } from '../features/vehicle/vehicle-image.tsx';
import { appContext } from '../context.ts';
import { detailPriceLabel } from '../lib/format.ts';
import { cleanLine, parseId } from '../lib/input.ts';
import { formError, parseWith } from '../lib/form-errors.ts';
import { withNetworkErrorMessage } from '../lib/network.ts';
import { typedPinCode } from '../lib/pin-code.ts';
import { testDriveRequestSchema } from '../features/appointments/test-drive-schemas.ts';
import { sortedAreas } from '../lib/service-areas.ts';
import { homeAddressLine } from '../features/appointments/home-address.ts';
import { HomeAddressFields, HomePinField, PinRefusal, ServedAreas } from '../features/appointments/home-visit.tsx';
import { pageAddress, paths } from '../lib/paths.ts';
import { seo, siteFromMatches } from '../lib/seo.ts';
import {
  bookableDays,
  daySlots,
  dayLabel,
  hourLabel,
  homeVisitProblem,
  MODE_LABELS,
  parseSlot,
  remainingLabel,
  slotLabel,
  testDriveMessages,
  type TestDriveMode,
} from '../features/appointments/test-drives.ts';
import { detailTitle, offersTestDrive } from '../lib/vehicle.ts';
import { testDriveText as t } from '../features/appointments/test-drive-texts.ts';
import { RichText } from '../lib/i18n/rich.tsx';
import { holdsReservation } from '../../server/reservations/store.ts';
import type { Route } from './+types/test-drive';
import { retryAfterHeaders } from '../lib/retry-after.ts';
import { typedFuelText, typedTransmissionText } from '../lib/listing-filters/options.ts';
import { parseIndiaDate } from '../lib/india-time.ts';

/**
 * Booking a test drive, one step per page so it works without JavaScript: where (hub or home
 * with a PIN code in an area we visit, the areas listed before one types), which day, which
 * hour (with the places left), then confirm, where a home visit gives its street address and
 * landmark. The choices travel in the query string of a GET form; the confirmation is a POST,
 * so the address never sits in a URL.
 */

/** A refusal by a rate limit keeps its Retry-After. */
export const headers = retryAfterHeaders;

export function meta({ matches, params }: Route.MetaArgs) {
  return seo({ site: siteFromMatches(matches), path: paths.testDrive(params.id), title: t('bookTestDrive'), noIndex: true });
}

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  const id = parseId(params.id);
  const found = id === null ? null : await getVehicle(services.database, id);
  if (!found) return data({ state: 'not-found' as const }, { status: 404 });
  const url = new URL(request.url);
  const here = pageAddress(url);
  const user = await currentUser(services.auth, request);
  if (!user) throw redirect(paths.loginThen(here));

  const vehicle = {
    id: found.id,
    title: detailTitle(found),
    subtitle: [found.variant, found.year, typedFuelText(found.fuelType), typedTransmissionText(found.transmission)].filter(Boolean).join(' • '),
    price: detailPriceLabel(found.price),
    cover: found.images[0] ?? null,
  };
  // The buyer holding the car's reservation may still test-drive it (decision 080).
  if (!offersTestDrive(found) && !(found.status === 'reserved' && (await holdsReservation(services.database, user.id, found.id))))
    return { state: 'unavailable' as const, vehicle };
  const profile = await ensureProfile(services.database, user, services.clock.now());
  if (!profile.phoneVerified) return { state: 'verify-phone' as const, vehicle, verifyUrl: paths.profileCompleteThen(here) };

  const settings = await settingsFor(services);
  const rules = TEST_DRIVE.rules(settings);
  const now = services.clock.now();
  const query = url.searchParams;

  // Moving a booking of one's own: its place (the address too) stays, only the time changes.
  const rescheduleId = parseId(query.get('reschedule') ?? '');
  const rescheduling =
    rescheduleId === null
      ? null
      : ((await listOwnTestDrives(services, user.id)).find((drive) => drive.id === rescheduleId && drive.changeable && drive.vehicleId === vehicle.id) ?? null);

  const mode: TestDriveMode = rescheduling?.mode ?? (query.get('mode') === 'home' ? 'home' : 'hub');
  const pin = rescheduling?.pinCode ?? typedPinCode(cleanLine(query.get('pin'), 12));
  const pinProblem = homeVisitProblem({ mode, pinCode: pin }, settings.serviceAreas, services.config.contactAddress);

  const days = bookableDays(now, rules).map((date) => ({ date, label: dayLabel(date), open: daySlots(date, now, rules).length > 0 }));
  const asked = parseIndiaDate(query.get('date'));
  const date = asked && days.some((day) => day.date === asked) ? asked : (days.find((day) => day.open)?.date ?? days[0]!.date);
  const slots = await slotsFor(services, rules, { vehicleId: vehicle.id, date, userId: user.id });
  const askedSlot = parseSlot(query.get('slot'));
  const selected = askedSlot && !pinProblem ? (slots.find((slot) => slot.start === askedSlot && slot.remaining > 0)?.start ?? null) : null;

  return {
    state: 'ready' as const,
    vehicle,
    days,
    date,
    slots,
    mode,
    pin,
    // A PIN not typed yet is asked for, not refused.
    pinProblem,
    pinTyped: Boolean(pin),
    selected,
    rescheduling: rescheduling
      ? { id: rescheduling.id, slot: rescheduling.slot, address: rescheduling.mode === 'home' ? homeAddressLine(rescheduling) : '' }
      : null,
    areas: sortedAreas(settings.serviceAreas),
    hubTo: paths.testDrive(vehicle.id, { mode: 'hub', date: asked ?? undefined }),
    hours: t('hoursRange', { from: hourLabel(rules.openingHour), to: hourLabel(rules.closingHour) }),
    leadHours: rules.leadHours,
  };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const user = await currentUser(services.auth, request);
  if (!user) {
    throw redirect(paths.loginThen(pageAddress(request.url)));
  }
  const vehicleId = parseId(params.id);
  if (vehicleId === null) return data(formError(testDriveMessages.vehicleNotFound), { status: 404 });
  const form = await readFormOrError(request);
  // A control character (a pasted NUL) is refused at the edge: said beside the field it was in.
  if (form instanceof FormReadError) return data(formError(form.message, form.field ? { [form.field]: form.message } : {}), { status: form.status });
  const text = (name: string) => cleanLine(form.get(name), 40);
  // The address as typed (bounded): the schema refuses a control character beside its field rather than dropping it.
  const typed = (name: string) => String(form.get(name) ?? '').slice(0, 1000);
  const address = { street: typed('street'), landmark: typed('landmark') };
  const parsed = parseWith(testDriveRequestSchema, { slot: text('slot'), mode: text('mode'), pinCode: text('pinCode'), ...address });
  if (!parsed.ok) return data({ ...formError(parsed.error, parsed.fields), address }, { status: 400 });
  const rescheduleText = text('reschedule');
  const rescheduleId = rescheduleText ? parseId(rescheduleText) : null;
  if (rescheduleText && rescheduleId === null) return data(formError(testDriveMessages.notYours), { status: 404 });
  try {
    if (rescheduleId !== null) {
      await rescheduleAndConfirm(services, { id: rescheduleId, userId: user.id, slot: parsed.value.slot });
      throw redirect(`${paths.profileWithNotice('testDrive', 'rescheduled')}#test-drives`);
    }
    await bookAndConfirm(services, { ...parsed.value, userId: user.id, vehicleId });
  } catch (error) {
    if (error instanceof Response) throw error;
    const answer = answerError(error, services.logger, { fallback: testDriveMessages.failed, log: 'test-drive booking failed', context: { vehicleId } });
    return data({ ...formError(answer.message, { ...answer.fields }), address }, { status: answer.status, headers: answer.headers });
  }
  throw redirect(`${paths.profileWithNotice('testDrive', 'booked')}#test-drives`);
}

export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return withNetworkErrorMessage(serverAction);
}

function Card({ title, children, id }: { title: string; children: React.ReactNode; id?: string }) {
  return (
    <section id={id} aria-labelledby={id ? `${id}-title` : undefined} className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
      <h2 id={id ? `${id}-title` : undefined} className="mb-3 text-lg font-bold">
        {title}
      </h2>
      {children}
    </section>
  );
}

function VehicleHeader({
  vehicle,
}: {
  vehicle: { id: number; title: string; subtitle: string; price: string; cover: Parameters<typeof VehicleImage>[0]['image'] };
}) {
  return (
    <Link to={paths.vehicle(vehicle.id)} className="flex items-center gap-3 rounded-2xl bg-white p-3 shadow-sm ring-1 ring-slate-200 hover:ring-brand-300">
      <VehicleImage image={vehicle.cover} alt={vehicle.title} sizes="96px" className="aspect-[4/3] w-24 shrink-0 rounded-xl object-cover" />
      <span className="min-w-0">
        <span className="block truncate font-bold">{vehicle.title}</span>
        {vehicle.subtitle ? <span className="block truncate text-sm text-slate-600">{vehicle.subtitle}</span> : null}
        <span className="block font-semibold text-brand-800">{vehicle.price}</span>
      </span>
    </Link>
  );
}

function NotFound() {
  return <MissingPage title={t('vehicleNotFoundTitle')} text={t('vehicleNotFoundText')} to={paths.home} action={t('browseVehicles')} />;
}

/** A button that sends one choice (a day, a time), marked pressed when it is the one chosen. */
function ChoiceChip({
  chosen,
  className,
  ...button
}: {
  chosen: boolean;
  className: string;
  name: string;
  value: string;
  disabled: boolean;
  children: React.ReactNode;
}) {
  return (
    <button
      type="submit"
      aria-pressed={chosen}
      className={`inline-flex min-h-11 flex-col items-center justify-center rounded-xl px-3 py-2 text-sm font-semibold ring-1 ${className} ${chosen ? 'bg-brand-700 text-white ring-brand-700' : 'bg-white text-slate-800 ring-slate-300 hover:bg-slate-100'} disabled:bg-slate-100 disabled:text-slate-400`}
      {...button}
    />
  );
}

export default function TestDrive({ loaderData }: Route.ComponentProps) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  if (loaderData.state === 'not-found') return <NotFound />;
  const { vehicle } = loaderData;
  const heading = (
    <h1 className="text-2xl font-extrabold tracking-tight">{loaderData.state === 'ready' && loaderData.rescheduling ? t('changeTime') : t('bookTestDrive')}</h1>
  );

  if (loaderData.state === 'unavailable') {
    return (
      <div className="mx-auto flex max-w-2xl flex-col gap-4">
        {heading}
        <VehicleHeader vehicle={vehicle} />
        <FormMessage tone="error">{testDriveMessages.notForSale}</FormMessage>
        <Link to={paths.home} className={secondaryButton}>
          {t('seeCarsNow')}
        </Link>
      </div>
    );
  }
  if (loaderData.state === 'verify-phone') {
    return (
      <div className="mx-auto flex max-w-2xl flex-col gap-4">
        {heading}
        <VehicleHeader vehicle={vehicle} />
        <Card title={t('verifyPhoneTitle')}>
          <p className="text-slate-700">{testDriveMessages.verifyPhoneFirst}</p>
          <Link to={loaderData.verifyUrl} className={`${primaryButton} mt-4`}>
            {t('verifyPhone')}
          </Link>
        </Card>
      </div>
    );
  }

  const { days, date, slots, mode, pin, pinProblem, pinTyped, selected, rescheduling, areas, hubTo } = loaderData;
  const submitting = navigation.state === 'submitting' && navigation.formMethod === 'POST';
  const error = actionData && 'error' in actionData ? actionData.error : null;
  const fieldErrors: Record<string, string | undefined> = actionData && 'fields' in actionData ? actionData.fields : {};
  const typedAddress = actionData && 'address' in actionData ? (actionData.address as { street: string; landmark: string }) : { street: '', landmark: '' };
  const pinRefused = Boolean(pinProblem && pinTyped && mode === 'home');
  const place =
    mode === 'home'
      ? rescheduling?.address
        ? t('atHomeAddress', { address: rescheduling.address })
        : `${MODE_LABELS.home}${t('withPin', { pin })}`
      : MODE_LABELS.hub;
  const showSlots = !pinProblem;
  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-4">
      {heading}
      <VehicleHeader vehicle={vehicle} />
      {rescheduling ? (
        <p className="rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200">
          <RichText text={t('nowBookedFor', { slot: slotLabel(rescheduling.slot) })} parts={{ slot: (words) => <strong>{words}</strong> }} />
        </p>
      ) : null}
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}

      {/* One GET form: each choice reloads this page with it in the query. */}
      <Form method="get" preventScrollReset className="flex flex-col gap-4">
        {rescheduling ? <input type="hidden" name="reschedule" value={rescheduling.id} /> : null}
        <Card title={t('stepWhere')} id="where">
          {rescheduling ? (
            <p className="text-slate-700">{place}</p>
          ) : (
            // Keyed by the place asked for: the hub link and the browser's back load another place into the same page, and the radios and the PIN must show it.
            <fieldset key={`${mode}-${pin}`} className="flex flex-col gap-3">
              <legend className="sr-only">{t('whereLegend')}</legend>
              <div className="grid gap-2 sm:grid-cols-2">
                {(['hub', 'home'] as const).map((value) => (
                  <label
                    key={value}
                    className="flex cursor-pointer items-start gap-3 rounded-xl p-3 ring-1 ring-slate-300 has-[:checked]:bg-brand-50 has-[:checked]:ring-2 has-[:checked]:ring-brand-600"
                  >
                    <input type="radio" name="mode" value={value} defaultChecked={mode === value} className="mt-1 h-5 w-5 accent-brand-700" />
                    <span>
                      <span className="block font-semibold">{MODE_LABELS[value]}</span>
                      <span className="block text-sm text-slate-600">{value === 'hub' ? t('hubHint') : t('homeHint')}</span>
                    </span>
                  </label>
                ))}
              </div>
              <ServedAreas areas={areas} />
              <HomePinField
                hint={t('pinForHome')}
                pin={pin}
                refused={pinRefused}
                describedBy={pinProblem && mode === 'home' ? 'pin-error' : undefined}
                action={
                  <button type="submit" className={`${secondaryButton} whitespace-nowrap`}>
                    {t('showTimes')}
                  </button>
                }
              >
                {pinProblem && pinRefused ? <PinRefusal id="pin-error" message={pinProblem} hubTo={hubTo} /> : null}
                {pinProblem && !pinRefused ? (
                  <p id="pin-error" className="text-sm font-medium text-slate-700">
                    {pinProblem}
                  </p>
                ) : null}
              </HomePinField>
            </fieldset>
          )}
        </Card>

        {showSlots ? (
          <>
            <Card title={t('stepDay')} id="day">
              <div className="-mx-1 flex gap-2 overflow-x-auto px-1 pb-1">
                {days.map((day) => (
                  <ChoiceChip key={day.date} name="date" value={day.date} chosen={day.date === date} disabled={!day.open} className="shrink-0">
                    <span>{day.label.split(', ')[0]}</span>
                    <span className="whitespace-nowrap">{day.label.split(', ')[1]}</span>
                  </ChoiceChip>
                ))}
              </div>
            </Card>
            <Card title={t('stepTime')} id="time">
              <input type="hidden" name="date" value={date} />
              {slots.length === 0 ? (
                <p className="text-slate-700">{t('noTimesLeft', { day: dayLabel(date) })}</p>
              ) : (
                <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
                  {slots.map((slot) => (
                    <ChoiceChip
                      key={slot.start}
                      name="slot"
                      value={slot.start}
                      chosen={slot.start === selected}
                      disabled={slot.remaining <= 0}
                      className="disabled:line-through"
                    >
                      {/* Named by what it shows, the hour's end added for screen readers: "10 am – 11 am, 1 left" (WCAG 2.5.3). */}
                      <span>
                        {hourLabel(Number(slot.start.slice(11, 13)))}
                        <span className="sr-only"> – {hourLabel(Number(slot.start.slice(11, 13)) + 1)},</span>
                      </span>
                      <span className={`text-xs font-medium ${slot.start === selected ? 'text-brand-100' : slot.remaining <= 0 ? '' : 'text-emerald-700'}`}>
                        {remainingLabel(slot.remaining)}
                      </span>
                    </ChoiceChip>
                  ))}
                </div>
              )}
              <p className="mt-3 text-sm text-slate-600">{t('runHours', { hours: loaderData.hours, count: loaderData.leadHours })}</p>
            </Card>
          </>
        ) : null}
      </Form>

      {selected ? (
        <Card title={t('stepConfirm')} id="confirm">
          <dl className="grid gap-2 text-slate-800">
            <div className="flex justify-between gap-3">
              <dt className="text-slate-600">{t('when')}</dt>
              <dd className="text-right font-semibold">{slotLabel(selected)}</dd>
            </div>
            <div className="flex justify-between gap-3">
              <dt className="text-slate-600">{t('where')}</dt>
              <dd className="text-right font-semibold">{place}</dd>
            </div>
          </dl>
          <Form method="post" className="mt-4 flex flex-col gap-2">
            <input type="hidden" name="slot" value={selected} />
            <input type="hidden" name="mode" value={mode} />
            <input type="hidden" name="pinCode" value={mode === 'home' ? pin : ''} />
            {rescheduling ? <input type="hidden" name="reschedule" value={rescheduling.id} /> : null}
            {mode === 'home' && !rescheduling ? <HomeAddressFields values={typedAddress} errors={fieldErrors} /> : null}
            <button type="submit" disabled={submitting} className={primaryButton}>
              {submitting ? t('booking') : rescheduling ? t('confirmNewTime') : t('confirmTestDrive')}
            </button>
            <p className="text-sm text-slate-600">{t('sendNote')}</p>
          </Form>
        </Card>
      ) : null}
    </div>
  );
}
