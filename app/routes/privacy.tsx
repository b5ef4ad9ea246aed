import { Link } from 'react-router';
import { useSite } from '../components/site-layout.tsx';
import { LEAD_RETENTION_MONTHS } from '../lib/lead-forms.ts';
import { AUDIT_RETENTION_MONTHS, OUTBOX_RETENTION_DAYS, RENTAL_BOOKING_RETENTION_YEARS } from '../lib/retention.ts';
import { paths } from '../lib/paths.ts';
import { pageMeta } from '../lib/seo.ts';

export const meta = pageMeta((site) => ({
  path: paths.privacy,
  title: 'Privacy',
  description: `What ${site.siteName} keeps when you request or offer a vehicle or create an account, why, who sees it, for how long, and how to download or delete it.`,
}));

/** Every retention period the server enforces (server/privacy/retention.ts), in words. */
const retention: Array<[string, string]> = [
  ['Requests and sell offers, with their photos', `${LEAD_RETENTION_MONTHS} months from the day you send them, then deleted automatically.`],
  ['Your account, profile and wishlist', 'Until you delete your account (or ask us to).'],
  ['Your driving licence and its photos', 'Until you delete your account (or ask us to); then deleted with it.'],
  [
    'Rental bookings (car, dates, amounts paid and refunded, the photos of the car taken at handover and return)',
    `${RENTAL_BOOKING_RETENTION_YEARS} years after the return date, as Indian tax law asks of our accounts. If you delete your account they are kept without your name, account or delivery PIN code.`,
  ],
  ['Test drives you book', `${LEAD_RETENTION_MONTHS} months from the time of the drive, then deleted automatically; deleted at once with your account.`],
  ['Inspections of a car you offer us (the car, the estimate shown, the appointment)', 'Until you delete your account (or ask us to); then deleted with it.'],
  [
    'Reservations of a car (the token paid, refunded or counted towards the price)',
    `${RENTAL_BOOKING_RETENTION_YEARS} years after the reservation ended, as our other accounts. If you delete your account they are kept without your name, phone or email.`,
  ],
  ['Sign-in sessions', '30 days from your last visit; signing out ends one at once.'],
  ['Phone verification codes', '10 minutes; then the code is deleted.'],
  ['Counts of form submissions and sign-in attempts per network address', 'Up to one hour.'],
  [
    'Our staff activity log',
    `${AUDIT_RETENTION_MONTHS / 12} years. It records which staff member changed what; when a request or offer is erased, the log keeps only its number and kind, never your details.`,
  ],
  ['Copies of our emails and text messages', `Only on our demonstration site, where nothing is really sent: ${OUTBOX_RETENTION_DAYS} days.`],
];

/**
 * What we keep, why, for how long, and how to use the rights India's Digital Personal Data
 * Protection Act 2023 gives: a copy, correction, erasure. Every period here is enforced by
 * the retention schedule; change both together.
 */
export default function Privacy() {
  const site = useSite();
  const mail = (
    <a href={`mailto:${site.contactEmail}`} className="font-semibold text-brand-700 underline">
      {site.contactEmail}
    </a>
  );
  const link = 'font-semibold text-brand-700 underline';
  return (
    <article className="mx-auto flex max-w-3xl flex-col gap-4 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <h1 className="text-2xl font-extrabold tracking-tight sm:text-3xl">Privacy</h1>
      <p>
        This page explains what {site.siteName} does with the details you give us: through the{' '}
        <Link to={paths.requestVehicle} className={link}>
          Request a Vehicle
        </Link>{' '}
        and{' '}
        <Link to={paths.sellVehicle} className={link}>
          Sell Your Vehicle
        </Link>{' '}
        forms, and when you create an account. It also explains your rights under India&rsquo;s Digital Personal Data Protection Act, 2023.
      </p>

      <h2 className="text-xl font-bold">What we keep</h2>
      <ul className="ml-5 list-disc space-y-1">
        <li>From the forms: your name and phone number, and the car details you type (model, year, budget or expected price, description).</li>
        <li>
          The photos you add to a sell offer. We remove hidden information from every photo when it is uploaded, including the GPS location
          phones record and the camera details.
        </li>
        <li>When you sent it, and how our team is following it up (for example &ldquo;contacted&rdquo; and their notes).</li>
        <li>
          If you have an account: your email address, name, picture (from Google, if you sign in with Google), your verified mobile number,
          your wishlist, and when you joined and last signed in. Your password is stored only as a one-way hash.
        </li>
        <li>
          If you rent a car: your driving licence number, date of birth and photos of both sides (seen only by you and our staff, never
          public), and your bookings with their dates, payments, refunds and the readings at handover and return.
        </li>
      </ul>
      <p>To stop abuse we also count form submissions and sign-in attempts per network address for up to one hour; that count is then discarded.</p>

      <h2 className="text-xl font-bold">Why</h2>
      <p>
        Only to contact you about that request or offer, and to run your account (your wishlist, and reaching you about the cars you like).
        We do not use your details for advertising, and we do not sell them or give them to anyone else.
      </p>

      <h2 className="text-xl font-bold">Who sees it</h2>
      <p>
        {site.siteName}&rsquo;s own team: the staff who sign in to our admin panel. Your photos are stored at web addresses that cannot be
        guessed; we put them in the WhatsApp message the sell form prepares for you, so they reach us with your message. What you send on
        WhatsApp is also handled by WhatsApp under its own terms.
      </p>

      <h2 className="text-xl font-bold">For how long</h2>
      <dl className="divide-y divide-slate-200 rounded-xl ring-1 ring-slate-200">
        {retention.map(([what, period]) => (
          <div key={what} className="flex flex-col gap-1 px-4 py-3 sm:flex-row sm:gap-4">
            <dt className="font-semibold sm:w-2/5 sm:shrink-0">{what}</dt>
            <dd className="text-slate-700">{period}</dd>
          </div>
        ))}
      </dl>

      <h2 className="text-xl font-bold">Your rights: a copy, correction, deletion</h2>
      <ul className="ml-5 list-disc space-y-2">
        <li>
          <strong>Download your data.</strong> Signed in, open your{' '}
          <Link to={paths.profile} className={link}>
            Profile
          </Link>{' '}
          and choose <em>Download my data</em>: a file with your account, profile, wishlist, driving licence (the photos stay on your
          profile), rental bookings, test drives, reservations, inspections of a car you offered us, and the requests and sell offers sent
          from your verified mobile number.
        </li>
        <li>
          <strong>Delete your account.</strong> On your Profile choose <em>Delete my account</em> and confirm. Your account, profile, wishlist,
          driving licence with its photos, test drives, inspections, sessions and verification codes are deleted at once; your past rental
          bookings and reservations stay in our accounts without your name (a booking in progress or a car you hold must be cancelled or
          finished first); and the requests and sell offers sent from your verified mobile number are
          erased completely, with their photos (they are not kept in any anonymised form). You are signed out.
        </li>
        <li>
          <strong>Ask us to erase a request or offer</strong>, or to show or correct what we hold: write to {mail} from any address and tell us
          the name and phone number you used, or call us on{' '}
          <a href={`tel:${site.sellerPhone.replace(/[^\d+]/g, '')}`} className={link}>
            {site.sellerPhone}
          </a>
          . We erase it with its photos, usually within a few working days.
        </li>
      </ul>
      <p>
        Questions or complaints about how we handle your data go to {mail}. If you are not satisfied with our answer, you may complain to the
        Data Protection Board of India.
      </p>
    </article>
  );
}
