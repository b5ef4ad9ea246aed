import { useEffect, useRef, useState } from 'react';
import { data, Form, Link, redirect, useFetcher, useLocation } from 'react-router';
import { answerError } from '../../server/http/action-errors.ts';
import { uploadsFrom, uploadTempDir, withUploadForm, type UploadForm } from '../../server/http/forms.ts';
import { honeypotFilled, leadFormLoader, leadProofFrom } from '../../server/leads/http/lead-intake.ts';
import { admitLead, parseSellLead, submitLead } from '../../server/leads/intake.ts';
import { FormCard, FormMessage, primaryButton, secondaryButton, SelectField, TextAreaField, TextField } from '../components/form.tsx';
import { settingsFor } from '../../server/admin/settings.ts';
import { InvalidInputError } from '../../server/errors.ts';
import type { SellEstimate } from '../../server/leads/sell-estimate.ts';
import { carFromCatalogue, estimateForSeller } from '../../server/leads/sell-estimates.ts';
import { carCatalogue } from '../../server/catalog/car-models.ts';
import { parseSellCar, SELL_CAR_LIMITS, sellCarFields, sellInspectionFor, type SellCar, type SellCarField } from '../features/sell/estimate-schemas.ts';
import { REGISTRATION_STATES, stateName } from '../lib/listing-filters/registration.ts';
import { currentLanguage } from '../lib/i18n/current.ts';
import { FUEL_TYPES, TRANSMISSIONS } from '../lib/vehicle-schema.ts';
import { formatKilometres, formatRupees } from '../lib/format.ts';
import { WhatsAppIcon } from '../components/icons.tsx';
import { Combobox } from '../components/combobox.tsx';
import { matchName, namesOf } from '../features/sell/car-models.ts';
import { rankByName } from '../lib/name-matching.ts';
import { carModelsText as carText } from '../lib/i18n/carModels.ts';
import { ContactFields, focusFirstError, Honeypot, leadFieldProps, PrivacyNotice, useLeadSubmission } from '../features/sell/lead-form-parts.tsx';
import { PhotoPicker } from '../features/sell/photo-picker.tsx';
import { useSite } from './site-layout.tsx';
import { appContext, type RequestContext } from '../context.ts';
import {
  cleanLine,
  cleanText,
  FORM_TOKEN_FIELD,
  formValues,
  imageFilesError,
  LEAD_LIMITS,
  leadMessages,
  MAX_SELL_IMAGES,
  parseSellForm,
  sellFields,
  type FieldErrors,
  type SellField,
} from '../lib/lead-forms.ts';
import { paths } from '../lib/paths.ts';
import { sellChatLink, type SellChatFields } from '../features/sell/sell-chat.ts';
import { pageMeta } from '../lib/seo.ts';
import { imageTooLarge } from '../lib/uploads.ts';
import type { Route } from './+types/sell-vehicle';
import { retryAfterHeaders } from '../lib/retry-after.ts';
import { sellText as t } from '../features/sell/sell-texts.ts';
import { typedFuelText, typedTransmissionText } from '../lib/listing-filters/options.ts';

/** A refusal by a rate limit keeps its Retry-After. */
export const headers = retryAfterHeaders;

export const meta = pageMeta(() => ({
  path: paths.sellVehicle,
  title: t('sellTitle'),
  description: t('sellMetaDescription'),
}));

/**
 * The page starts with the car (decision 081): a GET form, so the estimate is rendered by the
 * server on submit, works without script and can be reloaded. The sell form below carries
 * the car on, and the lead keeps it with its estimate.
 */
