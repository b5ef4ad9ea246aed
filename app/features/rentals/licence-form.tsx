import { useHref } from 'react-router';
import { FormMessage, inputClass, primaryButton, TextField } from '../../components/form.tsx';
import { LicencePhotos } from '../vehicle/photo-link.tsx';
import { formatDate } from '../../lib/format.ts';
import { licenceText as t } from './licence-texts.ts';
import { licenceStatusText, type LicenceFieldErrors, type LicenceStatus } from './licence.ts';
import { MAX_IMAGE_MB } from '../../lib/uploads.ts';
import { paths } from '../../lib/paths.ts';

/** The licence as its owner sees it (the photos come from the private route). */
export type OwnLicence = {
  number: string;
  dateOfBirth: string;
  status: LicenceStatus;
  refusalReason: string | null;
  updatedAt: string;
  frontUrl: string;
  backUrl: string;
};

const statusTone: Record<LicenceStatus, string> = {
  pending: 'bg-amber-100 text-amber-900',
  approved: 'bg-green-100 text-green-800',
  refused: 'bg-red-100 text-red-800',
};

export function LicenceStatusBadge({ status }: { status: LicenceStatus }) {
  return <span className={`rounded-full px-2.5 py-0.5 text-sm font-semibold ${statusTone[status]}`}>{licenceStatusText()[status]}</span>;
}

function PhotoInput({ side, error }: { side: 'front' | 'back'; error?: string | undefined }) {
  return (
    <TextField
      id={`licence-${side}`}
      name={side}
      label={side === 'front' ? t('photoFront') : t('photoBack')}
      type="file"
      accept="image/*"
      required
      error={error}
      className={`${inputClass} file:mr-3 file:rounded-lg file:border-0 file:bg-brand-50 file:px-3 file:py-1.5 file:font-semibold file:text-brand-800`}
    />
  );
}

/**
 * The renter's driving licence: what is on file with its review status and photos, and the
 * form to add it (or replace it while it is not approved). A plain multipart form: it works
 * before the page's script has loaded, and adds nothing to the page's JavaScript.
 */
export function LicenceSection({
  licence,
  errors = {},
  message,
  values,
  redirectTo,
  headingLevel = 2,
}: {
  licence: OwnLicence | null;
  errors?: LicenceFieldErrors | undefined;
  message?: string | null | undefined;
  values?: { number?: string | undefined; dateOfBirth?: string | undefined } | undefined;
  redirectTo?: string | undefined;
  headingLevel?: 1 | 2;
}) {
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  const canReplace = !licence || licence.status !== 'approved';
  // A plain multipart form: its address carries the page's language (/hi/profile/licence on a Hindi page).
  const action = useHref(redirectTo ? `${paths.profileLicence}?redirectTo=${encodeURIComponent(redirectTo)}` : paths.profileLicence);
  return (
    <section aria-labelledby="driving-licence" className={headingLevel === 2 ? 'mt-8 border-t border-slate-200 pt-6' : ''}>
      <Heading id="driving-licence" className={headingLevel === 1 ? 'mb-4 text-2xl font-extrabold tracking-tight' : 'text-lg font-bold'}>
        {t('drivingLicence')}
      </Heading>
      <p className="mt-1 text-sm text-slate-600">{t('neededToRent')}</p>
      {message ? (
        <div className="mt-3">
          <FormMessage tone="error">{message}</FormMessage>
        </div>
      ) : null}
      {licence ? (
        <div className="mt-4 rounded-xl p-4 ring-1 ring-slate-200">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="font-semibold">{licence.number}</p>
            <LicenceStatusBadge status={licence.status} />
          </div>
          <p className="mt-1 text-sm text-slate-600">{t('dateOfBirthIs', { date: formatDate(licence.dateOfBirth) })}</p>
          {licence.status === 'refused' && licence.refusalReason ? (
            <p className="mt-2 text-sm text-red-800">{t('notAccepted', { reason: licence.refusalReason })}</p>
          ) : licence.status === 'pending' ? (
            <p className="mt-2 text-sm text-slate-700">{t('weCheck')}</p>
          ) : null}
          <LicencePhotos licence={licence} alt={(side) => (side === 'front' ? t('yourLicenceFront') : t('yourLicenceBack'))} fit="object-cover" />
        </div>
      ) : null}
      {canReplace ? (
        <form method="post" action={action} encType="multipart/form-data" className="mt-4 flex flex-col gap-4">
          {licence ? <p className="text-sm font-semibold text-slate-700">{t('replaceIt')}</p> : null}
          <TextField
            id="licence-number"
            name="number"
            label={t('licenceNumber')}
            autoComplete="off"
            required
            maxLength={30}
            placeholder="DL-1420110012345"
            defaultValue={values?.number ?? ''}
            error={errors.number}
          />
          <TextField
            id="licence-dob"
            name="dateOfBirth"
            label={t('dateOfBirth')}
            type="date"
            required
            defaultValue={values?.dateOfBirth ?? ''}
            error={errors.dateOfBirth}
          />
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <PhotoInput side="front" error={errors.front} />
            <PhotoInput side="back" error={errors.back} />
          </div>
          <p className="text-sm text-slate-600">{t('photoHint', { mb: MAX_IMAGE_MB })}</p>
          <button type="submit" className={`${primaryButton} self-start`}>
            {licence ? t('uploadNew') : t('upload')}
          </button>
        </form>
      ) : null}
    </section>
  );
}
