import { Link } from 'react-router';
import { useSite } from '../components/site-layout.tsx';
import { LEAD_RETENTION_MONTHS } from '../lib/lead-forms.ts';
import { paths } from '../lib/paths.ts';
import { seo, siteFromMatches } from '../lib/seo.ts';
import type { Route } from './+types/privacy';

export function meta({ matches }: Route.MetaArgs) {
  const site = siteFromMatches(matches);
  return seo({
    site,
    path: '/privacy',
    title: 'Privacy',
    description: `What ${site.siteName} keeps when you request or offer a vehicle, why, who sees it, for how long, and how to have it deleted.`,
  });
}

/** What happens to the details sent through the Request a Vehicle and Sell Your Vehicle forms. */
export default function Privacy() {
  const site = useSite();
  const mail = (
    <a href={`mailto:${site.contactEmail}`} className="font-semibold text-brand-700 underline">
      {site.contactEmail}
    </a>
  );
  return (
    <article className="mx-auto flex max-w-3xl flex-col gap-4 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <h1 className="text-2xl font-extrabold tracking-tight sm:text-3xl">Privacy</h1>
      <p>
        This page explains what {site.siteName} does with the details you send us through the{' '}
        <Link to={paths.requestVehicle} className="font-semibold text-brand-700 underline">
          Request a Vehicle
        </Link>{' '}
        and{' '}
        <Link to={paths.sellVehicle} className="font-semibold text-brand-700 underline">
          Sell Your Vehicle
        </Link>{' '}
        forms.
      </p>

      <h2 className="text-xl font-bold">What we keep</h2>
      <ul className="ml-5 list-disc space-y-1">
        <li>Your name and phone number.</li>
        <li>The car details you type: the model, year, budget or expected price, and the description.</li>
        <li>
          The photos you add to a sell offer. We remove hidden information from every photo when it is uploaded, including the GPS location
          phones record and the camera details.
        </li>
        <li>When you sent it, and how our team is following it up (for example &ldquo;contacted&rdquo; and their notes).</li>
      </ul>
      <p>
        To stop abuse of the forms we also count submissions per network address for up to one hour; that count is then discarded.
      </p>

      <h2 className="text-xl font-bold">Why</h2>
      <p>
        Only to contact you about that request or offer: to find the car you asked for, or to make an offer for yours. We do not use your
        details for advertising, and we do not sell them or give them to anyone else.
      </p>

      <h2 className="text-xl font-bold">Who sees it</h2>
      <p>
        {site.siteName}&rsquo;s own team: the staff who sign in to our admin panel. Your photos are stored at web addresses that cannot be
        guessed; we put them in the WhatsApp message the sell form prepares for you, so they reach us with your message. What you send on
        WhatsApp is also handled by WhatsApp under its own terms.
      </p>

      <h2 className="text-xl font-bold">For how long</h2>
      <p>
        {LEAD_RETENTION_MONTHS} months from the day you send it. After that the request or offer, with its photos, is deleted automatically.
      </p>

      <h2 className="text-xl font-bold">Seeing, correcting or deleting your details</h2>
      <p>
        Write to {mail} from any address and tell us the name and phone number you used. We will tell you what we hold, correct it, or delete
        it (with its photos) — usually within a few working days. You can also call us on{' '}
        <a href={`tel:${site.sellerPhone.replace(/[^\d+]/g, '')}`} className="font-semibold text-brand-700 underline">
          {site.sellerPhone}
        </a>
        .
      </p>
    </article>
  );
}
