import sharp from 'sharp';
import type { AppServices } from '../../services.ts';
import { slotInstant } from '../../../app/features/appointments/test-drives.ts';
import { HOUR_MS } from '../../../app/features/rentals/rental-price.ts';
import { saveVerifiedPhone, ensureProfile } from '../../accounts/profiles.ts';
import { submitLicence, reviewLicence } from '../../rentals/licences.ts';
import { createBooking } from '../../rentals/bookings.ts';
import { cancelBooking, confirmBooking, handOver, refuseBooking, returnCar, settleDeposit } from '../../rentals/lifecycle.ts';
import { rupeesToPaise } from '../../../app/lib/money.ts';
import { bookTestDrive, changeTestDriveStatus, cancelOwnTestDrive } from '../../test-drives/test-drives.ts';
import { settingsFor } from '../../admin/settings.ts';
import { createVehicleRequest } from '../../leads/requests.ts';
import { updateLead } from '../../leads/leads.ts';
import { createSellSubmission } from '../../leads/sell.ts';
import { demoFleetVehicles } from './rental-fleet.ts';
import { seedDemoSales } from './sales.ts';
import { checklistItemLabels, CHECKLIST_ITEMS } from '../../../app/features/rentals/rental-checklist.ts';
import type { ChecklistInput } from '../../rentals/checklists.ts';
import { addDays, indiaDateTimeParam, indiaDay } from '../../../app/lib/india-time.ts';

/**
 * The demo's week of work, around the moment it is seeded (India time): test drives done, missed,
 * today and coming, rental bookings in every state, the customers behind them (verified phones,
 * licences on file) and a few leads. Without them the rental desk and the dashboard of a fresh
 * demo show nothing but zeros.
 *
 * Every row is written by the services a customer or the desk would use, each run with a clock
 * set to the moment that step would have happened (a booking made two days before its pickup,
 * handed over at pickup, taken back at return), so the rows, the audit log and the outbox read
 * as they would after a real week. Only for `npm run demo` (APP_MODE=demo) on the database the
 * demo inventory was just loaded into: the test suite's seeded servers book the same cars at
 * chosen times and count their bookings.
 */

type Customer = { name: string; email: string; phone: string; dateOfBirth: string; licence: string; approved: boolean };

const CUSTOMERS: Customer[] = [
  { name: 'Rohan Mehta', email: 'rohan.mehta@example.in', phone: '+919820011223', dateOfBirth: '1991-04-17', licence: 'MH02 20110034567', approved: true },
  { name: 'Priya Nair', email: 'priya.nair@example.in', phone: '+919867045120', dateOfBirth: '1994-11-02', licence: 'MH47 20150078123', approved: true },
  { name: 'Aakash Kulkarni', email: 'aakash.k@example.in', phone: '+919930256781', dateOfBirth: '1988-07-29', licence: 'MH03 20080012984', approved: true },
  { name: 'Sneha Iyer', email: 'sneha.iyer@example.in', phone: '+919769330045', dateOfBirth: '1996-02-08', licence: 'MH01 20170045611', approved: true },
  {
    name: 'Karan Malhotra',
    email: 'karan.malhotra@example.in',
    phone: '+919821765430',
    dateOfBirth: '1985-12-11',
    licence: 'MH04 20050067210',
    approved: true,
  },
  { name: 'Farhan Shaikh', email: 'farhan.shaikh@example.in', phone: '+919004512876', dateOfBirth: '1999-09-21', licence: 'MH02 20190098345', approved: false },
];

const DESK = 'desk@gaadibazaar.in';

