import { data, Form, Link, redirect, useActionData, useNavigation } from 'react-router';
import { ensureProfile } from '../../server/accounts/profiles.ts';
import { settingsFor } from '../../server/admin/settings.ts';
import { currentUser } from '../../server/auth/session.ts';
import { answerError } from '../../server/http/action-errors.ts';
import { FormReadError, readFormOrError } from '../../server/http/forms.ts';
import { answerOffer } from '../../server/inspections/inspection-desk.ts';
import { INSPECTION } from '../../server/appointments/kinds.ts';
import { NotFoundError } from '../../server/errors.ts';
import { flashHeaders } from '../../server/http/flash.ts';
import {
  bookInspection,
  cancelOwnInspection,
  inspectionMessages,
  inspectionSlots,
  listOwnInspections,
  rescheduleOwnInspection,
} from '../../server/inspections/inspections.ts';
import { FormMessage, inputClass, primaryButton, secondaryButton } from '../components/form.tsx';
import { appContext, type AppServices } from '../context.ts';
import { cleanLine, parseId } from '../lib/input.ts';
import { withNetworkErrorMessage } from '../lib/network.ts';
import { formError, zodFormErrors } from '../lib/form-errors.ts';
import { pageAddress, paths } from '../lib/paths.ts';
import { typedPinCode } from '../lib/pin-code.ts';
import { inspectionBodySchema } from '../features/appointments/inspection-schemas.ts';
import { servedAreaProblem, sortedAreas } from '../lib/service-areas.ts';
import { homeAddressLine } from '../features/appointments/home-address.ts';
import { HomeAddressFields, HomePinField, PinRefusal, ServedAreas } from '../features/appointments/home-visit.tsx';
import { parseSellCar, sellCarFields, sellInspectionFor, type SellCar } from '../features/sell/estimate-schemas.ts';
import { seo, siteFromMatches } from '../lib/seo.ts';
import {
  bookableDays,
  dayLabel,
  daySlots,
  hourLabel,
  MODE_LABELS,
  remainingLabel,
  slotLabel,
  slotTimeRange,
  type TestDriveMode,
} from '../features/appointments/test-drives.ts';
import { retryAfterHeaders } from '../lib/retry-after.ts';
import type { Route } from './+types/sell-inspection';
import { sellText as t } from '../features/sell/sell-texts.ts';
import { typedFuelText, typedTransmissionText } from '../lib/listing-filters/options.ts';
import { RichText } from '../lib/i18n/rich.tsx';
import { parseIndiaDate } from '../lib/india-time.ts';

/**
 * Booking an inspection of the seller's car (decision 081), after its estimate: where (hub, or
 * home in an area we visit, the areas listed before one types; decision 097), which day, which
 * hour, and for home the street address and landmark (posted, never in the URL); the car
 * travels in the query string.
 * `?reschedule=ID` moves one's own upcoming inspection; the profile cancels through this action.
 */

export const headers = retryAfterHeaders;

