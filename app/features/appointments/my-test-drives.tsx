import { Link } from 'react-router';
import { ConfirmDialog, useConfirmStep } from '../../components/confirm-dialog.tsx';
import { paths } from '../../lib/paths.ts';
import { MODE_LABELS, slotLabel, STATUS_LABELS, testDriveMessages, type TestDrive, type TestDriveStatus } from './test-drives.ts';
import { testDriveText as t } from './test-drive-texts.ts';
import { homeAddressLine } from './home-address.ts';
import { BookedCar, BookingCard, BookingsSection, bookingLinkClass, CancelBooking } from '../../components/profile-bookings.tsx';

/** A test drive on its owner's profile: the booking, and whether it can still be moved or cancelled. */
export type MyTestDrive = Omit<TestDrive, 'createdAt'> & { changeable: boolean };

/** A notice whose text is read when it is shown, in the page's language. */
const notice = (tone: 'success' | 'error', text: () => string) => ({
  tone,
  get text() {
    return text();
  },
});

/** What `?testDrive=` on /profile says after a booking, a change or a cancel. */
export const TEST_DRIVE_NOTICES: Record<string, { tone: 'success' | 'error'; text: string }> = {
  booked: notice('success', () => testDriveMessages.booked),
  rescheduled: notice('success', () => testDriveMessages.rescheduled),
  cancelled: notice('success', () => testDriveMessages.cancelled),
  'not-changed': notice('error', () => testDriveMessages.notChangeable),
  'not-found': notice('error', () => testDriveMessages.notYours),
  'too-many': notice('error', () => testDriveMessages.tooMany),
  failed: notice('error', () => t('changeFailed')),
};

const statusTone: Record<TestDriveStatus, string> = {
  booked: 'bg-sky-100 text-sky-800',
  confirmed: 'bg-green-100 text-green-800',
  done: 'bg-slate-100 text-slate-700',
  no_show: 'bg-amber-100 text-amber-800',
  cancelled: 'bg-slate-100 text-slate-600',
};

/**
 * The profile's list of the person's test drives, each upcoming one with Reschedule and Cancel.
 * Cancel asks first in the site's dialog ("Keep it" focused); without script it cancels at once.
 */
export function MyTestDrives({ testDrives }: { testDrives: MyTestDrive[] }) {
  const step = useConfirmStep<MyTestDrive>();
  return (
    <BookingsSection
      id="test-drives"
      title={t('myTestDrives')}
      bookings={testDrives}
      none={t('noTestDrives')}
      card={(drive) => (
        <BookingCard
          status={STATUS_LABELS[drive.status]}
          statusTone={statusTone[drive.status]}
          about={
            <>
              <BookedCar vehicleId={drive.vehicleId} title={drive.vehicleTitle} />
              <p className="text-sm text-slate-700">{slotLabel(drive.slot)}</p>
              <p className="break-words text-sm text-slate-600">
                {drive.mode === 'home' ? t('atHomeAddress', { address: homeAddressLine(drive) }) : MODE_LABELS.hub}
              </p>
            </>
          }
          actions={
            drive.changeable && drive.vehicleId !== null ? (
              <>
                <Link to={paths.testDrive(drive.vehicleId, { reschedule: drive.id, date: drive.slot.slice(0, 10) })} className={bookingLinkClass}>
                  {t('reschedule')}
                </Link>
                <CancelBooking action={paths.cancelTestDrive(drive.id)} label={t('cancelTestDrive')} onAsk={(event) => step.ask(drive, event)} />
              </>
            ) : null
          }
        />
      )}
    >
      {step.confirming ? (
        <ConfirmDialog
          title={t('cancelDialogTitle', { car: step.confirming.vehicleTitle })}
          message={t('cancelDialogMessage', { slot: slotLabel(step.confirming.slot) })}
          confirmLabel={t('cancelTestDrive')}
          cancelLabel={t('keepTestDrive')}
          cancelHref={paths.myTestDrives}
          action={paths.cancelTestDrive(step.confirming.id)}
          onCancel={step.keep}
          onConfirm={step.confirmed}
        />
      ) : null}
    </BookingsSection>
  );
}
