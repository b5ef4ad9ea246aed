import type { RouteConfigEntry } from '@react-router/dev/routes';
import { describe, expect, it } from 'vitest';
import routes from '../../app/routes.ts';
import { adminPaths, isAdminPath, localRedirect, matchPattern, onwardsTo, pageAddress, pathPatterns, paths } from '../../app/lib/paths.ts';

/**
 * app/lib/paths.ts and React Router's route config (app/routes.ts) both write every page's
 * path; these tests keep them from drifting apart (decision 018).
 */

/** Every route's full pattern ('/admin-panel/vehicles/edit/:category/:id'), the catch-all left out. */
function routePatterns(entries: RouteConfigEntry[], parent = ''): string[] {
  return entries.flatMap((entry) => {
    const own = entry.path === undefined ? parent : `${parent}/${entry.path}`;
    // A layout (no path) is no page of its own; an index route is its parent's page.
    const here = entry.index ? [parent || '/'] : entry.path !== undefined && entry.path !== '*' ? [own] : [];
    return [...here, ...routePatterns(entry.children ?? [], own)];
  });
}

const patterns = routePatterns(routes);

/** Sample arguments for each path builder: a new builder without a sample fails the test below. */
const builders: Record<string, () => string[]> = {
  'paths.search': () => [paths.search('creta'), paths.search('creta', 2), paths.search('')],
  'paths.browse': () => [paths.browse({ budget: '5-8' }), paths.browse({ make: 'maruti-suzuki' }), paths.browse({})],
  'paths.categories': () => [paths.categories(), paths.categories('suvs')],
  'paths.vehicle': () => [paths.vehicle(12), paths.vehicle('12')],
  'paths.compare': () => [paths.compare(), paths.compare([12, 34, 56]), paths.compare([12, 34], { hideCommon: true }), paths.compare([])],
  'paths.rent': () => [paths.rent(), paths.rent({ from: '2026-12-01T10:00', to: '2026-12-03T13:00' })],
  'paths.loginThen': () => [paths.loginThen('/wishlist')],
  'paths.signupThen': () => [paths.signupThen('/rent/3/book')],
  'paths.payBooking': () => [paths.payBooking(12)],
  'paths.reserveVehicle': () => [paths.reserveVehicle(12)],
  'paths.payReservation': () => [paths.payReservation(12)],
  'paths.cancelReservation': () => [paths.cancelReservation(12)],
  'paths.rentalCar': () => [paths.rentalCar(4), paths.rentalCar(4, { from: '2026-12-01T10:00', to: '2026-12-03T13:00' }, '2026-12')],
  'paths.rentalBook': () => [paths.rentalBook(4, { from: '2026-12-01T10:00', to: '2026-12-03T13:00' })],
  'adminPaths.rentalBooking': () => [adminPaths.rentalBooking(9)],
  'adminPaths.reservation': () => [adminPaths.reservation(9)],
  'paths.licencePhoto': () => [paths.licencePhoto('u1', 'front'), paths.licencePhoto('u1', 'back')],
  'paths.rentalPhoto': () => [paths.rentalPhoto(12, 'a1b2c3d4e5f6a7b8'), paths.rentalPhoto(12, 'a1b2c3d4e5f6a7b8', 'thumb')],
  'adminPaths.loginThen': () => [adminPaths.loginThen('/admin/settings')],
  'adminPaths.editVehicle': () => [adminPaths.editVehicle('suvs', 7), adminPaths.editVehicle('a b/c', 7)],
  'paths.testDrive': () => [paths.testDrive(12), paths.testDrive(12, { mode: 'home', pin: '400069', date: '2026-12-01', slot: '2026-12-01T10:00' })],
  'paths.cancelTestDrive': () => [paths.cancelTestDrive(3)],
  'paths.profileWithNotice': () => [paths.profileWithNotice('testDrive', 'booked')],
  'paths.confirmOffer': () => [paths.confirmOffer(4)],
  'paths.profileCompleteThen': () => [paths.profileCompleteThen('/vehicle/3/test-drive')],
  'paths.profileLicenceThen': () => [paths.profileLicenceThen('/rent/3/book')],
  'adminPaths.testDrivesOn': () => [adminPaths.testDrivesOn('2026-12-01')],
  'adminPaths.inspection': () => [adminPaths.inspection(4)],
  'adminPaths.newSale': () => [adminPaths.newSale(), adminPaths.newSale(12)],
  'adminPaths.sale': () => [adminPaths.sale(3)],
  'adminPaths.books': () => [adminPaths.books(), adminPaths.books('2026-11')],
  'adminPaths.booksCsv': () => [adminPaths.booksCsv('sales', '2026-11')],
  'adminPaths.saleDocument': () => [adminPaths.saleDocument(3, 8)],
  'adminPaths.saleDelivery': () => [adminPaths.saleDelivery(3)],
  'adminPaths.saleDeliveryPhoto': () => [adminPaths.saleDeliveryPhoto(3, 'a1b2'), adminPaths.saleDeliveryPhoto(3, 'a1b2', 'thumb')],
  'adminPaths.rentalBookingDocument': () => [adminPaths.rentalBookingDocument(5, 9)],
  'adminPaths.saleTransfer': () => [adminPaths.saleTransfer(3)],
  'adminPaths.inspectionsOn': () => [adminPaths.inspectionsOn('2026-12-01'), adminPaths.inspectionsOn('2026-12-01', 'booked')],
  'adminPaths.whatsappMessages': () => [adminPaths.whatsappMessages(), adminPaths.whatsappMessages({ status: 'failed', page: 2 })],
  'adminPaths.leadsExport': () => [adminPaths.leadsExport('requested-vehicles'), adminPaths.leadsExport('selling-vehicles')],
};

