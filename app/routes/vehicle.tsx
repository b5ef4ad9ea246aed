import { data, Link, redirect, useNavigate } from 'react-router';
import { setWishlisted } from '../../server/accounts/wishlist.ts';
import { answerError } from '../../server/http/action-errors.ts';
import { currentUser } from '../../server/auth/session.ts';
import { getVehicle } from '../../server/catalog/vehicles.ts';
import { settingsFor } from '../../server/admin/settings.ts';
import { financeTerms } from '../../server/catalog/settings.ts';
import { CompareToggle } from '../features/compare/compare.tsx';
import { EmiCalculator } from '../features/emi/emi-calculator.tsx';
import { EmiFrom } from '../features/emi/emi-from.tsx';
import { MissingPage } from '../components/empty-state.tsx';
import { calculatorDefaults, calculatorFields, calculatorParameters } from '../features/emi/calculator.ts';
import { pageQuery } from '../lib/page-query.ts';
import { vehiclePurpose } from '../../server/rentals/fleet.ts';
import { WishlistButton } from '../features/wishlist/wishlist-button.tsx';
import { usePersonal } from '../components/use-personal.ts';
import { wishlistToggleSchema } from '../features/wishlist/schemas.ts';
import { parseForm } from '../lib/form-errors.ts';
import { ArrowLeftIcon, PhoneIcon, WhatsAppIcon } from '../components/icons.tsx';
import { ShareButton } from '../features/vehicle/share-button.tsx';
import { TestDriveButton } from '../features/appointments/test-drive-button.tsx';
import { ReserveButton, ReserveNotOffered } from '../features/reservations/reserve-button.tsx';
import { FormMessage } from '../components/form.tsx';
import { takeFlash } from '../../server/http/flash.ts';
import { isSharedPageRequest } from '../../server/http/shared-pages.ts';
import { useSite } from './site-layout.tsx';
import { VehicleGallery } from '../features/vehicle/vehicle-gallery.tsx';
import { appContext } from '../context.ts';
import { telLink, vehicleEnquiryText, whatsappLink } from '../lib/contact.ts';
import { detailPriceLabel, formatDate, formatKilometres, formatRupees, priceLabel } from '../lib/format.ts';
import { validityOf, type Validity } from '../lib/validity.ts';
import { downPaymentFrom, emiFrom, financeTermsNote, isWorkedOutFinanceRow, type FinanceTerms } from '../features/emi/emi.ts';
import { parseId } from '../lib/input.ts';
import { paths } from '../lib/paths.ts';
import { seo, siteFromMatches } from '../lib/seo.ts';
import { cardTitle, detailTitle, type Vehicle } from '../lib/vehicle.ts';
import { coverShareImage } from '../lib/share-image.ts';
import { jsonLdText, vehicleStructuredData } from '../lib/structured-data.ts';
import { useRootData } from '../components/root-data.ts';
import { videoEmbedUrl } from '../lib/video.ts';
import { useNonce } from '../lib/nonce.tsx';
import { useRememberCar } from '../features/vehicle/use-remember-car.ts';
import type { Route } from './+types/vehicle';
import { vehicleText as t } from '../lib/i18n/vehicle.ts';
import { RichText } from '../lib/i18n/rich.tsx';
import { priceIncludesText } from '../lib/storefront.ts';
import { typedFuelText, typedTransmissionText } from '../lib/listing-filters/options.ts';
import { shownWordsOf, type ShownWords } from '../lib/dealer-words.ts';
import { TypedText, typedTextLanguage } from '../components/typed-text.tsx';
import { FormReadError, readFormOrError } from '../../server/http/forms.ts';
import { indiaDay } from '../lib/india-time.ts';