export async function loader(args: Route.LoaderArgs) {
  const services = args.context.get(appContext);
  const url = new URL(args.request.url);
  const asked = sellCarFields.some((field) => url.searchParams.has(field));
  const parsed = asked ? parseSellCar(url.searchParams) : null;
  const [catalogue, estimate] = await Promise.all([carCatalogue(services.database), parsed?.ok ? estimateOrRefusal(services, parsed.car) : null]);
  const typed = asked
    ? (Object.fromEntries(sellCarFields.map((field) => [field, (url.searchParams.get(field) ?? '').slice(0, 100)])) as Record<SellCarField, string>)
    : null;
  return {
    ...leadFormLoader('sell')(args),
    // Only this page carries the catalogue (about 15 KB of JSON in its HTML), for its pickers.
    catalogue: catalogue.map(({ id, name, hi, models }) => ({
      id,
      name,
      hi,
      models: models.map((model) => ({ id: model.id, name: model.name, hi: model.hi, body: model.body, fuels: model.fuels, variants: model.variants })),
    })),
    typed,
    car: estimate && 'car' in estimate ? estimate.car : null,
    carErrors: { ...(parsed && !parsed.ok ? parsed.errors : {}), ...(estimate && 'errors' in estimate ? estimate.errors : {}) },
    estimate: estimate && 'estimate' in estimate ? estimate.estimate : null,
  };
}

/** The car as the catalogue names it and its estimate, or the fields a service refused (a make not in the catalogue, a model year after this year). */
async function estimateOrRefusal(
  services: RequestContext,
  typed: SellCar,
): Promise<{ car: SellCar; estimate: SellEstimate } | { errors: Partial<Record<SellCarField, string>> }> {
  try {
    const car = await carFromCatalogue(services.database, typed);
    return { car, estimate: await estimateForSeller(services, await settingsFor(services), car) };
  } catch (error) {
    if (error instanceof InvalidInputError) return { errors: error.fields as Partial<Record<SellCarField, string>> };
    throw error;
  }
}

type Values = Record<(typeof sellFields)[number], string>;
export type SellResult =
  /** Saved: open this chat (with the photos' addresses unless `imagesFailed`). */
  | { status: 'sent'; chatUrl: string; imagesFailed: boolean }
  /** Something the visitor must fix first; no chat. */
  | { status: 'invalid'; errors: FieldErrors<SellField>; values: Values | null }
  /** Not saved on our side, but the chat opens anyway (SPEC 4), without photos. */
  | { status: 'not-saved'; message: string; chatUrl: string | null; values: Values | null };

function chatFields(values: Values): SellChatFields {
  return {
    name: cleanLine(values.name),
    phone: cleanLine(values.phone),
    vehicle: cleanLine(values.vehicle),
    year: cleanLine(values.year),
    price: cleanLine(values.price),
    description: cleanText(values.description),
  };
}

/**
 * One request carries the fields and the photos. With script the page opens the chat itself
 * (`via=script`); a plain form post is answered with a redirect to the chat instead.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const { config } = services;
  try {
    await admitLead(services, 'sell');
  } catch (error) {
    const answer = notSaved(services, error);
    return data<SellResult>({ status: 'not-saved', message: answer.message, chatUrl: null, values: null }, { status: answer.status, headers: answer.headers });
  }
  return withUploadForm(
    request,
    {
      tempDir: uploadTempDir(config.dataDir),
      maxFiles: MAX_SELL_IMAGES,
      messages: { tooLarge: leadMessages.formTooLarge, tooManyFiles: leadMessages.tooManyImages, fileTooLarge: imageTooLarge() },
    },
    (upload) => submitSell(services, upload),
    (error) => {
      const message =
        error.problem === 'file-too-large' ? t('fileRefused', { name: error.fileName || t('imageFallbackName'), message: error.message }) : error.message;
      // What was typed before the refused part comes back (the text fields come before the photos).
      const typed = [...error.fields.keys()].length > 0 ? formValues(error.fields, sellFields) : null;
      return data<SellResult>({ status: 'invalid', errors: { images: message }, values: typed }, { status: error.status });
    },
  );
}

/** What the visitor reads when the lead was refused or failed: the chat still opens (SPEC 4). */
function notSaved(services: RequestContext, error: unknown) {
  return answerError(error, services.logger, {
    prefix: (message) => t('notSavedMessage', { notSaved: leadMessages.sellNotSaved, message }),
    fallback: t('notSavedTryLater', { notSaved: leadMessages.sellNotSaved }),
    log: 'sell form: the submission could not be saved',
  });
}

