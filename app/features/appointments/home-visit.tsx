import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { inputClass, TextField } from '../../components/form.tsx';
import type { ServiceArea } from '../../lib/service-areas.ts';
import { LANDMARK_MAX, STREET_MAX } from './home-address.ts';
import { formsText as t } from '../../lib/i18n/forms.ts';

/**
 * The parts a home visit's form shares (test drive, inspection; decision 097): the areas we
 * visit, shown before the person types; a refused PIN code with a one-tap switch to the hub;
 * and the street address with its optional landmark.
 */

/**
 * "Areas we visit": a disclosure, so a phone sees the PIN field first. It stays closed when a PIN
 * code is refused too: the refusal names the nearest area, and the list would push it off a phone's screen.
 */
export function ServedAreas({ areas }: { areas: readonly ServiceArea[] }) {
  return (
    <details className="group rounded-xl bg-slate-50 px-3 py-2 ring-1 ring-slate-200">
      <summary className="flex min-h-11 cursor-pointer items-center justify-between gap-2 font-semibold text-brand-800">
        <span>{t('areasWeVisit', { count: areas.length })}</span>
        <span aria-hidden="true" className="text-slate-500 transition group-open:rotate-180">
          ▾
        </span>
      </summary>
      <ul translate="no" className="mt-1 grid grid-cols-1 gap-x-4 gap-y-1 pb-1 text-sm text-slate-800 sm:grid-cols-2">
        {areas.map((area) => (
          <li key={area.pinCode} className="flex justify-between gap-2 border-b border-slate-200 py-1 last:border-b-0">
            <span>{area.locality === area.pinCode ? '' : area.locality}</span>
            <span className="tabular-nums text-slate-600">{area.pinCode}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}

/**
 * The PIN code the visit would go to, `hint` naming the visit ("for a test drive at home").
 * `action` stands beside the field (a button that shows the times); `children` follow it (the
 * refusal, a notice), and `describedBy` names the one of them that is shown.
 */
export function HomePinField({
  hint,
  pin,
  refused,
  describedBy,
  action,
  children,
}: {
  hint: string;
  pin: string;
  refused: boolean;
  describedBy: string | undefined;
  action?: ReactNode;
  children?: ReactNode;
}) {
  const input = (
    <input
      id="pin"
      name="pin"
      inputMode="numeric"
      autoComplete="postal-code"
      maxLength={6}
      defaultValue={pin}
      aria-invalid={refused ? true : undefined}
      aria-describedby={describedBy}
      className={`${inputClass} max-w-40`}
    />
  );
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor="pin" className="font-semibold">
        {t('pinCodeLabel')} <span className="font-normal text-slate-600">{hint}</span>
      </label>
      {action ? (
        <div className="flex items-center gap-2">
          {input}
          {action}
        </div>
      ) : (
        input
      )}
      {children}
    </div>
  );
}

/** The refusal of a PIN code beside its field, and the hub as the one-tap way on. */
export function PinRefusal({ id, message, hubTo }: { id: string; message: string; hubTo: string | null }) {
  return (
    <div id={id} className="flex flex-col gap-2">
      <p className="text-sm font-medium text-red-700">{message}</p>
      {hubTo ? (
        <Link
          to={hubTo}
          preventScrollReset
          className="inline-flex min-h-11 items-center self-start rounded-xl bg-brand-50 px-4 font-semibold text-brand-800 ring-1 ring-brand-300 hover:bg-brand-100"
        >
          {t('switchToHub')}
        </Link>
      ) : null}
    </div>
  );
}

/** House or flat, street and area (required) and a landmark (optional), with their messages beside them. */
export function HomeAddressFields({ values, errors }: { values: { street: string; landmark: string }; errors: Record<string, string | undefined> }) {
  return (
    <div className="flex flex-col gap-3">
      <TextField
        id="street"
        name="street"
        label={t('streetLabel')}
        hint={t('streetHint')}
        autoComplete="street-address"
        maxLength={STREET_MAX}
        required
        defaultValue={values.street}
        error={errors.street}
      />
      <TextField
        id="landmark"
        name="landmark"
        label={t('landmarkLabel')}
        hint={t('landmarkHint')}
        maxLength={LANDMARK_MAX}
        defaultValue={values.landmark}
        error={errors.landmark}
      />
    </div>
  );
}