/** A car for sale has its contact bar fixed at the bottom of a phone's screen, in place of the bottom bar. */
export const handle = {
  contactBar: (data: unknown) => {
    const vehicle = (data as { vehicle?: Pick<Vehicle, 'status'> | null } | undefined)?.vehicle;
    return Boolean(vehicle && vehicle.status !== 'sold');
  },
};

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const services = context.get(appContext);
  const { database, auth } = services;
  const id = parseId(params.id);
  // A rental fleet car has no sale page: its page is under /rent (docs/decisions/020).
  if (id !== null && (await vehiclePurpose(database, id)) === 'rental') throw redirect(paths.rentalCar(id), 301);
  const vehicle = id === null ? null : await getVehicle(database, id);
  if (!vehicle)
    return data(
      {
        vehicle: null,
        words: {},
        calculator: null,
        today: indiaDay(services.clock.now()),
        reserve: null,
        reserveNotOffered: false,
        flash: null,
      },
      { status: 404 },
    );
  // A car's page is shared (decision 127): rendered for nobody, it reads no session; the heart is
  // filled in by the browser (use-personal.ts). Only a page asked with a flash message is one person's.
  const shared = isSharedPageRequest(request);
  const [user, settings] = await Promise.all([shared ? null : currentUser(auth, request), settingsFor(services)]);
  // The calculator, for a car on sale with a price in rupees: its values from the query string
  // when the form was sent without JavaScript, otherwise from the admin's EMI terms.
  const price = vehicle.status === 'sold' ? null : vehicle.priceRupees;
  const defaults = price ? calculatorDefaults(price, financeTerms(settings)) : null;
  const calculator =
    price && defaults ? { price, defaults, fields: calculatorFields(pageQuery(new URL(request.url), calculatorParameters), price, defaults) } : null;
  // Reserving with a refundable token (decision 080): an available car, while online payment is configured.
  const reserve = services.payments && vehicle.status === 'available' ? { amount: settings.reservationAmount, holdHours: settings.reservationHoldHours } : null;
  // Without online payment the page says so where the button would be, rather than leave it out unexplained.
  const reserveNotOffered = !services.payments && vehicle.status === 'available';
  // A refused reservation comes back here with its reason (signed in only: such a page is not shared, never cached).
  const flash = user ? await takeFlash(services.config.authSecret, request) : null;
  // India's date by the server's clock: the paper validity notes read it on both sides of hydration.
  // The dealer's usual words in the page's language, worked out here so the page's script need not carry their table (decision 101).
  const words = shownWordsOf(vehicle);
  return data(
    {
      vehicle,
      words,
      calculator,
      today: indiaDay(services.clock.now()),
      reserve,
      reserveNotOffered,
      flash: flash?.toast ?? null,
    },
    { headers: flash?.headers ?? {} },
  );
}

/** The wishlist toggle: only ever the signed-in person's own list. */
export async function action({ params, context, request }: Route.ActionArgs) {
  const { database, auth, logger, clock } = context.get(appContext);
  const user = await currentUser(auth, request);
  if (!user) throw redirect(paths.login);
  const id = parseId(params.id);
  if (id === null) return data({ wishlisted: false, error: t('notFound') }, { status: 404 });
  const form = await readFormOrError(request);
  if (form instanceof FormReadError) return data({ wishlisted: false, error: form.message }, { status: form.status });
  const parsed = parseForm(wishlistToggleSchema, form);
  if (!parsed.ok) return data({ wishlisted: false, error: parsed.error }, { status: 400 });
  const wanted = parsed.value.wishlisted;
  try {
    const wishlisted = await setWishlisted(database, user.id, id, wanted, clock.now());
    return { wishlisted, message: wishlisted ? t('addedToWishlist') : t('removedFromWishlist') };
  } catch (error) {
    const answer = answerError(error, logger, { fallback: t('wishlistFailed'), log: 'wishlist change failed', context: { id } });
    return data({ wishlisted: false, error: answer.message }, { status: answer.status });
  }
}

/** A typed word as the page says it: its Hindi from the loader's table, else as typed. */
const said = (words: ShownWords, typed: string) => words[typed] ?? typed;

function describe(vehicle: Vehicle, words: ShownWords): string {
  const facts = [
    vehicle.year,
    vehicle.variant,
    typedFuelText(vehicle.fuelType),
    typedTransmissionText(vehicle.transmission),
    vehicle.odometer === null ? '' : formatKilometres(vehicle.odometer),
    said(words, vehicle.owners),
  ]
    .filter(Boolean)
    .join(', ');
  const price = detailPriceLabel(vehicle.price);
  const car = `${detailTitle(vehicle)}${facts ? ` (${facts})` : ''}`;
  return `${price !== '—' ? t('forSaleAt', { car, price }) : t('forSale', { car })} ${vehicle.description}`.trim().slice(0, 300);
}