async function submitSell(services: RequestContext, upload: UploadForm) {
  const { config, logger } = services;
  const form = upload.fields;
  const viaScript = form.get('via') === 'script';
  const values = formValues(form, sellFields);
  const chatWithoutPhotos = () => sellChatLink(config.whatsappNumber, chatFields(values));
  const finish = (result: SellResult, init: ResponseInit = {}) =>
    result.status === 'sent' && !viaScript ? redirect(result.chatUrl, 303) : data<SellResult>(result, init);

  // The car from the estimate step; a copy that no longer reads (edited by hand) is left out.
  const sellCar = parseSellCar(form, CAR_PREFIX);
  if (honeypotFilled(form, logger, 'sell')) return finish({ status: 'sent', chatUrl: chatWithoutPhotos(), imagesFailed: false });
  const parsed = parseSellLead(form);
  if (!parsed.ok) return finish({ status: 'invalid', errors: parsed.errors, values }, { status: 400 });
  try {
    const { imageUrls, imagesFailed } = await submitLead(
      services,
      { kind: 'sell', input: parsed.data, uploads: uploadsFrom(upload, 'images'), car: sellCar.ok ? sellCar.car : null },
      leadProofFrom(form),
    );
    return finish({ status: 'sent', chatUrl: sellChatLink(config.whatsappNumber, parsed.data, imageUrls), imagesFailed });
  } catch (error) {
    const answer = notSaved(services, error);
    // A photo to change: the visitor fixes the form, no chat yet.
    if (answer.status === 400) return finish({ status: 'invalid', errors: { images: answer.fields.images ?? answer.message }, values }, { status: 400 });
    return finish({ status: 'not-saved', message: answer.message, chatUrl: chatWithoutPhotos(), values }, { status: answer.status, headers: answer.headers });
  }
}

/** The sell form's hidden copy of the car's fields is named `car-make`, `car-model`… */
const CAR_PREFIX = 'car-';

const OWNER_CHOICES = [1, 2, 3, 4, 5] as const;
const ordinal = (count: number) => t('ownerNth', { nth: count === 1 ? t('nth1') : count === 2 ? t('nth2') : count === 3 ? t('nth3') : t('nthN', { count }) });

/** 'Hyundai Creta SX': the car as the catalogue names it. */
const carName = (car: SellCar) => [car.make, car.model, car.variant].filter(Boolean).join(' ');

/** What the sell form starts with when the car is known: the model, the year and a line about it. */
function sellDefaults(car: SellCar): Partial<Values> {
  return {
    vehicle: carName(car),
    year: String(car.year),
    description: t('carDescription', {
      km: formatKilometres(car.km),
      owner: ordinal(car.owners),
      fuel: typedFuelText(car.fuel),
      transmission: typedTransmissionText(car.transmission).toLowerCase(),
      state: stateName(car.registrationState),
    }),
  };
}

