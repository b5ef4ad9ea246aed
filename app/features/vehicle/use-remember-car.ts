import { useEffect } from 'react';
import { detailPriceLabel } from '../../lib/format.ts';
import { KEEP_PAGE_MESSAGE } from '../../lib/offline.ts';
import { paths } from '../../lib/paths.ts';
import { detailTitle, imageSrc, type Vehicle } from '../../lib/vehicle.ts';
import { rememberCar } from './recent-cars-store.ts';

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
    // rendered for a signed-in person, a flash message's page: `signedIn` is known at the first
    // render only from a personal page's root data, decision 127), the page it would keep was never
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
