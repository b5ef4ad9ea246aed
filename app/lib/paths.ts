/**
 * Every URL the app links to, redirects to or matches requests against, in one place (decision
 * 018). React Router's route config (app/routes.ts) writes the same patterns its own way;
 * tests/unit/paths.test.ts checks that each path here is a route there.
 */

import { hasControlCharacters } from './input.ts';
import { pathInLanguage } from './i18n/language.ts';

/** The patterns of the pages that take parameters, as React Router writes them. */
export const pathPatterns = {
  vehicle: '/vehicle/:id',
  adminEditVehicle: '/admin-panel/vehicles/edit/:category/:id',
  adminLeadsExport: '/admin/leads-export/:kind',
  testDrive: '/vehicle/:id/test-drive',
  cancelTestDrive: '/test-drives/:id/cancel',
  licencePhoto: '/licence-photos/:userId/:side',
  rentalPhoto: '/rental-photos/:bookingId/:photoId',
  rentalCar: '/rent/:id',
  rentalBook: '/rent/:id/book',
  payBooking: '/profile/bookings/:id/pay',
  adminRentalBooking: '/admin/rentals/bookings/:id',
  adminSaleDelivery: '/admin/sales/:id/delivery',
  reserveVehicle: '/vehicle/:id/reserve',
  payReservation: '/profile/reservations/:id/pay',
  cancelReservation: '/profile/reservations/:id/cancel',
  adminReservation: '/admin/reservations/:id',
  adminInspection: '/admin/inspections/:id',
} as const;

/** `?from=…&to=…` (India time as the pickers write it), or '' without a range. */
function rangeQuery(range?: { from: string; to: string } | null, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  if (range) {
    params.set('from', range.from);
    params.set('to', range.to);
  }
  for (const [name, value] of Object.entries(extra)) if (value) params.set(name, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** `pattern` with each `:name` segment replaced by its value, encoded. */
function fill(pattern: string, values: Record<string, string | number>): string {
  return pattern.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(values[name])));
}