/** Step 1: the car, and its estimate once asked. */
function CarStep({ loaderData }: { loaderData: Route.ComponentProps['loaderData'] }) {
  const { typed, carErrors, estimate, car } = loaderData;
  const location = useLocation();
  const value = (field: SellCarField) => typed?.[field] ?? '';
  const error = (field: SellCarField) => carErrors[field];
  const resultRef = useRef<HTMLHeadingElement>(null);

  // After "See my estimate" the result is below the form (about 1,100 px down on a phone): it is
  // brought into view and focused, so the seller and a screen reader land on it. Without script
  // the form's #estimate does the scrolling. Only on a navigation, not when the page's data is
  // read again after the sell form below is sent.
  useEffect(() => {
    if (resultRef.current) {
      resultRef.current.scrollIntoView({ block: 'start' });
      resultRef.current.focus({ preventScroll: true });
    } else if (Object.keys(carErrors).length > 0) {
      focusFirstError(document.getElementById('car-step-form') as HTMLFormElement | null, carErrors);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per navigation
  }, [location.key]);

  return (
    <section aria-labelledby="car-step" className="mb-8">
      <h2 id="car-step" className="mb-1 text-lg font-bold">
        {t('stepCar')}
      </h2>
      <p className="mb-4 text-slate-700">{t('stepCarIntro')}</p>
      <Form key={location.key} id="car-step-form" method="get" action={`${paths.sellVehicle}#${ESTIMATE_ID}`} className="grid gap-4 sm:grid-cols-2" noValidate>
        <CarPickers
          catalogue={loaderData.catalogue}
          initial={{ make: car?.make ?? value('make'), model: car?.model ?? value('model'), variant: car?.variant ?? value('variant') }}
          errors={carErrors}
          unlisted={car?.unlisted ?? value('unlisted') === 'true'}
        />
        <TextField
          id="car-year"
          name="year"
          label={t('modelYear')}
          inputMode="numeric"
          placeholder={t('modelYearPlaceholder')}
          defaultValue={value('year')}
          error={error('year')}
          maxLength={4}
          aria-required
        />
        <TextField
          id="car-km"
          name="km"
          label={t('kmDriven')}
          inputMode="numeric"
          placeholder={t('kmPlaceholder')}
          defaultValue={value('km')}
          error={error('km')}
          maxLength={9}
          aria-required
        />
        <SelectField id="car-fuel" name="fuel" label={t('fuel')} defaultValue={value('fuel')} error={error('fuel')} aria-required>
          <option value="">{t('choose')}</option>
          {FUEL_TYPES.map((fuel) => (
            <option key={fuel} value={fuel}>
              {typedFuelText(fuel)}
            </option>
          ))}
        </SelectField>
        <SelectField
          id="car-transmission"
          name="transmission"
          label={t('transmission')}
          defaultValue={value('transmission')}
          error={error('transmission')}
          aria-required
        >
          <option value="">{t('choose')}</option>
          {TRANSMISSIONS.map((transmission) => (
            <option key={transmission} value={transmission}>
              {typedTransmissionText(transmission)}
            </option>
          ))}
        </SelectField>
        <SelectField id="car-owners" name="owners" label={t('ownersSoFar')} defaultValue={value('owners') || '1'} error={error('owners')}>
          {OWNER_CHOICES.map((count) => (
            <option key={count} value={count}>
              {count === 5 ? t('fiveOrMore') : count}
            </option>
          ))}
        </SelectField>
        <SelectField
          id="car-state"
          name="registrationState"
          label={t('registeredIn')}
          defaultValue={value('registrationState')}
          error={error('registrationState')}
          aria-required
        >
          <option value="">{t('chooseState')}</option>
          {Object.entries(REGISTRATION_STATES)
            .filter(([code, name], index, all) => all.findIndex(([, other]) => other === name) === index || code === value('registrationState'))
            .map(([code]) => [code, stateName(code)] as const)
            .sort((a, b) => a[1].localeCompare(b[1], currentLanguage()))
            .map(([code, name]) => (
              <option key={code} value={code}>
                {/* A Hindi reader picks the state by its name; the code is the English list's help. */}
                {currentLanguage() === 'en' ? `${name} (${code})` : name}
              </option>
            ))}
        </SelectField>
        <button type="submit" className={`${secondaryButton} sm:col-span-2`}>
          {car ? t('estimateAgain') : t('seeEstimate')}
        </button>
      </Form>
      {estimate && car ? <EstimateCard estimate={estimate} car={car} headingRef={resultRef} /> : null}
    </section>
  );
}

/** The estimate's heading: the form's #fragment and the focus after "See my estimate" land on it. */
const ESTIMATE_ID = 'estimate';

type PickerCatalogue = Route.ComponentProps['loaderData']['catalogue'];

/**
 * Make, model and variant from the catalogue of cars sold in India (decision 098): each a
 * combobox offering the names nearest to what is typed ('hundai' offers Hyundai), by the same
 * matcher the server reads the form with. A car not in the list is sent as typed with the box
 * below ticked.
 */
function CarPickers({
  catalogue,
  initial,
  errors,
  unlisted,
}: {
  catalogue: PickerCatalogue;
  initial: { make: string; model: string; variant: string };
  errors: Partial<Record<SellCarField, string>>;
  unlisted: boolean;
}) {
  const [make, setMake] = useState(initial.make);
  const [model, setModel] = useState(initial.model);
  const [variant, setVariant] = useState(initial.variant);
  const chosenMake = make.trim() ? matchName(make, catalogue, namesOf).found : null;
  const chosenModel = chosenMake && model.trim() ? matchName(model, chosenMake.models, namesOf).found : null;
  const ranked = <T extends { name: string; hi: string; id: string }>(text: string, entries: readonly T[]) =>
    (text.trim() ? rankByName(text, entries, namesOf) : entries).map((entry) => ({ value: entry.name, aside: entry.hi }));
  return (
    <>
      <Combobox
        id="car-make"
        name="make"
        label={t('make')}
        value={make}
        onChange={(next) => {
          // Another make's models no longer fit.
          if (next !== make && chosenMake && matchName(next, catalogue, namesOf).found !== chosenMake) {
            setModel('');
            setVariant('');
          }
          setMake(next);
        }}
        optionsFor={(text) => ranked(text, catalogue)}
        placeholder={t('makePlaceholder')}
        error={errors.make}
        maxLength={SELL_CAR_LIMITS.make}
        required
        emptyText={carText('noMatch')}
      />
      <Combobox
        id="car-model"
        name="model"
        label={t('model')}
        value={model}
        onChange={(next) => {
          if (next !== model) setVariant('');
          setModel(next);
        }}
        optionsFor={(text) => (chosenMake ? ranked(text, chosenMake.models) : [])}
        placeholder={t('modelPlaceholder')}
        error={errors.model}
        maxLength={SELL_CAR_LIMITS.model}
        required
        emptyText={chosenMake ? carText('noMatch') : carText('chooseMakeFirst')}
      />
      <Combobox
        id="car-variant"
        name="variant"
        label={carText('variantOptional')}
        value={variant}
        onChange={setVariant}
        optionsFor={(text) =>
          chosenModel ? (text.trim() ? rankByName(text, chosenModel.variants, (name) => [name]) : chosenModel.variants).map((name) => ({ value: name })) : []
        }
        placeholder={carText('variantPlaceholder', { example: 'SX' })}
        error={errors.variant}
        maxLength={SELL_CAR_LIMITS.variant}
        emptyText={carText('noMatch')}
      />
      <div className="flex items-start gap-3 self-end rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200">
        <input
          id="car-unlisted"
          type="checkbox"
          name="unlisted"
          value="true"
          defaultChecked={unlisted}
          aria-describedby="car-unlisted-hint"
          className="mt-1 h-5 w-5 shrink-0 accent-brand-700"
        />
        <div>
          <label htmlFor="car-unlisted" className="font-semibold">
            {carText('notListed')}
          </label>
          <p id="car-unlisted-hint" className="text-sm text-slate-600">
            {carText('notListedHint')}
          </p>
        </div>
      </div>
    </>
  );
}

function EstimateCard({ estimate, car, headingRef }: { estimate: SellEstimate; car: SellCar; headingRef: React.RefObject<HTMLHeadingElement | null> }) {
  return (
    <div className="mt-5 rounded-2xl border border-brand-200 bg-brand-50 p-4">
      {estimate.kind === 'range' ? (
        <>
          <h3
            id={ESTIMATE_ID}
            ref={headingRef}
            tabIndex={-1}
            className="scroll-mt-24 text-sm font-semibold text-slate-700 outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
          >
            {t('worthAbout', { car: `${car.year} ${carName(car)}` })}
          </h3>
          <p className="mt-1 text-2xl font-bold text-brand-700">
            <span className="whitespace-nowrap">{formatRupees(estimate.low)} –</span> <span className="whitespace-nowrap">{formatRupees(estimate.high)}</span>
          </p>
          <p className="mt-2 text-sm text-slate-700">{estimate.summary}</p>
          <p className="mt-2 text-sm text-slate-700">{t('firmOffer')}</p>
        </>
      ) : (
        <>
          <h3
            id={ESTIMATE_ID}
            ref={headingRef}
            tabIndex={-1}
            className="scroll-mt-24 font-semibold outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
          >
            {t('cannotEstimate')}
          </h3>
          <p className="mt-1 text-sm text-slate-700">{estimate.summary}</p>
        </>
      )}
      <Link to={sellInspectionFor(car)} className={`${primaryButton} mt-3`}>
        {t('bookInspection')}
      </Link>
      <p className="mt-2 text-sm text-slate-600">{t('orSendBelow')}</p>
    </div>
  );
}

/** The scripted submission in flight: its tab (null when the browser blocked it), its form, and a chat link for when the server gives none. */
type PendingSubmission = { tab: Window | null; form: HTMLFormElement; chatWithoutPhotos: string };
let pending: PendingSubmission | null = null;

/** What the page shows after a scripted submission: the server's result, the chat and whether its tab opened. */
export type SellOutcome = SellResult & { tabOpened: boolean };

/**
 * Points the tab opened within the click at the chat once the save has answered. A save that
 * never answered (connection lost, server down) still opens the chat, without photos (SPEC 4).
 */
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  const submission = pending;
  pending = null;
  let result: SellResult;
  // Answered as a 503 when the save never answered, so the router does not reload the page's
  // data over the same dead connection (that failure would replace the form with an error page).
  let unanswered = false;
  try {
    result = await serverAction();
  } catch {
    unanswered = true;
    result = { status: 'not-saved', message: t('notSavedCheckConnection', { notSaved: leadMessages.sellNotSaved }), chatUrl: null, values: null };
  }
  let outcome: SellOutcome = { ...result, tabOpened: false };
  if (submission && result.status === 'invalid') submission.tab?.close();
  if (submission && result.status !== 'invalid') {
    const chatUrl = result.chatUrl ?? submission.chatWithoutPhotos;
    const tabOpened = Boolean(submission.tab && !submission.tab.closed);
    if (tabOpened) submission.tab!.location.href = chatUrl;
    if (result.status === 'sent') submission.form.reset();
    outcome = { ...result, chatUrl, tabOpened };
  }
  return unanswered ? data<SellOutcome>(outcome, { status: 503 }) : outcome;
}