export function meta({ matches }: Route.MetaArgs) {
  return seo({ site: siteFromMatches(matches), path: paths.sellInspection, title: t('inspectionTitle'), noIndex: true });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  const url = new URL(request.url);
  const here = pageAddress(url);
  const user = await currentUser(services.auth, request);
  if (!user) throw redirect(paths.loginThen(here));
  const profile = await ensureProfile(services.database, user, services.clock.now());
  if (!profile.phoneVerified) return { state: 'verify-phone' as const, verifyUrl: paths.profileCompleteThen(here) };

  const query = url.searchParams;
  const rescheduleId = parseId(query.get('reschedule') ?? '');
  const rescheduling =
    rescheduleId === null ? null : ((await listOwnInspections(services, user.id)).find((item) => item.id === rescheduleId && item.changeable) ?? null);
  const parsedCar = parseSellCar(query);
  const car: SellCar | null = rescheduling?.car ?? (parsedCar.ok ? parsedCar.car : null);
  if (!car) return { state: 'no-car' as const };

  const settings = await settingsFor(services);
  const rules = INSPECTION.rules(settings);
  const now = services.clock.now();
  const mode: TestDriveMode = rescheduling?.mode ?? (query.get('mode') === 'home' ? 'home' : 'hub');
  const pin = rescheduling?.pinCode ?? typedPinCode(cleanLine(query.get('pin'), 12));
  // A moved inspection keeps its place; a new one at home needs a PIN code in an area we visit.
  const pinProblem = !rescheduling && mode === 'home' ? servedAreaProblem(pin, settings.serviceAreas, services.config.contactAddress) : null;
  const days = bookableDays(now, rules).map((date) => ({ date, label: dayLabel(date), open: daySlots(date, now, rules).length > 0 }));
  const asked = parseIndiaDate(query.get('date'));
  const date = asked && days.some((day) => day.date === asked) ? asked : (days.find((day) => day.open)?.date ?? days[0]!.date);
  return {
    state: 'ready' as const,
    car,
    mode,
    pin,
    pinProblem,
    areas: sortedAreas(settings.serviceAreas),
    hubTo: `${sellInspectionFor(car)}&mode=hub&date=${date}`,
    days,
    date,
    slots: await inspectionSlots(services, rules, date),
    rescheduling: rescheduling
      ? { id: rescheduling.id, slot: rescheduling.slot, address: rescheduling.mode === 'home' ? homeAddressLine(rescheduling) : '' }
      : null,
    hours: t('openingHours', { from: hourLabel(rules.openingHour), to: hourLabel(rules.closingHour) }),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const user = await currentUser(services.auth, request);
  const form = await readFormOrError(request);
  if (!user) {
    // Signed out while booking (the session ended): back to this booking with the car after signing in.
    const car = form instanceof FormReadError ? null : parseSellCar(form);
    throw redirect(paths.loginThen(car?.ok ? sellInspectionFor(car.car) : paths.sellVehicle));
  }
  // A control character (a pasted NUL) is refused at the edge: said beside the field it was in.
  if (form instanceof FormReadError) return data(formError(form.message, form.field ? { [form.field]: form.message } : {}), { status: form.status });
  const text = (name: string) => cleanLine(form.get(name), 40);
  // The address as typed (bounded): the schema refuses a control character beside its field rather than dropping it.
  const typed = (name: string) => String(form.get(name) ?? '').slice(0, 1000);
  const address = { street: typed('street'), landmark: typed('landmark') };
  try {
    const intent = text('intent');
    // Accepting binds the seller to the amount: without the confirmation step's `confirm`, it asks first.
    if (intent === 'accept-offer' && text('confirm') !== 'yes') throw redirect(paths.confirmOffer(parseId(text('id')) ?? 0));
    if (intent === 'accept-offer' || intent === 'decline-offer')
      return await answerOfferFromProfile(services, user.id, parseId(text('id')), intent === 'accept-offer' ? 'accept' : 'decline');
    if (intent === 'cancel' || intent === 'reschedule') {
      const id = parseId(text('id'));
      if (id === null) return data({ error: t('inspectionNotFound') }, { status: 404 });
      if (intent === 'cancel') {
        await cancelOwnInspection(services, { id, userId: user.id });
        throw redirect(`${paths.profileWithNotice('inspection', 'cancelled')}#inspections`);
      }
      await rescheduleOwnInspection(services, await settingsFor(services), { id, userId: user.id, slot: text('slot') });
      throw redirect(`${paths.profileWithNotice('inspection', 'rescheduled')}#inspections`);
    }
    const car = Object.fromEntries(sellCarFields.map((field) => [field, cleanLine(form.get(field), 100)]));
    const parsed = inspectionBodySchema.safeParse({ car, mode: text('mode'), slot: text('slot'), pinCode: text('pinCode'), ...address });
    if (!parsed.success) {
      const refused = zodFormErrors(parsed.error);
      return data({ ...refused, error: refused.error || t('chooseTime'), address }, { status: 400 });
    }
    await bookInspection(services, await settingsFor(services), { ...parsed.data, userId: user.id });
  } catch (error) {
    if (error instanceof Response) throw error;
    const answer = answerError(error, services.logger, { fallback: t('inspectionBookFailed'), log: 'inspection page failed' });
    return data({ ...formError(answer.message, { ...answer.fields }), address }, { status: answer.status, headers: answer.headers });
  }
  throw redirect(`${paths.profileWithNotice('inspection', 'booked')}#inspections`);
}

/** The seller's answer to the desk's offer, from the profile: back there with what happened, a refusal included (decision 084). */
async function answerOfferFromProfile(services: AppServices, userId: string, id: number | null, answer: 'accept' | 'decline'): Promise<never> {
  try {
    if (id === null) throw new NotFoundError(inspectionMessages.notYours);
    await answerOffer(services, await settingsFor(services), { id, userId, answer });
  } catch (error) {
    const refused = answerError(error, services.logger, { fallback: t('answerSaveFailed'), log: 'offer answer failed', context: { id } });
    throw redirect(`${paths.profile}#inspections`, { headers: await flashHeaders(services.config.authSecret, { tone: 'error', text: refused.message }) });
  }
  throw redirect(`${paths.profileWithNotice('inspection', answer === 'accept' ? 'offer-accepted' : 'offer-declined')}#inspections`);
}

export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  return withNetworkErrorMessage(serverAction);
}