/** Every path the module gives, with where it came from. */
function allPaths(): Array<[string, string]> {
  const found: Array<[string, string]> = [];
  const walk = (prefix: string, object: Record<string, unknown>) => {
    for (const [key, value] of Object.entries(object)) {
      const name = `${prefix}.${key}`;
      if (typeof value === 'string') found.push([name, value]);
      else if (typeof value === 'function') {
        const sample = builders[name];
        if (!sample) throw new Error(`${name} has no sample arguments in tests/unit/paths.test.ts`);
        for (const path of sample()) found.push([name, path]);
      } else walk(name, value as Record<string, unknown>);
    }
  };
  walk('paths', paths);
  walk('adminPaths', adminPaths);
  return found;
}

describe('every path in app/lib/paths.ts is a page in app/routes.ts', () => {
  it('reads the route config', () => {
    expect(patterns).toContain('/');
    expect(patterns).toContain('/admin-panel/vehicles/edit/:category/:id');
    expect(patterns).not.toContain('/*');
  });

  it.each(allPaths())('%s (%s)', (_name, path) => {
    const pathname = new URL(path, 'http://site.invalid').pathname;
    expect(patterns.filter((pattern) => matchPattern(pattern, pathname))).not.toEqual([]);
  });

  it.each(Object.entries(pathPatterns))('the pattern %s (%s) is written the same in app/routes.ts', (_name, pattern) => {
    expect(patterns).toContain(pattern);
  });
});

describe('path helpers', () => {
  it('fills parameters encoded', () => {
    expect(paths.vehicle(12)).toBe('/vehicle/12');
    expect(adminPaths.editVehicle('a b/c', 7)).toBe('/admin-panel/vehicles/edit/a%20b%2Fc/7');
    expect(paths.loginThen('/vehicle/3?x=1')).toBe('/login?redirectTo=%2Fvehicle%2F3%3Fx%3D1');
  });

  it('matches a pattern exactly, one non-empty segment per parameter', () => {
    expect(matchPattern(pathPatterns.vehicle, '/vehicle/12')).toEqual({ id: '12' });
    expect(matchPattern(pathPatterns.vehicle, '/vehicle/')).toBeNull();
    expect(matchPattern(pathPatterns.vehicle, '/vehicle/12/more')).toBeNull();
    expect(matchPattern(pathPatterns.vehicle, '/Vehicle/12')).toBeNull();
    expect(matchPattern(adminPaths.vehicles, '/admin-panel/vehicles')).toEqual({});
  });

  it('sends a sign-in or sign-up on to the page that asked for it, through phone verification when needed', () => {
    const book = '/rent/4/book?from=2026-12-01T10:00&to=2026-12-03T10:00';
    expect(onwardsTo(paths.home, book)).toBe(book);
    expect(onwardsTo(paths.profileComplete, book)).toBe(paths.profileCompleteThen(book));
    expect(onwardsTo(paths.profileComplete, null)).toBe(paths.profileComplete);
    expect(onwardsTo(adminPaths.dashboard, book)).toBe(adminPaths.dashboard);
    expect(paths.signupThen(book)).toBe(`/signup?redirectTo=${encodeURIComponent(book)}`);
  });

  it('knows the admin pages from the sign-in and setup pages', () => {
    for (const path of ['/admin', '/admin/settings', '/admin-panel', '/admin-panel/vehicles/add']) expect(isAdminPath(path)).toBe(true);
    for (const path of [adminPaths.login, adminPaths.setup, '/administrator', '/']) expect(isAdminPath(path)).toBe(false);
  });

  it('keeps a redirect on the site and without its language prefix, which the page adds back (decision 087)', () => {
    expect(localRedirect('/hi/vehicle/3/test-drive?date=2026-12-01')).toBe('/vehicle/3/test-drive?date=2026-12-01');
    expect(localRedirect('/hi')).toBe('/');
    expect(localRedirect('/hindi')).toBe('/hindi');
    for (const away of ['//evil.example', 'https://evil.example', '/\\evil.example', '/a\u0000b', '']) expect(localRedirect(away)).toBeNull();
  });
  it('brings a data request\'s address back to its page: no "….data.data" after signing in', () => {
    expect(localRedirect('/vehicle/36/test-drive.data')).toBe('/vehicle/36/test-drive');
    expect(localRedirect('/vehicle/36/test-drive.data?date=2026-12-01&_routes=routes%2Ftest-drive')).toBe('/vehicle/36/test-drive?date=2026-12-01');
    expect(localRedirect('/hi/wishlist.data')).toBe('/wishlist');
    expect(localRedirect('/_.data')).toBe('/');
  });
});

describe('pageAddress: the page a request is for, as the visitor sees it', () => {
  it("is the page of a data request, without React Router's own parameters", () => {
    expect(pageAddress('https://www.example.in/vehicle/36/test-drive.data')).toBe('/vehicle/36/test-drive');
    expect(pageAddress('https://www.example.in/sell-vehicle/inspection.data?make=Hyundai&model=Creta&_routes=routes%2Fsell-inspection')).toBe(
      '/sell-vehicle/inspection?make=Hyundai&model=Creta',
    );
    expect(pageAddress('http://localhost:3000/_.data?_routes=root')).toBe('/');
    expect(pageAddress('http://localhost:3000/hi/wishlist.data')).toBe('/hi/wishlist');
  });

  it('is the address itself for a page request, its query untouched', () => {
    expect(pageAddress('http://localhost:3000/compare?ids=1,2')).toBe('/compare?ids=1,2');
    expect(pageAddress(new URL('http://localhost:3000/rent/3/book?from=2026-12-01T10%3A00'))).toBe('/rent/3/book?from=2026-12-01T10%3A00');
  });
});
