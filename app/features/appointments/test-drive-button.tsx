import { Link } from 'react-router';
import { paths } from '../../lib/paths.ts';
import { offersTestDrive } from '../../lib/vehicle.ts';
// The car page's own texts: the test drive's (and its rules) load with the booking page, not with every car.
import { vehicleText as t } from '../../lib/i18n/vehicle.ts';

/** "Book a test drive" on a car for sale; nothing for a car sold, reserved or in the rental fleet. */
export function TestDriveButton({ vehicle }: { vehicle: { id: number; status: string } }) {
  if (!offersTestDrive(vehicle)) return null;
  return (
    <Link
      to={paths.testDrive(vehicle.id)}
      className="flex items-center justify-center gap-2 rounded-xl bg-white px-4 py-3 font-semibold text-brand-800 ring-2 ring-brand-600 hover:bg-brand-50"
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        className="h-5 w-5"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <rect x="3" y="4" width="18" height="17" rx="2" />
        <path d="M16 2v4M8 2v4M3 10h18M9 15l2 2 4-4" />
      </svg>
      {t('bookTestDrive')}
    </Link>
  );
}
