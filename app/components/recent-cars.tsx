import { useEffect } from 'react';
import { detailPriceLabel } from '../lib/format.ts';
import { KEEP_PAGE_MESSAGE } from '../lib/offline.ts';
import { paths } from '../lib/paths.ts';
import { detailTitle, imageSrc, type Vehicle } from '../lib/vehicle.ts';
import { rememberCar, useRecentCars } from './recent-cars-store.ts';

/** Whether this document was loaded at `path` (the worker kept it then), not reached inside the app. */
function loadedAsDocument(path: string): boolean {
  const entry = performance.getEntriesByType('navigation')[0];
  return entry !== undefined && new URL(entry.name).pathname === path;
}

/** The photo width the offline page shows: a card's. */
const THUMB_WIDTH = 480;

/**
 * Remembers the car a vehicle page shows on this device (recent-cars-store.ts). Its photo is
 * asked for once at the offline list's size, and its page is kept by the service worker, so
 * the offline list's photo and link work without a signal.
 */
export function useRememberCar(vehicle: Pick<Vehicle, 'id' | 'name' | 'make' | 'model' | 'price' | 'images'> | null, mediaBase: string, signedIn: boolean) {
  const id = vehicle?.id;
  useEffect(() => {
    if (!vehicle) return;
    const cover = vehicle.images[0];
    const image = cover ? imageSrc(cover, THUMB_WIDTH, mediaBase) : null;
    rememberCar({ id: vehicle.id, title: detailTitle(vehicle), price: detailPriceLabel(vehicle.price), image, url: paths.vehicle(vehicle.id) });
    // The worker keeps the car's page and photo for the offline list. Opened inside the app (or
    // signed in, when the page loaded is not the shared one), the page it would keep was never
    // loaded as one, and a first visit's page came before the worker: it fetches the signed-out
    // page itself. A page it answered as a document is kept already.
    if (!('serviceWorker' in navigator)) return;
    const { serviceWorker } = navigator;
    const url = paths.vehicle(vehicle.id);
    const keptAlready = serviceWorker.controller !== null && !signedIn && loadedAsDocument(url);
    void serviceWorker.ready.then((registration) => registration.active?.postMessage({ type: KEEP_PAGE_MESSAGE, url: keptAlready ? null : url, image }));
    // Once per car shown, not on every render of the same car.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id]);
}

/**
 * The remembered cars as links. Plain document links (`reloadDocument`): offline, a page comes
 * from the service worker as a whole document; the router's data requests are never kept.
 */
export function RecentCarsList() {
  const cars = useRecentCars();
  if (cars.length === 0) {
    return <p className="rounded-2xl bg-white p-5 text-slate-600 shadow-sm ring-1 ring-slate-200">Cars you open will be listed here, to read again without a signal.</p>;
  }
  return (
    <ul className="grid gap-3 sm:grid-cols-2" aria-label="Cars you opened recently">
      {cars.map((car) => (
        <li key={car.id} className="min-w-0">
          <a href={car.url} className="flex items-center gap-3 rounded-2xl bg-white p-3 shadow-sm ring-1 ring-slate-200 hover:ring-brand-600">
            {car.image ? (
              <img src={car.image} alt="" width={96} height={72} className="h-18 w-24 shrink-0 rounded-lg bg-slate-100 object-cover" />
            ) : (
              <span aria-hidden="true" className="h-18 w-24 shrink-0 rounded-lg bg-slate-100" />
            )}
            <span className="flex min-w-0 flex-col">
              <span className="truncate font-semibold text-slate-900">{car.title}</span>
              <span className="font-bold text-brand-800">{car.price}</span>
            </span>
          </a>
        </li>
      ))}
    </ul>
  );
}
