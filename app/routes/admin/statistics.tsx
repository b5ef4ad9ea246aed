import { requireAdmin } from '../../../server/admin/guard.ts';
import { computeStatistics } from '../../../server/admin/statistics.ts';
import { testDriveStatistics } from '../../../server/test-drives/test-drives.ts';
import { reservationCounts } from '../../../server/reservations/reservations.ts';
import { CHART_DAYS } from '../../features/admin/admin-pages.ts';
import { BarChart } from '../../features/admin/bar-chart.tsx';
import { appContext } from '../../context.ts';
import { dateLocale, formatRupees } from '../../lib/format.ts';
import { adminPageMeta } from '../../lib/seo.ts';
import type { Route } from './+types/statistics';
import { adminStatsText as t } from '../../features/admin/admin-stats-texts.ts';

export function meta(args: Route.MetaArgs) {
  return adminPageMeta(t('title'))(args);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  await requireAdmin(services, request);
  const [statistics, testDrives, reservations] = await Promise.all([
    computeStatistics(services.database, { now: new Date(services.clock.now()) }),
    testDriveStatistics(services.database, services.clock.now()),
    reservationCounts(services),
  ]);
  return { ...statistics, testDrives, reservations };
}

const number = new Intl.NumberFormat('en-IN');
const percent = new Intl.NumberFormat('en-IN', { style: 'percent', maximumFractionDigits: 1 });

/** 'YYYY-MM-DD' -> '1 May' (the date is already India's, so it is formatted as is). */
function dayLabel(date: string): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString(dateLocale(), { day: 'numeric', month: 'short', timeZone: 'UTC' });
}

function monthLabel(month: string): string {
  return new Date(`${month}-01T00:00:00Z`).toLocaleDateString(dateLocale(), { month: 'long', year: 'numeric', timeZone: 'UTC' });
}

function StatCard({ label, value, children }: { label: string; value: string; children?: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-1 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
      <dt className="text-sm font-semibold text-slate-600">{label}</dt>
      <dd className="text-3xl font-extrabold tabular-nums tracking-tight">{value}</dd>
      {children ? <dd className="text-sm text-slate-600">{children}</dd> : null}
    </div>
  );
}

export default function Statistics({ loaderData }: Route.ComponentProps) {
  const { vehicles, categories, users, monthlySales, daily, leadsTracked, testDrives, rental, reservations } = loaderData;
  const labels = daily.map((point) => dayLabel(point.date));
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-extrabold tracking-tight">{t('title')}</h1>

      <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard label={t('totalVehicles')} value={number.format(vehicles.total)}>
          {t('vehicleBreakdown', {
            available: number.format(vehicles.available),
            reserved: number.format(vehicles.reserved),
            sold: number.format(vehicles.sold),
          })}
        </StatCard>
        <StatCard label={t('categories')} value={number.format(categories)} />
        <StatCard label={t('monthlySales')} value={formatRupees(monthlySales.amount)}>
          {t('carsSoldIn', { count: monthlySales.count, number: number.format(monthlySales.count), month: monthLabel(monthlySales.month) })}
        </StatCard>
        <StatCard label={t('totalUsers')} value={number.format(users)} />
        <StatCard label={t('testDrives')} value={number.format(testDrives.total)}>
          {t('testDriveBreakdown', {
            upcoming: number.format(testDrives.upcoming),
            done: number.format(testDrives.done),
            noShow: number.format(testDrives.noShow),
          })}
        </StatCard>
        <StatCard label={t('becameSales')} value={number.format(testDrives.becameSales)}>
          {testDrives.done > 0 ? t('soldAfterTestDrive', { count: testDrives.done, number: number.format(testDrives.done) }) : t('noTestDrivesYet')}
        </StatCard>
        <StatCard label={t('reservations')} value={number.format(reservations.reserved)}>
          {t('reservationBreakdown', { converted: number.format(reservations.converted), refunded: number.format(reservations.refunded) })}
        </StatCard>
      </dl>

      <section aria-labelledby="rental-heading" className="flex flex-col gap-3">
        <h2 id="rental-heading" className="text-lg font-bold">
          {t('rentalFleet', { month: monthLabel(rental.month) })}
        </h2>
        <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <StatCard label={t('rentalBookings')} value={number.format(rental.bookings)}>
            {t('bookedThisMonth')}
          </StatCard>
          <StatCard label={t('fleetUtilisation')} value={percent.format(rental.utilisation)}>
            {t('utilisationDetail', {
              booked: number.format(rental.bookedHours),
              available: number.format(rental.availableHours),
              count: rental.fleetCars,
              number: number.format(rental.fleetCars),
            })}
          </StatCard>
          <StatCard label={t('rentalRevenue')} value={formatRupees(rental.revenue)}>
            {t('rentalRevenueText')}
          </StatCard>
        </dl>
      </section>

      <section className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
        <BarChart
          title={t('chartTitle', { days: CHART_DAYS })}
          labelHeading={t('date')}
          labels={labels}
          series={[
            { name: t('vehiclesSold'), values: daily.map((point) => point.sold), colour: 'bg-brand-700' },
            { name: t('leads'), values: daily.map((point) => point.leads), colour: 'bg-amber-500' },
          ]}
          emptyText={t('chartEmpty', { days: CHART_DAYS })}
        />
        <p className="mt-4 text-sm text-slate-600">
          {t('chartNote')}
          {leadsTracked ? null : t('leadsNotTracked')}
        </p>
      </section>
    </div>
  );
}