/** A licence photo's stand-in: a plain card with the holder's name, made through the upload pipeline. */
async function licencePhoto(customer: Customer, side: 'FRONT' | 'BACK'): Promise<Uint8Array> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="400"><rect width="640" height="400" rx="24" fill="#e0f2fe"/><rect x="24" y="24" width="592" height="56" rx="8" fill="#1e40af"/><text x="44" y="62" font-family="sans-serif" font-size="26" fill="#fff">DRIVING LICENCE · ${side}</text><text x="44" y="160" font-family="sans-serif" font-size="30" fill="#0f172a">${customer.name}</text><text x="44" y="210" font-family="monospace" font-size="26" fill="#0f172a">${customer.licence}</text><text x="44" y="260" font-family="sans-serif" font-size="22" fill="#334155">DOB ${customer.dateOfBirth}</text></svg>`;
  return new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer());
}

/** A checklist photo's stand-in: a drawn car seen from one side (or its dashboard), labelled. */
async function carPhoto(label: string, detail: string, tone: string): Promise<Uint8Array> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600"><rect width="800" height="600" fill="#cbd5e1"/><rect y="420" width="800" height="180" fill="#64748b"/><rect x="140" y="250" width="520" height="150" rx="40" fill="${tone}"/><rect x="230" y="170" width="340" height="110" rx="30" fill="${tone}"/><rect x="260" y="190" width="280" height="70" rx="16" fill="#e0f2fe"/><circle cx="250" cy="410" r="52" fill="#0f172a"/><circle cx="550" cy="410" r="52" fill="#0f172a"/><rect x="24" y="24" width="752" height="64" rx="10" fill="#0f172a" opacity="0.8"/><text x="44" y="68" font-family="sans-serif" font-size="32" fill="#fff">${label}</text><text x="44" y="560" font-family="sans-serif" font-size="28" fill="#fff">${detail}</text></svg>`;
  return new Uint8Array(await sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer());
}

/** A demo checklist: the five photos of the car and its damage notes. */
async function demoChecklist(car: string, reading: string, damage: Array<{ note: string; isNew?: boolean; charge?: number }> = []): Promise<ChecklistInput> {
  const photos: ChecklistInput['photos'] = {};
  for (const item of CHECKLIST_ITEMS) {
    photos[item] = {
      name: `${item}.jpg`,
      source: await carPhoto(
        `${checklistItemLabels('en')[item].toUpperCase()} · ${car}`,
        item === 'dashboard' ? reading : '',
        item === 'dashboard' ? '#334155' : '#b91c1c',
      ),
    };
  }
  const notes = await Promise.all(
    damage.map(async (item) => ({ ...item, photo: { name: 'damage.jpg', source: await carPhoto(`DAMAGE · ${car}`, item.note, '#b45309') } })),
  );
  return { photos, damage: notes };
}

/** The services with the clock at `ms`: what a step would have written then. */
function at(services: AppServices, ms: number): AppServices {
  return { ...services, clock: { now: () => ms } };
}