export function meta({ loaderData, matches, params }: Route.MetaArgs) {
  const site = siteFromMatches(matches);
  const vehicle = loaderData?.vehicle;
  if (!vehicle) return seo({ site, path: paths.vehicle(params.id), title: t('notFoundTitle'), noIndex: true });
  const title = detailTitle(vehicle);
  return seo({
    site,
    path: paths.vehicle(vehicle.id),
    title: `${title}${vehicle.year ? ` ${vehicle.year}` : ''}`,
    description: describe(vehicle, loaderData.words),
    keywords: [
      vehicle.make,
      vehicle.model,
      vehicle.variant,
      typedFuelText(vehicle.fuelType),
      said(loaderData.words, vehicle.categoryName),
      t('keywordUsedCar'),
      t('keywordRefurbishedCar'),
    ]
      .filter(Boolean)
      .join(', '),
    image: coverShareImage(vehicle.images, title, site.siteName),
    type: 'product',
  });
}

function NotFound() {
  return <MissingPage title={t('notFoundTitle')} text={t('notFoundText')} to={paths.home} action={t('browseVehicles')} />;
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
      <h2 className="mb-4 text-lg font-bold">{title}</h2>
      {children}
    </section>
  );
}

function statusTone(status: string): string {
  const tones: Record<string, string> = {
    excellent: 'bg-emerald-100 text-emerald-800',
    good: 'bg-green-100 text-green-800',
    ok: 'bg-green-100 text-green-800',
    fair: 'bg-amber-100 text-amber-800',
    average: 'bg-amber-100 text-amber-800',
    replaced: 'bg-sky-100 text-sky-800',
    new: 'bg-sky-100 text-sky-800',
    'needs attention': 'bg-red-100 text-red-800',
    poor: 'bg-red-100 text-red-800',
  };
  return tones[status.trim().toLowerCase()] ?? 'bg-slate-100 text-slate-800';
}

/**
 * The tyres' condition as the dealer typed it: a bare share of tread ("80%") says what it is a
 * share of ("80% left"); anything else ("New", "4 new MRF") is shown as typed.
 */
function tyreCondition(typed: string): string {
  const share = /^\s*(\d{1,3})\s*%\s*$/.exec(typed);
  return share && Number(share[1]) <= 100 ? t('tyresLeft', { percent: Number(share[1]) }) : typed;
}

function KeySpecifications({ vehicle, words, today }: { vehicle: Vehicle; words: ShownWords; today: string }) {
  // The last of each: whether the value is the dealer's own text (marked as such when it is English on a Hindi page).
  const specs: Array<[string, string, Validity, boolean]> = [
    [t('odometer'), formatKilometres(vehicle.odometer), null, false],
    [t('owners'), vehicle.owners ? said(words, vehicle.owners) : '—', null, true],
    [t('registration'), vehicle.registration || '—', null, false],
    [t('insurance'), formatDate(vehicle.insuranceValidity), validityOf(vehicle.insuranceValidity, today), false],
  ];
  if (vehicle.fitnessFC) specs.push([t('fitness'), said(words, vehicle.fitnessFC), validityOf(vehicle.fitnessFC, today), true]);
  if (vehicle.tyrePoint) specs.push([t('tyrePoint'), tyreCondition(vehicle.tyrePoint), null, true]);
  return (
    <Section title={t('keySpecifications')}>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        {specs.map(([label, value, validity, typed]) => (
          <div key={label} className="rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200">
            <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
            <dd className="mt-1 font-semibold" lang={typed ? typedTextLanguage(value) : undefined}>
              {value}
            </dd>
            {validity ? (
              <dd
                className={`mt-1 w-fit rounded-full px-2 py-0.5 text-xs font-bold ${validity.state === 'expired' ? 'bg-red-100 text-red-800' : 'bg-amber-100 text-amber-900'}`}
              >
                {validity.label}
              </dd>
            ) : null}
          </div>
        ))}
      </dl>
    </Section>
  );
}

