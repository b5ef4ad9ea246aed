import { formatKilometres, formatRupees, formatIndiaDateTime } from '../../lib/format.ts';
import { paths } from '../../lib/paths.ts';
import { rentText as t } from './rent-texts.ts';
import {
  checklistItemLabels,
  CHECKLIST_ITEMS,
  checklistComparison,
  fuelText,
  type ChargeLine,
  type ChecklistPhotoView,
  type ChecklistView,
} from './rental-checklist.ts';

/**
 * The handover and return checklists side by side (photos, km, fuel, damage with new damage
 * marked) and the charges each with its photo: the desk's booking page and the renter's
 * bookings show the same. The photos are private: their URLs answer only the renter and admins.
 */

function Thumb({ bookingId, photo, label }: { bookingId: number; photo: ChecklistPhotoView; label: string }) {
  const url = paths.rentalPhoto(bookingId, photo.id);
  return (
    <a href={url} target="_blank" rel="noopener" className="block overflow-hidden rounded-lg ring-1 ring-slate-200">
      <img
        src={paths.rentalPhoto(bookingId, photo.id, 'thumb')}
        alt={label}
        loading="lazy"
        width={160}
        height={120}
        className="aspect-[4/3] w-full bg-slate-100 object-cover"
      />
    </a>
  );
}

/** `at`: when the car actually went out or came back, as the desk entered it (null on bookings from before it was kept: then when the record was saved). */
function Record({ bookingId, title, record, at }: { bookingId: number; title: string; record: ChecklistView | null; at: string | null }) {
  if (!record) {
    return (
      <div className="rounded-xl bg-slate-50 p-3" data-checklist-missing>
        <h3 className="font-semibold">{title}</h3>
        <p className="text-sm text-slate-600">{t('notRecorded')}</p>
      </div>
    );
  }
  const stage = record.stage === 'handover' ? t('atHandover') : t('atReturn');
  const itemLabels = checklistItemLabels();
  const damage = record.photos.filter((photo) => photo.item === 'damage');
  return (
    <div className="min-w-0 rounded-xl bg-slate-50 p-3" data-checklist={record.stage}>
      <h3 className="font-semibold">{title}</h3>
      <p className="text-sm text-slate-700">
        <span data-odometer>{formatKilometres(record.odometer)}</span> · {t('fuelWord')} <span data-fuel>{fuelText(record.fuel)}</span>
      </p>
      <p className="text-sm text-slate-700" data-at>
        {at
          ? t(record.stage === 'handover' ? 'handedOverAt' : 'returnedAt', { when: formatIndiaDateTime(at) })
          : formatIndiaDateTime(Date.parse(record.recordedAt))}
      </p>
      <ul className="mt-2 grid grid-cols-3 gap-2 xl:grid-cols-5">
        {CHECKLIST_ITEMS.map((item) => {
          const photo = record.photos.find((candidate) => candidate.item === item);
          return photo ? (
            <li key={item} className="text-xs text-slate-600">
              <Thumb bookingId={bookingId} photo={photo} label={`${itemLabels[item]} ${stage}`} />
              <span className="mt-0.5 block leading-tight">{itemLabels[item]}</span>
            </li>
          ) : null;
        })}
      </ul>
      {damage.length > 0 ? (
        <>
          <h4 className="mt-3 text-sm font-semibold">{t('damageNoted')}</h4>
          <ul className="mt-1 flex flex-col gap-2">
            {damage.map((photo) => (
              <li key={photo.id} className="flex items-start gap-2 text-sm" data-damage={photo.isNew ? 'new' : 'existing'}>
                <span className="w-20 shrink-0">
                  <Thumb bookingId={bookingId} photo={photo} label={t('damagePhotoAlt', { stage, note: photo.note })} />
                </span>
                <span className="min-w-0">
                  {photo.isNew ? <span className="mr-1 rounded bg-red-100 px-1.5 py-0.5 text-xs font-semibold text-red-800">{t('newDamage')}</span> : null}
                  {photo.note}
                  {photo.charge > 0 ? <span className="block font-semibold">{formatRupees(photo.charge)}</span> : null}
                </span>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="mt-2 text-sm text-slate-600">{t('noDamage')}</p>
      )}
    </div>
  );
}

/** Handover and return side by side (stacked on a phone), with the km driven and the fuel difference. */
export function ChecklistRecords({
  bookingId,
  handover,
  returned,
  handedOverAt,
  returnedAt,
}: {
  bookingId: number;
  handover: ChecklistView | null;
  returned: ChecklistView | null;
  /** The actual times of the handover and the return (India time, +05:30). */
  handedOverAt: string | null;
  returnedAt: string | null;
}) {
  const comparison = checklistComparison(handover, returned);
  return (
    <div>
      {comparison ? (
        <p className="mb-2 text-sm" data-comparison>
          {t('kmDriven')} <strong>{formatKilometres(comparison.kmDriven)}</strong> · {t('fuelLabel')}{' '}
          <strong>
            {comparison.fuelDifference === 0
              ? t('fuelSame')
              : t(comparison.fuelDifference > 0 ? 'fuelMore' : 'fuelLess', { eighths: Math.abs(comparison.fuelDifference) })}
          </strong>
        </p>
      ) : null}
      <div className="grid grid-cols-1 gap-3 md:grid-cols-2">
        <Record bookingId={bookingId} title={t('handover')} record={handover} at={handedOverAt} />
        <Record bookingId={bookingId} title={t('returnTitle')} record={returned} at={returnedAt} />
      </div>
    </div>
  );
}

/** The charges of a return, each with the photo that shows it. */
export function ChargeList({ bookingId, lines }: { bookingId: number; lines: ChargeLine[] }) {
  if (lines.length === 0) return <p className="text-sm text-slate-600">{t('noCharges')}</p>;
  return (
    <ul className="flex flex-col gap-2" aria-label={t('charges')}>
      {lines.map((line, index) => (
        <li key={index} className="flex items-center gap-3 text-sm" data-charge={line.kind}>
          <span className="w-16 shrink-0">
            {line.photoId ? (
              <Thumb
                bookingId={bookingId}
                photo={{ id: line.photoId, item: 'damage', note: '', isNew: false, charge: 0 }}
                label={t('photoFor', { label: line.label })}
              />
            ) : (
              <span className="flex aspect-[4/3] items-center justify-center rounded-lg bg-slate-100 text-xs text-slate-600">{t('noPhoto')}</span>
            )}
          </span>
          <span className="min-w-0 flex-1">{line.label}</span>
          <strong className="shrink-0">{formatRupees(line.amount)}</strong>
        </li>
      ))}
    </ul>
  );
}
