import { Link } from 'react-router';
import { useSite } from '../components/site-layout.tsx';
import { paths } from '../lib/paths.ts';
import { pageMeta } from '../lib/seo.ts';

export const meta = pageMeta({
  path: paths.about,
  title: 'About Us',
  description: 'A trusted seller of inspected, serviced refurbished cars, and a car rental service you can rely on.',
});

export default function About() {
  const site = useSite();
  return (
    <article className="mx-auto flex max-w-3xl flex-col gap-4 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <h1 className="text-2xl font-extrabold tracking-tight sm:text-3xl">About Us</h1>
      <p>
        {site.siteName} is a trusted seller of refurbished cars. Every car we sell is inspected point by point, serviced and
        refurbished by our own workshop before it reaches our showroom, and comes with its service history, clear papers
        and an honest condition report.
      </p>
      <p>
        We also rent cars — self-drive or with a driver — for a day out, a family trip or a month-long assignment, from
        hatchbacks to seven-seaters.
      </p>
      <h2 className="text-xl font-bold">Why buyers choose us</h2>
      <ul className="ml-5 list-disc space-y-1">
        <li>Inspected and serviced cars with a written condition report</li>
        <li>Transparent on-road prices in rupees, no hidden charges</li>
        <li>Finance, insurance transfer and RC transfer handled for you</li>
        <li>Exchange your old car against a refurbished one</li>
      </ul>
      <p>
        Looking for something particular?{' '}
        <Link to={paths.requestVehicle} className="font-semibold text-brand-700 underline">
          Request a vehicle
        </Link>{' '}
        or{' '}
        <Link to={paths.contact} className="font-semibold text-brand-700 underline">
          contact us
        </Link>
        .
      </p>
    </article>
  );
}