function ConditionReport({ inspection, words }: { inspection: Record<string, string>; words: ShownWords }) {
  return (
    <Section title={t('conditionReport')}>
      <ul className="grid gap-2 sm:grid-cols-2">
        {Object.entries(inspection).map(([item, status]) => (
          <li key={item} className="flex items-center justify-between gap-3 rounded-xl bg-slate-50 px-3 py-2.5 ring-1 ring-slate-200">
            <TypedText text={said(words, item)} className="font-medium" />
            <TypedText
              text={said(words, status)}
              className={`rounded-full px-2.5 py-0.5 text-sm font-semibold status-${status.trim().toLowerCase().replace(/\s+/g, '-')} ${statusTone(status)}`}
            />
          </li>
        ))}
      </ul>
    </Section>
  );
}

function RefurbishmentDetails({ refurbishment, words }: { refurbishment: Record<string, string | string[]>; words: ShownWords }) {
  return (
    <Section title={t('refurbishmentDetails')}>
      <dl className="flex flex-col gap-3">
        {Object.entries(refurbishment).map(([label, value]) => (
          <div key={label}>
            <TypedText as="dt" text={said(words, label)} className="font-semibold" />
            <dd className="text-slate-700">
              {Array.isArray(value) ? (
                <ul className="ml-5 list-disc">
                  {value.map((entry, index) => (
                    <li key={index} lang={typedTextLanguage(entry)}>
                      {entry}
                    </li>
                  ))}
                </ul>
              ) : (
                <TypedText text={value} />
              )}
            </dd>
          </div>
        ))}
      </dl>
    </Section>
  );
}

/**
 * The car's finance options as the dealer typed them, led by the EMI and down payment worked out
 * from its price and the admin's finance terms: the one figure the card, the top of this page,
 * the calculator, compare and the API all show. Typed EMI or down payment rows are left out.
 */
function FinanceOptions({
  financial,
  words,
  priceRupees,
  terms,
}: {
  financial: Record<string, string | boolean> | null;
  words: ShownWords;
  priceRupees: number | null;
  terms: FinanceTerms;
}) {
  const monthly = emiFrom(priceRupees, terms);
  const worked: [string, string][] =
    monthly !== null && priceRupees !== null
      ? [
          [t('emiFrom'), t('perMonth', { amount: formatRupees(monthly) })],
          [t('downPaymentFrom'), formatRupees(downPaymentFrom(priceRupees, terms))],
        ]
      : [];
  const typed = Object.entries(financial ?? {}).filter(([label]) => !isWorkedOutFinanceRow(label));
  if (worked.length + typed.length === 0) return null;
  return (
    <Section title={t('financeOptions')}>
      <dl className="grid gap-2 sm:grid-cols-2">
        {[...worked, ...typed].map(([label, value]) => (
          <div key={label} className="flex items-center justify-between gap-3 rounded-xl bg-slate-50 px-3 py-2.5 ring-1 ring-slate-200">
            <TypedText as="dt" text={said(words, label)} className="font-medium" />
            <TypedText
              as="dd"
              text={typeof value === 'boolean' ? (value ? t('available') : t('notAvailable')) : value}
              className={`font-semibold ${value === false ? 'text-slate-500' : value === true ? 'text-emerald-700' : ''}`}
            />
          </div>
        ))}
      </dl>
      {worked.length > 0 ? <p className="mt-2 text-xs text-slate-600">{financeTermsNote(terms)}</p> : null}
    </Section>
  );
}

function VideoWalkthrough({ url, title }: { url: string; title: string }) {
  const embed = videoEmbedUrl(url);
  return (
    <Section title={t('videoWalkthrough')}>
      {embed ? (
        <iframe
          src={embed}
          title={t('videoTitle', { car: title })}
          loading="lazy"
          allow="accelerometer; encrypted-media; gyroscope; picture-in-picture; fullscreen"
          allowFullScreen
          className="aspect-video w-full rounded-xl bg-slate-900"
        />
      ) : (
        <a href={url} target="_blank" rel="noopener noreferrer" className="font-semibold text-brand-700 underline">
          {t('watchVideo')}
        </a>
      )}
    </Section>
  );
}