export async function seedDemoWeek(services: AppServices): Promise<{ testDrives: number; bookings: number; leads: number; sales: number }> {
  const nowMs = services.clock.now();
  const today = indiaDay(nowMs);
  /** An India-time moment: `days` from today at `hour`:00. */
  const day = (days: number, hour: number) => slotInstant(`${addDays(today, days)}T${String(hour).padStart(2, '0')}:00`).getTime();
  const slot = (days: number, hour: number) => indiaDateTimeParam(day(days, hour));
  const settings = await settingsFor(services);

  // --- customers: accounts, verified phones, licences (one still waiting for review)
  const users: string[] = [];
  for (const customer of CUSTOMERS) {
    const signedUp = await services.auth.api.signUpEmail({ body: { email: customer.email, password: `demo-${customer.phone}`, name: customer.name } });
    const user = signedUp.user;
    // They joined ten days ago, before the bookings below: the account and the profile say so alike.
    const joinedAt = new Date(nowMs - 10 * 24 * HOUR_MS);
    await services.database.db.updateTable('user').set({ createdAt: joinedAt.toISOString() }).where('id', '=', user.id).execute();
    await ensureProfile(services.database, { ...user, image: user.image ?? null, createdAt: joinedAt }, joinedAt.getTime());
    await saveVerifiedPhone(services.database, user.id, { name: customer.name, phone: customer.phone }, joinedAt.getTime());
    const submittedAt = at(services, nowMs - 9 * 24 * HOUR_MS);
    await submitLicence(submittedAt, {
      userId: user.id,
      number: customer.licence,
      dateOfBirth: customer.dateOfBirth,
      front: { name: 'licence-front.png', source: await licencePhoto(customer, 'FRONT') },
      back: { name: 'licence-back.png', source: await licencePhoto(customer, 'BACK') },
    });
    if (customer.approved) await reviewLicence(at(services, nowMs - 8 * 24 * HOUR_MS), { userId: user.id, adminEmail: DESK, decision: 'approve' });
    users.push(user.id);
  }
  const [rohan, priya, aakash, sneha, karan, farhan] = users as [string, string, string, string, string, string];

  // --- test drives of sale cars: past (done, no-show), today, upcoming (booked, confirmed, cancelled)
  const saleCars = await services.database.db
    .selectFrom('vehicles')
    .select('id')
    .where('purpose', '=', 'sale')
    .where('status', '=', 'available')
    .orderBy('id', 'desc')
    .limit(8)
    .execute();
  const car = (index: number) => Number(saleCars[index % saleCars.length]!.id);
  const pin = settings.serviceAreas[0]?.pinCode ?? '';
  const drives: Array<{ user: string; car: number; days: number; hour: number; home?: boolean; then?: 'done' | 'no_show' | 'confirm' | 'cancel' }> = [
    { user: rohan, car: car(0), days: -4, hour: 11, then: 'done' },
    { user: priya, car: car(1), days: -3, hour: 16, then: 'no_show' },
    { user: aakash, car: car(2), days: -2, hour: 12, home: true, then: 'done' },
    { user: sneha, car: car(3), days: -1, hour: 17, then: 'done' },
    { user: farhan, car: car(4), days: 0, hour: 11 },
    { user: priya, car: car(5), days: 0, hour: 15, home: true },
    { user: rohan, car: car(6), days: 0, hour: 18 },
    { user: aakash, car: car(7), days: 1, hour: 10, then: 'confirm' },
    { user: sneha, car: car(0), days: 2, hour: 16 },
    { user: farhan, car: car(1), days: 3, hour: 12, then: 'cancel' },
  ];
  for (const drive of drives) {
    const startMs = day(drive.days, drive.hour);
    const booked = await bookTestDrive(at(services, startMs - 2 * 24 * HOUR_MS), settings, {
      userId: drive.user,
      vehicleId: drive.car,
      slot: slot(drive.days, drive.hour),
      mode: drive.home && pin ? 'home' : 'hub',
      pinCode: drive.home && pin ? pin : '',
      street: drive.home && pin ? '12 Sea View, Juhu Tara Road' : '',
      landmark: drive.home && pin ? 'Juhu Circle' : '',
    });
    // Today's: confirmed, and done once their hour has passed.
    const then = drive.then ?? (drive.days === 0 ? (startMs + HOUR_MS <= nowMs ? 'done' : 'confirm') : undefined);
    if (then === 'cancel') await cancelOwnTestDrive(at(services, startMs - 24 * HOUR_MS), { id: booked.id, userId: drive.user });
    else if (then === 'done' || then === 'no_show') await changeTestDriveStatus(at(services, startMs + HOUR_MS), { id: booked.id, action: then });
    else if (then === 'confirm') await changeTestDriveStatus(at(services, startMs - 24 * HOUR_MS), { id: booked.id, action: 'confirm' });
  }

  // --- rental bookings: one in each state, on the fleet's cars
  const fleetRows = await services.database.db.selectFrom('vehicles').select(['id', 'name']).where('purpose', '=', 'rental').execute();
  const fleet = (name: string) => {
    const row = fleetRows.find((candidate) => candidate.name === name);
    if (!row) throw new Error(`Demo fleet car missing: ${name}`);
    return Number(row.id);
  };
  const [dzire, ertiga, innova, swift, creta, thar, amaze] = demoFleetVehicles.map((vehicle) => fleet(vehicle.name)) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const book = (user: string, vehicleId: number, fromMs: number, toMs: number, bookedMs: number, delivery = false) =>
    createBooking(at(services, bookedMs), {
      userId: user,
      vehicleId,
      fromMs,
      toMs,
      pickup: delivery && pin ? 'delivery' : 'hub',
      ...(delivery && pin ? { pinCode: pin, deliveryAddress: 'Flat 304, Sai Darshan, Chakala Road, Andheri East' } : {}),
      protection: delivery,
    });
  // The last full hour in India (half past the hour in UTC).
  const istHour = slotInstant(`${indiaDateTimeParam(nowMs).slice(0, 13)}:00`).getTime();
  // Two hours from now, but never past half past eleven tonight: a demo started late in the
  // evening still has a pickup and a return today (the dashboard's tiles count today's).
  const laterTodayFrom = (hour: number) => Math.min(Math.max(day(0, hour), istHour + 2 * HOUR_MS), day(0, 23) + HOUR_MS / 2);

  // Closed: out and back last week, the deposit settled.
  const closed = await book(aakash, ertiga, day(-7, 9), day(-5, 9), day(-9, 20));
  await confirmBooking(at(services, day(-9, 21)), { bookingId: closed.id, actorEmail: DESK });
  // What the desk collected at each handover, as a desk does: cash, UPI with its UTR, a card with its approval code.
  const paid = (booking: { quote: { dueAtPickup: number } }, method: 'cash' | 'upi' | 'card', reference = '') => ({
    amountPaise: rupeesToPaise(booking.quote.dueAtPickup),
    method,
    reference,
  });
  await handOver(at(services, day(-7, 9)), {
    bookingId: closed.id,
    odometerOut: 41_210,
    fuelOut: 8,
    checklist: await demoChecklist('Ertiga', '41,210 km · full'),
    collected: paid(closed, 'upi', '433712098765'),
    actorEmail: DESK,
  });
  await returnCar(at(services, day(-5, 9) + HOUR_MS / 2), {
    bookingId: closed.id,
    odometerIn: 41_735,
    fuelIn: 8,
    fuelCharge: 0,
    checklist: await demoChecklist('Ertiga', '41,735 km · full'),
    actorEmail: DESK,
  });
  await settleDeposit(at(services, day(-5, 12)), {
    bookingId: closed.id,
    money: { amountPaise: null, method: 'upi', reference: '433798120456' },
    actorEmail: DESK,
  });
  // Returned two hours late and 60 km over, the deposit still to settle.
  const returned = await book(rohan, dzire, day(-4, 10), day(-2, 10), day(-6, 19), true);
  await confirmBooking(at(services, day(-6, 20)), { bookingId: returned.id, actorEmail: DESK });
  await handOver(at(services, day(-4, 10)), {
    bookingId: returned.id,
    odometerOut: 58_020,
    fuelOut: 6,
    checklist: await demoChecklist('Dzire', '58,020 km · 6/8', [{ note: 'Small dent on the left rear door' }]),
    collected: paid(returned, 'card', 'A7K29Q'),
    actorEmail: DESK,
  });
  await returnCar(at(services, day(-2, 12)), {
    bookingId: returned.id,
    odometerIn: 58_560,
    fuelIn: 5,
    fuelCharge: 400,
    checklist: await demoChecklist('Dzire', '58,560 km · 5/8', [
      { note: 'Small dent on the left rear door' },
      { note: 'Scratch on the front bumper', isNew: true, charge: 1500 },
    ]),
    actorEmail: DESK,
  });
  // Active: one out since the day before yesterday and due back this evening, one handed over
  // a few hours ago.
  const dueToday = await book(karan, ertiga, day(-2, 9), laterTodayFrom(19), day(-4, 18));
  await confirmBooking(at(services, day(-4, 19)), { bookingId: dueToday.id, actorEmail: DESK });
  await handOver(at(services, day(-2, 9)), {
    bookingId: dueToday.id,
    odometerOut: 41_802,
    fuelOut: 8,
    checklist: await demoChecklist('Ertiga', '41,802 km · full'),
    collected: paid(dueToday, 'cash'),
    actorEmail: DESK,
  });
  const activeFrom = istHour - 3 * HOUR_MS;
  const active = await book(sneha, swift, activeFrom, activeFrom + 2 * 24 * HOUR_MS, activeFrom - 2 * 24 * HOUR_MS, true);
  await confirmBooking(at(services, activeFrom - 40 * HOUR_MS), { bookingId: active.id, actorEmail: DESK });
  await handOver(at(services, activeFrom), {
    bookingId: active.id,
    odometerOut: 23_480,
    fuelOut: 8,
    checklist: await demoChecklist('Swift', '23,480 km · full'),
    collected: paid(active, 'cash'),
    actorEmail: DESK,
  });
  // Confirmed: picked up this evening, and a long weekend from tomorrow.
  const laterToday = laterTodayFrom(18);
  const pickupToday = await book(priya, amaze, laterToday, laterToday + 24 * HOUR_MS, nowMs - 30 * HOUR_MS);
  await confirmBooking(at(services, nowMs - 26 * HOUR_MS), { bookingId: pickupToday.id, actorEmail: DESK });
  const weekend = await book(aakash, innova, day(1, 8), day(4, 20), nowMs - 3 * 24 * HOUR_MS);
  await confirmBooking(at(services, nowMs - 3 * 24 * HOUR_MS + 3 * HOUR_MS), { bookingId: weekend.id, actorEmail: DESK });
  // Requested an hour ago by a renter whose licence is still waiting for review.
  await book(farhan, creta, day(3, 10), day(5, 10), nowMs - HOUR_MS, true);
  // Cancelled by the renter well before pickup (a full refund).
  const cancelled = await book(rohan, thar, day(5, 9), day(7, 9), nowMs - 4 * 24 * HOUR_MS);
  await confirmBooking(at(services, nowMs - 4 * 24 * HOUR_MS + HOUR_MS), { bookingId: cancelled.id, actorEmail: DESK });
  await cancelBooking(at(services, nowMs - 20 * HOUR_MS), { userId: rohan, bookingId: cancelled.id });
  // Refused: the car goes for its service that week.
  const refused = await book(sneha, ertiga, day(2, 9), day(3, 21), nowMs - 2 * 24 * HOUR_MS);
  await refuseBooking(at(services, nowMs - 2 * 24 * HOUR_MS + 2 * HOUR_MS), {
    bookingId: refused.id,
    reason: 'The Ertiga is in for its scheduled service those days. Please try the Innova Crysta.',
    actorEmail: DESK,
  });

  // --- leads: a few requests and a sell offer, new and worked
  const requests = [
    {
      name: 'Vikram Desai',
      phone: '9821034567',
      model: 'Hyundai Creta 2021 diesel automatic',
      year: '2021',
      budget: '₹12–14 lakh',
      description: 'White or grey, one owner, Mumbai registration.',
      daysAgo: 5,
      status: 'contacted' as const,
    },
    {
      name: 'Neha Joshi',
      phone: '9892215678',
      model: 'Maruti Suzuki Baleno',
      year: '2020',
      budget: '₹6 lakh',
      description: 'Automatic preferred, for daily office drive.',
      daysAgo: 2,
      status: 'new' as const,
    },
    {
      name: 'Imran Qureshi',
      phone: '9773348120',
      model: 'Toyota Fortuner',
      year: '2019',
      budget: '₹25 lakh',
      description: '',
      daysAgo: 0,
      status: 'new' as const,
    },
  ];
  for (const request of requests) {
    const created = await createVehicleRequest(services.database, request, new Date(nowMs - request.daysAgo * 24 * HOUR_MS - 3 * HOUR_MS));
    if (request.status !== 'new')
      await updateLead(services, 'request', created.id, { status: request.status, notes: 'Called back; sent two matching cars on WhatsApp.' }, DESK);
  }
  await createSellSubmission(
    services,
    {
      name: 'Suresh Patil',
      phone: '9819876543',
      vehicle: 'Honda City ZX CVT',
      year: '2019',
      price: '₹8,50,000',
      description: 'Single owner, full service history at the dealer, 48,000 km.',
    },
    [],
    new Date(nowMs - 26 * HOUR_MS),
  );

  const sales = await seedDemoSales(services, (car, reading) => demoChecklist(car, reading));
  return { testDrives: drives.length, bookings: 8, leads: requests.length + 1, sales: sales.length };
}