/** `path` with the given query parameters (empty and undefined ones left out). */
function withQuery(path: string, query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/**
 * The page a request is for, path and query, as its visitor sees it in the address bar. A
 * navigation inside the app asks for the page's data at another address (`/vehicle/3/test-drive.data`,
 * `/_.data` for `/`, with `_routes=`): sent to sign in with that address, a visitor came back to
 * "Page not found". Every "come back here" is built from this, never from the raw request URL.
 */
export function pageAddress(requestUrl: string | URL): string {
  const url = new URL(requestUrl);
  const path = url.pathname.endsWith('/_.data') ? url.pathname.slice(0, -'_.data'.length) : url.pathname.replace(/\.data$/, '');
  if (!url.searchParams.has('_routes')) return `${path}${url.search}`;
  url.searchParams.delete('_routes');
  const search = url.searchParams.toString();
  return `${path}${search ? `?${search}` : ''}`;
}

/**
 * `redirectTo` when it is a path of this site ('/vehicle/3/test-drive?date=…'), else null: never
 * another site ('//evil.example', 'https://…') or a backslash trick browsers read as one.
 */
export function localRedirect(redirectTo: string | null | undefined): string | null {
  if (!redirectTo || redirectTo.length > 2000 || !redirectTo.startsWith('/') || redirectTo.startsWith('//') || redirectTo.includes('\\')) return null;
  if (hasControlCharacters(redirectTo, { layout: false })) return null;
  // Without its language prefix ('/hi/vehicle/3' → '/vehicle/3'): a page redirects within its
  // own language by itself (React Router's basename, decision 087), so a page read from a
  // Hindi request's URL must not carry the prefix twice.
  // A data request's address (`….data`), as links made before pageAddress carried: its page.
  return pathInLanguage(pageAddress(new URL(redirectTo, 'http://site.invalid')), 'en');
}

/** `path` with a `redirectTo` parameter: where a sign-in page sends the visitor afterwards. */
function thenTo(path: string, redirectTo?: string): string {
  return redirectTo === undefined ? path : `${path}?redirectTo=${encodeURIComponent(redirectTo)}`;
}

/**
 * Where a sign-in or sign-up goes when the page that asked for it (`?redirectTo=`, already
 * checked by localRedirect) should take over: instead of the home page, or after phone
 * verification when the profile is not complete yet.
 */
export function onwardsTo(usual: string, redirectTo: string | null): string {
  if (!redirectTo) return usual;
  if (usual === '/') return redirectTo;
  if (usual === '/profile-complete') return thenTo('/profile-complete', redirectTo);
  return usual;
}

export const paths = {
  home: '/',
  search: (query: string, page = 1) => {
    const params = new URLSearchParams();
    if (query.trim()) params.set('q', query.trim());
    if (page > 1) params.set('page', String(page));
    const text = params.toString();
    return text ? `/?${text}` : '/';
  },
  /** The listing narrowed by its filter parameters (`/?body=suv`), as the home page's entry chips link. */
  browse: (filter: Record<string, string>) => {
    const text = new URLSearchParams(filter).toString();
    return text ? `/?${text}` : '/';
  },
  categories: (slug?: string) => (slug ? `/categories?category=${encodeURIComponent(slug)}` : '/categories'),
  vehicle: (id: number | string) => fill(pathPatterns.vehicle, { id }),
  wishlist: '/wishlist',
  /**
   * Cars side by side (`/compare?ids=12,34,56`); `hide=common` leaves out the rows that are the
   * same for every car. Without ids, `/compare` shows the cars in the browser's compare tray; an
   * empty list (`/compare?ids=`, the last car removed) is a list of none.
   */
  compare: (ids?: readonly number[], options: { hideCommon?: boolean } = {}) => {
    const query = [ids ? `ids=${ids.join(',')}` : '', options.hideCommon ? 'hide=common' : ''].filter(Boolean).join('&');
    return query ? `/compare?${query}` : '/compare';
  },
  profile: '/profile',
  profileComplete: '/profile-complete',
  profileData: '/profile/my-data',
  profileDelete: '/profile/delete',
  /** The driving-licence form (the profile page shows it too and posts here). */
  profileLicence: '/profile/licence',
  /** The driving-licence form, sending the renter on to `redirectTo` afterwards. */
  profileLicenceThen: (redirectTo: string) => thenTo('/profile/licence', redirectTo),
  /** One side of a driving licence: only its owner and the admins get it (private storage). */
  licencePhoto: (userId: string, side: 'front' | 'back') => fill(pathPatterns.licencePhoto, { userId, side }),
  /** A handover or return checklist photo: the renter of that booking and the admins only. */
  rentalPhoto: (bookingId: number, photoId: string, size?: 'thumb') => withQuery(fill(pathPatterns.rentalPhoto, { bookingId, photoId }), { size }),
  login: '/login',
  /** The sign-in page, sending the visitor on to `redirectTo` afterwards. */
  loginThen: (redirectTo: string) => thenTo('/login', redirectTo),
  logout: '/logout',
  /** The language switch's form (decision 087). */
  language: '/language',
  signup: '/signup',
  /** The sign-up page, sending the new account on to `redirectTo` (through phone verification). */
  signupThen: (redirectTo: string) => thenTo('/signup', redirectTo),
  /** Every sign-in that leaves the site (Google) comes back here to be routed by profile completeness. */
  authContinue: '/auth/continue',
  about: '/about',
  /** The app's install steps (decision 121). */
  getApp: '/app',
  contact: '/contact',
  requestVehicle: '/request-vehicle',
  sellVehicle: '/sell-vehicle',
  sellInspection: '/sell-vehicle/inspection',
  privacy: '/privacy',
  /**
   * Booking a test drive of a car: the steps are in the query (`mode`, `pin`, `date`, `slot`,
   * `reschedule` with a booking id), so each step is a page that works without JavaScript.
   */
  testDrive: (vehicleId: number | string, query: Record<string, string | number | undefined> = {}) =>
    withQuery(fill(pathPatterns.testDrive, { id: vehicleId }), query),
  /** Where a customer's cancel form posts. */
  cancelTestDrive: (id: number) => fill(pathPatterns.cancelTestDrive, { id }),
  /** The profile's list of test drives (the confirmation's link to reschedule or cancel). */
  myTestDrives: '/profile#test-drives',
  /** The profile page with one of its notices, e.g. `profileWithNotice('testDrive', 'booked')`. */
  profileWithNotice: (name: string, value: string) => `/profile?${new URLSearchParams({ [name]: value })}`,
  /** The profile asking the seller to confirm the desk's offer for inspection `id` before accepting it. */
  confirmOffer: (id: number) => `/profile?confirmOffer=${id}#inspections`,
  /** The phone verification page, sending the visitor on to `redirectTo` afterwards. */
  profileCompleteThen: (redirectTo: string) => thenTo('/profile-complete', redirectTo),
  /** Self-drive rental: the fleet for a pickup and return time (India time, `2026-12-01T10:00`). */
  rent: (range?: { from: string; to: string } | null) => `/rent${rangeQuery(range)}`,
  rentalCar: (id: number | string, range?: { from: string; to: string } | null, month?: string) =>
    fill(pathPatterns.rentalCar, { id }) + rangeQuery(range, month ? { month } : {}),
  /** The rental terms: the settings' terms of every car and each car's own (app/features/rentals/rental-facts.ts). */
  rentTerms: '/rent/terms',
  /** The booking steps: signed in, phone verified, licence on file, then book. */
  rentalBook: (id: number | string, range?: { from: string; to: string } | null) => fill(pathPatterns.rentalBook, { id }) + rangeQuery(range),
  /** The renter's bookings on the profile page. */
  myBookings: '/profile#bookings',
  /** Paying an online booking in Razorpay Checkout (the booking form sends here). */
  payBooking: (id: number) => fill(pathPatterns.payBooking, { id }),
  /** Reserving a car for sale (decision 080): the vehicle page's button posts here, then Checkout on the pay page. */
  reserveVehicle: (id: number) => fill(pathPatterns.reserveVehicle, { id }),
  payReservation: (id: number) => fill(pathPatterns.payReservation, { id }),
  cancelReservation: (id: number) => fill(pathPatterns.cancelReservation, { id }),
  /** The buyer's reservations on the profile page. */
  myReservations: '/profile#reservations',
  /** Mail and SMS as the demo and the tests "send" them. */
  devOutbox: '/dev/outbox',
  /** Test mode only: a page the browser renders unlike the server, which the hydration test must catch. */
  devHydrationMismatch: '/dev/hydration-mismatch',
} as const;

/**
 * The admin's pages. The specification names them /admin/…; the catalogue screens live under
 * /admin-panel/…, and the specification's names for those stay as aliases.
 */
export const adminPaths = {
  /** Sends on to the dashboard. */
  root: '/admin',
  dashboard: '/admin-panel',
  login: '/admin-login',
  /** The admin sign-in page, sending the admin on to `redirectTo` afterwards. */
  loginThen: (redirectTo: string) => thenTo('/admin-login', redirectTo),
  /** Creating the first admin, while there is none. */
  setup: '/setup-admin',
  vehicles: '/admin-panel/vehicles',
  addVehicle: '/admin-panel/vehicles/add',
  editVehicle: (categorySlug: string, id: number) => fill(pathPatterns.adminEditVehicle, { category: categorySlug, id }),
  categories: '/admin-panel/categories',
  addCategory: '/admin/add-category',
  sellingVehicles: '/admin-panel/selling-vehicles',
  requestedVehicles: '/admin/requested-vehicles',
  leadsExport: (kind: string) => fill(pathPatterns.adminLeadsExport, { kind }),
  statistics: '/admin/statistics',
  settings: '/admin/settings',
  /** The catalogue of car models sellers pick from, and the team's additions to it (decision 098). */
  carModels: '/admin/car-models',
  registerAdmin: '/admin/register-admin',
  auditLog: '/admin/audit-log',
  /** Cars sold at the desk and their invoices (decision 114). */
  sales: '/admin/sales',
  /** The desk's sale form, for a walk-in or a buyer's reservation. */
  newSale: (reservationId?: number) => (reservationId === undefined ? '/admin/sales/new' : `/admin/sales/new?reservation=${reservationId}`),
  sale: (id: number) => `/admin/sales/${id}`,
  saleDocument: (saleId: number, documentId: number) => `/admin/sales/${saleId}/documents/${documentId}`,
  /** The handover of a sold car to its buyer (decision 116): the checklist, the documents, the buyer's signature. */
  saleDelivery: (saleId: number) => fill(pathPatterns.adminSaleDelivery, { id: saleId }),
  /** One of a delivery's photos (`thumb`: its small copy), for the desk only. */
  saleDeliveryPhoto: (saleId: number, photoId: string, size?: 'thumb') =>
    withQuery(`/admin/sales/${saleId}/delivery/photos/${encodeURIComponent(photoId)}`, { size }),
  /** A sale's registration transfer (decision 117): its section on the sale's page reads and records steps here. */
  saleTransfer: (saleId: number) => `/admin/sales/${saleId}/transfer`,
  /** The dealer's liability list: every car sold whose RC has not reached its buyer. */
  rcTransfers: '/admin/sales/transfers',
  /** The dealer's books of a month (decision 118): sales and purchase registers, stock. */
  books: (month?: string) => (month === undefined ? '/admin/books' : `/admin/books?${new URLSearchParams({ month })}`),
  /** A register of the books as CSV: `sales`, `purchases` or `stock`. */
  booksCsv: (register: 'sales' | 'purchases' | 'stock', month: string) => `/admin/books/${register}.csv?${new URLSearchParams({ month })}`,
  /** WhatsApp messages and their delivery statuses (decision 125), newest first, of one status or all. */
  whatsappMessages: (options: { status?: string; page?: number } = {}) =>
    withQuery('/admin/whatsapp', { status: options.status, page: options.page === 1 ? undefined : options.page }),
  /** The day's test drives (today, India time, without a date). */
  testDrives: '/admin/test-drives',
  testDrivesOn: (date: string) => `/admin/test-drives?date=${encodeURIComponent(date)}`,
  /** Sellers' inspections by day (decision 084), optionally of one status. */
  inspections: '/admin/inspections',
  inspectionsOn: (date: string, status?: string) => `/admin/inspections?${new URLSearchParams(status ? { date, status } : { date })}`,
  /** One inspection at the desk: confirm, no-show, record, offer, vehicle draft. */
  inspection: (id: number) => fill(pathPatterns.adminInspection, { id }),
  /** The rental desk: the fleet's timeline, bookings, handovers and returns. */
  rentalDesk: '/admin/rentals',
  /** The desk's lists of today's pickups and returns (India time). */
  rentalPickupsToday: '/admin/rentals#pickups-today',
  rentalReturnsToday: '/admin/rentals#returns-today',
  /** The desk's list of bookings whose refund the payment provider has not made yet. */
  rentalRefundsOwed: '/admin/rentals#refunds-owed',
  /** Driving licences to review. */
  rentalLicences: '/admin/rentals/licences',
  /** One booking at the desk: confirm, refuse, handover, return, settle. */
  rentalBooking: (id: number) => fill(pathPatterns.adminRentalBooking, { id }),
  /** A booking's document (its agreement, its tax invoice) for the desk to download (decision 119). */
  rentalBookingDocument: (bookingId: number, documentId: number) => `/admin/rentals/bookings/${bookingId}/documents/${documentId}`,
  /** The desk's moves on a car reservation (extend, convert, cancel): a form action only. */
  reservation: (id: number) => fill(pathPatterns.adminReservation, { id }),
  /** The specification's names of pages that live under /admin-panel. */
  aliases: {
    addVehicle: '/admin/add-vehicle',
    manageVehicles: '/admin/manage-vehicles',
    manageCategories: '/admin/manage-categories',
    sellingVehicles: '/admin/selling-vehicles',
  },
} as const;

/** `pathname` is `prefix` itself or a page below it. */
export function isUnder(pathname: string, prefix: string): boolean {
  return pathname === prefix || pathname.startsWith(`${prefix}/`);
}

/** An admin page: under /admin or /admin-panel (the sign-in and setup pages are not). */
export function isAdminPath(pathname: string): boolean {
  return isUnder(pathname, adminPaths.root) || isUnder(pathname, adminPaths.dashboard);
}

/**
 * The parameters of `pathname` when it is a page of `pattern` (exactly, case and all: `:name`
 * stands for one non-empty segment, taken as it is, not decoded), or null.
 */
export function matchPattern(pattern: string, pathname: string): Record<string, string> | null {
  const expected = pattern.split('/');
  const actual = pathname.split('/');
  if (expected.length !== actual.length) return null;
  const params: Record<string, string> = {};
  for (const [index, part] of expected.entries()) {
    const segment = actual[index]!;
    if (part.startsWith(':')) {
      if (!segment) return null;
      params[part.slice(1)] = segment;
    } else if (part !== segment) return null;
  }
  return params;
}