function ContactBar({ vehicle, pageUrl }: { vehicle: Vehicle; pageUrl: string }) {
  const site = useSite();
  return (
    <div className="fixed inset-x-0 bottom-0 z-20 border-t border-slate-200 bg-white/95 px-3 pb-[calc(0.5rem+env(safe-area-inset-bottom))] pt-2 backdrop-blur lg:static lg:border-0 lg:bg-transparent lg:p-0">
      <div className="mx-auto flex max-w-3xl gap-3 lg:flex-col">
        <a
          href={telLink(site.sellerPhone)}
          className="flex min-h-11 flex-1 basis-0 items-center justify-center gap-1.5 whitespace-nowrap rounded-xl bg-brand-700 px-2 py-2.5 text-[15px] lg:basis-auto lg:py-3 font-semibold text-white hover:bg-brand-800"
        >
          <PhoneIcon className="h-5 w-5" /> {t('callSeller')}
        </a>
        <a
          href={whatsappLink(site.whatsappNumber, vehicleEnquiryText(vehicle, pageUrl))}
          target="_blank"
          rel="noopener noreferrer"
          className="flex min-h-11 flex-[1.3] basis-0 items-center justify-center gap-1.5 whitespace-nowrap rounded-xl bg-whatsapp px-2 py-2.5 text-[15px] lg:basis-auto lg:py-3 font-semibold text-white hover:brightness-110"
        >
          <WhatsAppIcon className="h-5 w-5" />
          {/* The smallest phones (320 px) have room for the app's name only. */}
          <span>
            <RichText text={t('chatOnWhatsApp')} parts={{ wide: (words) => <span className="max-[359px]:sr-only">{words}</span> }} />
          </span>
        </a>
      </div>
    </div>
  );
}