/** Shows "Opening WhatsApp…" in the tab opened within the click, until the chat's address is known. */
function openPlaceholderTab(): Window | null {
  const tab = window.open('', '_blank');
  if (!tab) return null;
  try {
    // The chat must not be able to reach back into this page.
    tab.opener = null;
    tab.document.title = t('openingWhatsapp');
    tab.document.body.style.font = '16px system-ui, sans-serif';
    tab.document.body.textContent = t('openingWhatsapp');
  } catch {
    // Nothing more to do: the address is set when the save answers.
  }
  return tab;
}

export default function SellVehicle({ loaderData, actionData }: Route.ComponentProps) {
  const site = useSite();
  const fetcher = useFetcher<typeof clientAction>();
  const { solving, clientErrors, fieldsToSend } = useLeadSubmission<SellField>('SELL_FORM');
  const formRef = useRef<HTMLFormElement>(null);
  // Results stay on screen until the next submission starts.
  const [dismissed, setDismissed] = useState<readonly unknown[]>([]);
  const busy = solving || fetcher.state !== 'idle';

  // With script the result is the fetcher's; without, the page's action data (a document post).
  const scripted = fetcher.state === 'idle' && fetcher.data && !dismissed.includes(fetcher.data) ? fetcher.data : undefined;
  const plain = actionData && !dismissed.includes(actionData) ? actionData : undefined;
  const result: SellResult | undefined = scripted ?? plain;
  const tabOpened = scripted?.tabOpened ?? false;
  const chatUrl = result && result.status !== 'invalid' ? result.chatUrl : null;
  const errors: FieldErrors<SellField> = clientErrors ?? (result?.status === 'invalid' ? result.errors : {});
  const carDefaults = loaderData.car ? sellDefaults(loaderData.car) : {};
  const values: Partial<Values> = (plain && plain.status !== 'sent' ? plain.values : null) ?? carDefaults;

  useEffect(() => {
    if (result?.status === 'invalid') focusFirstError(formRef.current, result.errors);
  }, [result]);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    setDismissed([fetcher.data, actionData]);
    const fields = await fieldsToSend(
      event,
      busy,
      (typed) => {
        const parsed = parseSellForm(typed);
        const imageError = imageFilesError(typed.getAll('images').filter((value): value is File => typeof value !== 'string'));
        return { ...(parsed.ok ? {} : parsed.errors), ...(imageError ? { images: imageError } : {}) };
      },
      // Browsers only allow a new tab during the click itself, not after the upload's await:
      // open it now and point it at the chat when the save answers (a link is shown as well).
      (form, typed) => {
        pending = { tab: openPlaceholderTab(), form, chatWithoutPhotos: sellChatLink(site.whatsappNumber, chatFields(formValues(typed, sellFields))) };
      },
    );
    if (!fields) return;
    fields.set('via', 'script');
    await fetcher.submit(fields, { method: 'post', action: paths.sellVehicle, encType: 'multipart/form-data' });
  }

  const field = leadFieldProps<SellField>('sell', errors, values, ['description']);

  return (
    <FormCard title={t('sellTitle')}>
      <CarStep loaderData={loaderData} />
      <h2 className="mb-1 text-lg font-bold">{t('stepSend')}</h2>
      <p className="mb-5 text-slate-700">{t('stepSendIntro')}</p>
      <form
        key={loaderData.car ? JSON.stringify(loaderData.car) : 'no-car'}
        ref={formRef}
        method="post"
        action={paths.sellVehicle}
        encType="multipart/form-data"
        className="relative flex flex-col gap-4"
        onSubmit={onSubmit}
        noValidate
      >
        <ContactFields field={field} />
        <TextField {...field('vehicle')} label={t('vehicleModel')} placeholder={t('vehicleModelPlaceholder')} maxLength={LEAD_LIMITS.vehicle} />
        <TextField {...field('year')} label={t('year')} inputMode="numeric" placeholder={t('yearPlaceholder')} maxLength={LEAD_LIMITS.sellYear} />
        <TextField {...field('price')} label={t('expectedPrice')} placeholder={t('pricePlaceholder')} maxLength={LEAD_LIMITS.price} />
        <TextAreaField
          {...field('description')}
          label={t('descriptionOptional')}
          placeholder={t('descriptionPlaceholder')}
          maxLength={LEAD_LIMITS.description}
        />
        <PhotoPicker id="sell-images" name="images" error={errors.images} />
        {loaderData.car
          ? sellCarFields.map((name) => <input key={name} type="hidden" name={`${CAR_PREFIX}${name}`} value={String(loaderData.car![name])} />)
          : null}
        <Honeypot />
        <input type="hidden" name={FORM_TOKEN_FIELD} value={loaderData.formToken} />
        <PrivacyNotice>{t('sellPrivacy', { site: site.siteName })}</PrivacyNotice>
        <div aria-live="polite" className="flex flex-col gap-3 empty:hidden">
          {result?.status === 'sent' ? (
            <FormMessage tone="success">
              {t('thankYouReceived')} {tabOpened ? t('whatsappOpened') : t('openWhatsappToSend')}
              {result.imagesFailed ? t('photosFailed') : ''}
            </FormMessage>
          ) : null}
          {result?.status === 'not-saved' ? (
            <FormMessage tone="error">
              {result.message} {t('detailsStillInForm')} {tabOpened ? t('whatsappOpenedStill') : t('canStillSend')}
            </FormMessage>
          ) : null}
          {chatUrl && result?.status !== 'invalid' ? (
            <a
              href={chatUrl}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex items-center justify-center gap-2 rounded-xl bg-whatsapp px-5 py-3 font-semibold text-white hover:brightness-110"
            >
              <WhatsAppIcon className="h-5 w-5" /> {t('openWhatsappChat')}
            </a>
          ) : null}
        </div>
        <button type="submit" disabled={busy} className={primaryButton}>
          {busy ? (
            t('uploading')
          ) : (
            <>
              <WhatsAppIcon className="h-5 w-5" /> {t('sendViaWhatsapp')}
            </>
          )}
        </button>
      </form>
    </FormCard>
  );
}
