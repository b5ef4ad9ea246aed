import { requireAdmin } from '../../../server/admin/guard.ts';
import { computeStatistics } from '../../../server/admin/statistics.ts';
import { testDriveStatistics } from '../../../server/test-drives/test-drives.ts';
import { reservationCounts } from '../../../server/reservations/reservations.ts';
import { CHART_DAYS } from '../../lib/admin-pages.ts';
import { BarChart } from '../../components/admin/bar-chart.tsx';
import { appContext } from '../../context.ts';
import { formatRupees } from '../../lib/format.ts';
import { adminPageMeta } from '../../lib/seo.ts';
import type { Route } from './+types/statistics';

export const meta = adminPageMeta('Statistics');

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
  return new Date(`${date}T00:00:00Z`).toLocaleDateString('en-IN', { day: 'numeric', month: 'short', timeZone: 'UTC' });
}

function monthLabel(month: string): string {
  return new Date(`${month}-01T00:00:00Z`).toLocaleDateString('en-IN', { month: 'long', year: 'numeric', timeZone: 'UTC' });
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
      <h1 className="text-2xl font-extrabold tracking-tight">Statistics</h1>

      <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard label="Total Vehicles" value={number.format(vehicles.total)}>
          {number.format(vehicles.available)} available · {number.format(vehicles.reserved)} reserved · {number.format(vehicles.sold)} sold
        </StatCard>
        <StatCard label="Categories" value={number.format(categories)} />
        <StatCard label="Monthly Sales" value={formatRupees(monthlySales.amount)}>
          {number.format(monthlySales.count)} {monthlySales.count === 1 ? 'car' : 'cars'} sold in {monthLabel(monthlySales.month)}
        </StatCard>
        <StatCard label="Total Users" value={number.format(users)} />
        <StatCard label="Test Drives" value={number.format(testDrives.total)}>
          {number.format(testDrives.upcoming)} upcoming · {number.format(testDrives.done)} done · {number.format(testDrives.noShow)} no-show
        </StatCard>
        <StatCard label="Test Drives That Became Sales" value={number.format(testDrives.becameSales)}>
          {testDrives.done > 0 ? `Cars sold after a test drive (${number.format(testDrives.done)} ${testDrives.done === 1 ? 'test drive' : 'test drives'} done)` : 'No test drives done yet'}
        </StatCard>
        <StatCard label="Reservations" value={number.format(reservations.reserved)}>
          Paid tokens · {number.format(reservations.converted)} became sales · {number.format(reservations.refunded)} refunded
        </StatCard>
      </dl>

      <section aria-labelledby="rental-heading" className="flex flex-col gap-3">
        <h2 id="rental-heading" className="text-lg font-bold">
          Rental fleet, {monthLabel(rental.month)}
        </h2>
        <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <StatCard label="Rental Bookings" value={number.format(rental.bookings)}>
            Booked this month
          </StatCard>
          <StatCard label="Fleet Utilisation" value={percent.format(rental.utilisation)}>
            {number.format(rental.bookedHours)} of {number.format(rental.availableHours)} hours booked · {number.format(rental.fleetCars)} {rental.fleetCars === 1 ? 'car' : 'cars'}
          </StatCard>
          <StatCard label="Rental Revenue" value={formatRupees(rental.revenue)}>
            Rent, delivery and return charges of rentals picked up this month, and rent kept on late cancellations
          </StatCard>
        </dl>
      </section>

      <section className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
        <BarChart
          title={`Vehicles sold and leads per day, last ${CHART_DAYS} days`}
          labelHeading="Date"
          labels={labels}
          series={[
            { name: 'Vehicles sold', values: daily.map((point) => point.sold), colour: 'bg-brand-700' },
            { name: 'Leads', values: daily.map((point) => point.leads), colour: 'bg-amber-500' },
          ]}
          emptyText={`No sales or leads in the last ${CHART_DAYS} days.`}
        />
        <p className="mt-4 text-sm text-slate-600">
          Days are India time (IST). Leads are vehicle requests and sell offers.
          {leadsTracked ? null : ' They are counted as soon as the request and sell forms are live.'}
        </p>
      </section>
    </div>
  );
}