export default function VehicleDetails({ loaderData }: Route.ComponentProps) {
  const { vehicle, words, calculator } = loaderData;
  const site = useSite();
  const { finance, priceIncludes } = useRootData();
  const signedIn = usePersonal()?.signedIn === true;
  const navigate = useNavigate();
  const nonce = useNonce();
  useRememberCar(vehicle, site.mediaBaseUrl, signedIn);
  if (!vehicle) return <NotFound />;

  const title = detailTitle(vehicle);
  const pageUrl = new URL(paths.vehicle(vehicle.id), site.siteOrigin).href;
  // Fuel and gearbox in the page's language, as the cards say them.
  const subtitle = [vehicle.variant, vehicle.year, typedFuelText(vehicle.fuelType), typedTransmissionText(vehicle.transmission)].filter(Boolean).join(' • ');
  const sold = vehicle.status === 'sold';
  const goBack = () => {
    // Opened from a shared link there is no page of ours to go back to.
    if (window.history.state && window.history.state.idx > 0) void navigate(-1);
    else void navigate(paths.home);
  };

  // Phones read top to bottom with the contact buttons fixed at the bottom; wide screens keep
  // the title, price and contact buttons in a sticky column beside the photos and details.
  const main = 'flex min-w-0 flex-col gap-4 lg:col-start-1';
  return (
    <article className={`mx-auto grid max-w-6xl gap-4 lg:grid-cols-[minmax(0,1fr)_22rem] lg:gap-x-6 ${sold ? '' : 'pb-20 lg:pb-0'}`}>
      <script
        type="application/ld+json"
        nonce={nonce}
        dangerouslySetInnerHTML={{ __html: jsonLdText(vehicleStructuredData(vehicle, new URL(paths.vehicle(vehicle.id), site.siteOrigin).href, site)) }}
      />
      <div className="flex items-center gap-2 lg:col-span-2">
        <button
          type="button"
          onClick={goBack}
          aria-label={t('back')}
          className="rounded-full bg-white p-3 text-slate-700 shadow-sm ring-1 ring-slate-200 hover:bg-slate-100"
        >
          <ArrowLeftIcon className="h-5 w-5" />
        </button>
        <span className="mr-auto" />
        <ShareButton title={title} url={pageUrl} />
        <WishlistButton key={vehicle.id} vehicleId={vehicle.id} />
      </div>

      <div className={main}>
        <VehicleGallery images={vehicle.images} title={title} />
      </div>

      <aside className="flex flex-col gap-3 lg:sticky lg:top-20 lg:col-start-2 lg:row-span-6 lg:row-start-2 lg:self-start lg:rounded-2xl lg:bg-white lg:p-5 lg:shadow-sm lg:ring-1 lg:ring-slate-200">
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="text-2xl font-extrabold tracking-tight sm:text-3xl">{title}</h1>
          {vehicle.featured ? <span className="rounded-full bg-accent-500 px-2.5 py-1 text-xs font-bold text-slate-900">{t('featured')}</span> : null}
          {sold ? <span className="rounded-full bg-red-600 px-2.5 py-1 text-xs font-bold text-white">{t('sold')}</span> : null}
          {vehicle.status === 'reserved' ? <span className="rounded-full bg-slate-800 px-2.5 py-1 text-xs font-bold text-white">{t('reserved')}</span> : null}
        </div>
        {subtitle ? <p className="text-slate-600">{subtitle}</p> : null}
        <div className="inline-flex w-fit flex-col rounded-2xl bg-brand-50 px-4 py-3 ring-1 ring-brand-100 lg:w-full">
          <span className="text-xs font-semibold uppercase tracking-wide text-brand-700">{priceLabel()}</span>
          <span className="text-2xl font-extrabold text-brand-800">{detailPriceLabel(vehicle.price)}</span>
          {priceIncludes ? <span className="text-xs text-slate-600">{priceIncludesText(priceIncludes)}</span> : null}
        </div>
        {calculator ? (
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <EmiFrom priceRupees={calculator.price} terms={finance} />
            <a href="#emi" className="text-sm font-semibold text-brand-700 underline">
              {t('calculateEmi')}
            </a>
          </div>
        ) : null}
        {sold ? null : <CompareToggle item={{ id: vehicle.id, title: cardTitle(vehicle) }} className="lg:w-full" />}
        {sold ? (
          <p className="rounded-2xl bg-slate-100 p-4 text-center text-slate-700">
            {t('hasBeenSold')}{' '}
            <Link to={paths.home} className="font-semibold text-brand-700 underline">
              {t('seeCarsNow')}
            </Link>
          </p>
        ) : (
          <>
            {loaderData.flash ? <FormMessage tone={loaderData.flash.tone === 'error' ? 'error' : 'success'}>{loaderData.flash.text}</FormMessage> : null}
            {loaderData.reserve ? (
              <ReserveButton vehicleId={vehicle.id} amount={loaderData.reserve.amount} holdHours={loaderData.reserve.holdHours} />
            ) : loaderData.reserveNotOffered ? (
              <ReserveNotOffered />
            ) : null}
            <TestDriveButton vehicle={vehicle} />
            <ContactBar vehicle={vehicle} pageUrl={pageUrl} />
          </>
        )}
      </aside>

      <div className={main}>
        <KeySpecifications vehicle={vehicle} words={words} today={loaderData.today} />
        {calculator ? (
          <section id="emi" aria-labelledby="emi-heading" className="scroll-mt-20 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
            <h2 id="emi-heading" className="mb-4 text-lg font-bold">
              {t('emiCalculator')}
            </h2>
            <EmiCalculator
              key={`${vehicle.id}-${calculator.fields.dp}-${calculator.fields.rate}-${calculator.fields.tenure}`}
              price={calculator.price}
              action={`${paths.vehicle(vehicle.id)}#emi`}
              defaults={calculator.defaults}
              fields={calculator.fields}
            />
          </section>
        ) : null}
        {vehicle.description ? (
          <Section title={t('aboutThisCar')}>
            <TypedText as="p" text={vehicle.description} className="whitespace-pre-line text-slate-700" />
          </Section>
        ) : null}
        {vehicle.inspection ? <ConditionReport inspection={vehicle.inspection} words={words} /> : null}
        {vehicle.refurbishment ? <RefurbishmentDetails refurbishment={vehicle.refurbishment} words={words} /> : null}
        {vehicle.financial ? <FinanceOptions financial={vehicle.financial} words={words} priceRupees={calculator?.price ?? null} terms={finance} /> : null}
        {vehicle.videoUrl ? <VideoWalkthrough url={vehicle.videoUrl} title={title} /> : null}
      </div>
    </article>
  );
}