function CarHiddenFields({ car }: { car: SellCar }) {
  return sellCarFields.map((field) => <input key={field} type="hidden" name={field} value={String(car[field])} />);
}

export default function SellInspection({ loaderData }: Route.ComponentProps) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const error = actionData && 'error' in actionData ? actionData.error : null;
  const shell = (children: React.ReactNode) => (
    <div className="mx-auto flex max-w-2xl flex-col gap-4">
      <h1 className="text-2xl font-extrabold tracking-tight">
        {loaderData.state === 'ready' && loaderData.rescheduling ? t('changeInspectionTime') : t('inspectionTitle')}
      </h1>
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      {children}
    </div>
  );
  if (loaderData.state === 'verify-phone') {
    return shell(
      <section className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
        <p className="text-slate-700">{t('verifyPhoneFirst')}</p>
        <Link to={loaderData.verifyUrl} className={`${primaryButton} mt-4`}>
          {t('verifyPhone')}
        </Link>
      </section>,
    );
  }
  if (loaderData.state === 'no-car') {
    return shell(
      <section className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
        <p className="text-slate-700">{t('carFirst')}</p>
        <Link to={paths.sellVehicle} className={`${primaryButton} mt-4`}>
          {t('describeCar')}
        </Link>
      </section>,
    );
  }
  const { car, mode, pin, pinProblem, areas, hubTo, days, date, slots, rescheduling, hours } = loaderData;
  const submitting = navigation.state === 'submitting' && navigation.formMethod === 'POST';
  const fieldErrors: Record<string, string | undefined> = actionData && 'fields' in actionData ? (actionData.fields as Record<string, string>) : {};
  const typedAddress = actionData && 'address' in actionData ? (actionData.address as { street: string; landmark: string }) : { street: '', landmark: '' };
  // A PIN code not typed yet is asked for, not refused.
  const pinRefused = Boolean(pinProblem && pin);
  const open = slots.filter((slot) => slot.remaining > 0);
  return shell(
    <>
      <p className="rounded-xl bg-white px-4 py-3 font-semibold shadow-sm ring-1 ring-slate-200">
        {t('carLine', {
          car: `${car.year} ${car.make} ${car.model}`,
          fuel: typedFuelText(car.fuel),
          transmission: typedTransmissionText(car.transmission).toLowerCase(),
        })}
      </p>
      {rescheduling ? (
        <p className="rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200">
          <RichText text={t('nowBooked')} parts={{ when: () => <strong>{slotLabel(rescheduling.slot)}</strong> }} />
        </p>
      ) : null}
      {/* Keyed by the place asked for: the hub link loads another place into the same page, and the radios and the PIN must show it. */}
      <Form key={`${mode}-${pin}`} method="get" preventScrollReset className="flex flex-col gap-4 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
        {rescheduling ? <input type="hidden" name="reschedule" value={rescheduling.id} /> : <CarHiddenFields car={car} />}
        <h2 className="text-lg font-bold">{t('whereWhen')}</h2>
        {rescheduling ? (
          <p className="text-slate-700">
            {mode === 'home'
              ? rescheduling.address
                ? `${MODE_LABELS.home}: ${rescheduling.address}`
                : t('homeWithPin', { mode: MODE_LABELS.home, pin })
              : MODE_LABELS.hub}
          </p>
        ) : (
          <fieldset className="grid gap-2 sm:grid-cols-2">
            <legend className="sr-only">{t('whereInspect')}</legend>
            {(['hub', 'home'] as const).map((value) => (
              <label
                key={value}
                className="flex cursor-pointer items-start gap-3 rounded-xl p-3 ring-1 ring-slate-300 has-[:checked]:bg-brand-50 has-[:checked]:ring-2 has-[:checked]:ring-brand-600"
              >
                <input type="radio" name="mode" value={value} defaultChecked={mode === value} className="mt-1 h-5 w-5 accent-brand-700" />
                <span>
                  <span className="block font-semibold">{value === 'hub' ? t('atHub') : t('atHome')}</span>
                  <span className="block text-sm text-slate-600">{value === 'hub' ? t('atHubText') : t('atHomeText')}</span>
                </span>
              </label>
            ))}
          </fieldset>
        )}
        {rescheduling ? null : (
          <>
            <ServedAreas areas={areas} />
            <HomePinField hint={t('pinForHome')} pin={pin} refused={pinRefused} describedBy={pinRefused ? 'pin-error' : undefined}>
              {pinProblem && pinRefused ? <PinRefusal id="pin-error" message={pinProblem} hubTo={hubTo} /> : null}
            </HomePinField>
          </>
        )}
        <label className="flex flex-col gap-1">
          <span className="font-semibold">{t('day')}</span>
          <select name="date" defaultValue={date} className={inputClass}>
            {days.map((day) => (
              <option key={day.date} value={day.date} disabled={!day.open}>
                {day.label}
                {day.open ? '' : t('noTimesLeftSuffix')}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className={secondaryButton}>
          {t('showTimes')}
        </button>
      </Form>
      {pinProblem ? null : (
        <Form method="post" className="flex flex-col gap-4 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
          <h2 className="text-lg font-bold">{t('timeOn', { day: dayLabel(date) })}</h2>
          <p className="text-sm text-slate-600">{t('inspectionsTake', { hours })}</p>
          {rescheduling ? (
            <>
              <input type="hidden" name="intent" value="reschedule" />
              <input type="hidden" name="id" value={rescheduling.id} />
            </>
          ) : (
            <>
              <CarHiddenFields car={car} />
              <input type="hidden" name="mode" value={mode} />
              <input type="hidden" name="pinCode" value={pin} />
            </>
          )}
          {open.length === 0 ? (
            <p className="text-slate-700">{t('noTimesLeft')}</p>
          ) : (
            <fieldset className="grid grid-cols-2 gap-2 sm:grid-cols-4">
              <legend className="sr-only">{t('chooseATime')}</legend>
              {slots.map((slot) => (
                <label
                  key={slot.start}
                  title={slotTimeRange(slot.start)}
                  className="flex cursor-pointer flex-col items-center rounded-xl p-2 text-center text-sm ring-1 ring-slate-300 has-[:checked]:bg-brand-700 has-[:checked]:text-white has-[:disabled]:bg-slate-100 has-[:disabled]:text-slate-400"
                >
                  <input type="radio" name="slot" value={slot.start} disabled={slot.remaining === 0} className="sr-only" required />
                  {/* The start is enough on a chip: every slot is an hour (said above). */}
                  <span className="font-semibold">{hourLabel(Number(slot.start.slice(11, 13)))}</span>
                  <span className="text-xs">{remainingLabel(slot.remaining)}</span>
                </label>
              ))}
            </fieldset>
          )}
          {mode === 'home' && !rescheduling && open.length > 0 ? <HomeAddressFields values={typedAddress} errors={fieldErrors} /> : null}
          <button type="submit" disabled={submitting || open.length === 0} className={primaryButton}>
            {submitting ? t('booking') : rescheduling ? t('moveInspection') : t('bookTheInspection')}
          </button>
        </Form>
      )}
    </>,
  );
}
