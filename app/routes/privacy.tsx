import { Link } from 'react-router';
import { useSite } from './site-layout.tsx';
import { LEAD_RETENTION_MONTHS } from '../lib/lead-forms.ts';
import { AUDIT_RETENTION_MONTHS, OUTBOX_RETENTION_DAYS, RENTAL_BOOKING_RETENTION_YEARS, WHATSAPP_MESSAGE_RETENTION_DAYS } from '../lib/retention.ts';
import { paths } from '../lib/paths.ts';
import { pageMeta } from '../lib/seo.ts';
import { privacyInfoText as t } from '../features/accounts/privacy-info-texts.ts';
import { RichText } from '../lib/i18n/rich.tsx';

export const meta = pageMeta((site) => ({
  path: paths.privacy,
  title: t('title'),
  description: t('description', { site: site.siteName }),
}));

/** Every retention period the server enforces (server/privacy/retention.ts), in words of the page's language. */
function retention(): Array<[string, string]> {
  return [
    [t('leadsWhat'), t('leadsPeriod', { months: LEAD_RETENTION_MONTHS })],
    [t('accountWhat'), t('untilDelete')],
    [t('licenceWhat'), t('untilDeleteWith')],
    [t('rentalsWhat'), t('rentalsPeriod', { years: RENTAL_BOOKING_RETENTION_YEARS })],
    [t('testDrivesWhat'), t('testDrivesPeriod', { months: LEAD_RETENTION_MONTHS })],
    [t('inspectionsWhat'), t('untilDeleteWith')],
    [t('reservationsWhat'), t('reservationsPeriod', { years: RENTAL_BOOKING_RETENTION_YEARS })],
    [t('documentsWhat'), t('documentsPeriod')],
    [t('sessionsWhat'), t('sessionsPeriod')],
    [t('consentWhat'), t('untilDelete')],
    [t('whatsappWhat'), t('whatsappPeriod', { days: WHATSAPP_MESSAGE_RETENTION_DAYS })],
    [t('pushWhat'), t('pushPeriod')],
    [t('codesWhat'), t('codesPeriod')],
    [t('countsWhat'), t('countsPeriod')],
    [t('auditWhat'), t('auditPeriod', { years: AUDIT_RETENTION_MONTHS / 12 })],
    [t('outboxWhat'), t('outboxPeriod', { days: OUTBOX_RETENTION_DAYS })],
  ];
}

/**
 * What we keep, why, for how long, and how to use the rights India's Digital Personal Data
 * Protection Act 2023 gives: a copy, correction, erasure. Every period here is enforced by
 * the retention schedule; change both together.
 */
export default function Privacy() {
  const site = useSite();
  const link = 'font-semibold text-brand-700 underline';
  const mail = (words: string) => (
    <a href={`mailto:${site.contactEmail}`} className={link}>
      {words}
    </a>
  );
  const strong = (words: string) => <strong>{words}</strong>;
  const em = (words: string) => <em>{words}</em>;
  return (
    <article className="mx-auto flex max-w-3xl flex-col gap-4 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <h1 className="text-2xl font-extrabold tracking-tight sm:text-3xl">{t('title')}</h1>
      <p>
        <RichText
          text={t('intro', { site: site.siteName })}
          parts={{
            request: (words) => (
              <Link to={paths.requestVehicle} className={link}>
                {words}
              </Link>
            ),
            sell: (words) => (
              <Link to={paths.sellVehicle} className={link}>
                {words}
              </Link>
            ),
          }}
        />
      </p>

      <h2 className="text-xl font-bold">{t('whatWeKeep')}</h2>
      <ul className="ml-5 list-disc space-y-1">
        <li>{t('keepForms')}</li>
        <li>{t('keepPhotos')}</li>
        <li>{t('keepWhen')}</li>
        <li>{t('keepAccount')}</li>
        <li>{t('keepRental')}</li>
      </ul>
      <p>{t('abuse')}</p>

      <h2 className="text-xl font-bold">{t('why')}</h2>
      <p>{t('whyText')}</p>

      <h2 className="text-xl font-bold">{t('whoSees')}</h2>
      <p>{t('whoText', { site: site.siteName })}</p>

      <h2 className="text-xl font-bold">{t('howLong')}</h2>
      <dl className="divide-y divide-slate-200 rounded-xl ring-1 ring-slate-200">
        {retention().map(([what, period]) => (
          <div key={what} className="flex flex-col gap-1 px-4 py-3 sm:flex-row sm:gap-4">
            <dt className="font-semibold sm:w-2/5 sm:shrink-0">{what}</dt>
            <dd className="text-slate-700">{period}</dd>
          </div>
        ))}
      </dl>

      <h2 className="text-xl font-bold">{t('rights')}</h2>
      <ul className="ml-5 list-disc space-y-2">
        <li>
          <RichText
            text={t('rightDownload')}
            parts={{
              b: strong,
              i: em,
              profile: (words) => (
                <Link to={paths.profile} className={link}>
                  {words}
                </Link>
              ),
            }}
          />
        </li>
        <li>
          <RichText text={t('rightDelete')} parts={{ b: strong, i: em }} />
        </li>
        <li>
          <RichText
            text={t('rightErase', { email: site.contactEmail, phone: site.sellerPhone })}
            parts={{
              b: strong,
              mail,
              phone: (words) => (
                <a href={`tel:${site.sellerPhone.replace(/[^\d+]/g, '')}`} className={link}>
                  {words}
                </a>
              ),
            }}
          />
        </li>
      </ul>
      <p>
        <RichText text={t('complaints', { email: site.contactEmail })} parts={{ mail }} />
      </p>
    </article>
  );
}
