import { photoShareImage, siteShareImage } from './share-image.ts';
import { currentLanguage } from './i18n/current.ts';
import { pathInLanguage } from './i18n/language.ts';
import { detailTitle, type ImageRef, type Vehicle } from './vehicle.ts';

/** `url` (absolute) as the address of the page in its language: a Hindi page's data names the Hindi page. */
function inPageLanguage(url: string): string {
  const address = new URL(url);
  address.pathname = pathInLanguage(address.pathname, currentLanguage());
  return address.href;
}

/**
 * schema.org descriptions of a car for sale and a rental car, for search engines' rich results
 * (decision 086). Google's Product rules ask for a name, at least one image, and an Offer with
 * price, priceCurrency and availability; the car's own facts (brand, model, year, odometer in
 * km, fuel, gearbox) are what its vehicle listings read.
 */

type Site = { siteOrigin: string; siteName: string };
type JsonLd = Record<string, unknown>;

/**
 * Every photo's share JPEG, absolute on the app's origin (the first is the page's og:image); a
 * car without photos gives the site's card, as its preview does: the rules want an image.
 */
function imagesOf(images: readonly ImageRef[], alt: string, site: Site): string[] {
  const shared = images.length > 0 ? images.map((image) => photoShareImage(image, alt)) : [siteShareImage(site.siteName)];
  return shared.map((image) => new URL(image.path, site.siteOrigin).href);
}

type CarFacts = Pick<Vehicle, 'make' | 'model' | 'year' | 'fuelType' | 'transmission'>;

/** The facts of the car itself, each only when it is known. */
function carFacts(car: CarFacts): JsonLd {
  return {
    ...(car.make ? { brand: { '@type': 'Brand', name: car.make } } : {}),
    ...(car.model ? { model: car.model } : {}),
    ...(car.year ? { vehicleModelDate: car.year } : {}),
    ...(car.fuelType ? { fuelType: car.fuelType } : {}),
    ...(car.transmission ? { vehicleTransmission: car.transmission } : {}),
  };
}

const AVAILABILITY = {
  available: 'https://schema.org/InStock',
  // Held for a buyer who paid the token amount: it may still come back on sale.
  reserved: 'https://schema.org/LimitedAvailability',
  sold: 'https://schema.org/SoldOut',
  // A draft is never public (decision 084); named so every status has an answer.
  draft: 'https://schema.org/OutOfStock',
} as const;

/**
 * A car for sale: a Car (a Product) with its Offer in rupees. A car whose price is "on request"
 * has no Offer, since an Offer without a price breaks the rules; it is then no rich result.
 */
export function vehicleStructuredData(vehicle: Vehicle, url: string, site: Site): JsonLd {
  const name = detailTitle(vehicle);
  return {
    '@context': 'https://schema.org',
    '@type': 'Car',
    name,
    url: inPageLanguage(url),
    image: imagesOf(vehicle.images, name, site),
    ...(vehicle.description ? { description: vehicle.description } : {}),
    ...carFacts(vehicle),
    ...(vehicle.odometer !== null ? { mileageFromOdometer: { '@type': 'QuantitativeValue', value: vehicle.odometer, unitCode: 'KMT' } } : {}),
    itemCondition: 'https://schema.org/UsedCondition',
    ...(vehicle.priceRupees !== null && vehicle.priceRupees > 0
      ? {
          offers: {
            '@type': 'Offer',
            url,
            price: vehicle.priceRupees,
            priceCurrency: 'INR',
            availability: AVAILABILITY[vehicle.status],
            itemCondition: 'https://schema.org/UsedCondition',
            seller: { '@type': 'AutoDealer', name: site.siteName, url: inPageLanguage(new URL('/', site.siteOrigin).href) },
          },
        }
      : {}),
  };
}

export type RentalCarFacts = CarFacts & {
  id: number;
  name: string;
  seats: number;
  dailyRate: number;
  hourlyRate: number;
  weeklyRate: number | null;
};

/** One rate of a rental, as a price per unit (UN/CEFACT codes: DAY, HUR, WEE). */
function rate(price: number, unitCode: 'DAY' | 'HUR' | 'WEE'): JsonLd {
  return { '@type': 'UnitPriceSpecification', price, priceCurrency: 'INR', unitCode, referenceQuantity: { '@type': 'QuantitativeValue', value: 1, unitCode } };
}

/**
 * A rental car: a Car offered for hire (GoodRelations' LeaseOut), its Offer priced by the day,
 * the unit search results show, with the hour's and week's rates beside it.
 */
export function rentalCarStructuredData(car: RentalCarFacts, images: readonly ImageRef[], url: string, site: Site): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'Car',
    name: car.name,
    url: inPageLanguage(url),
    image: imagesOf(images, car.name, site),
    ...carFacts(car),
    seatingCapacity: car.seats,
    offers: {
      '@type': 'Offer',
      url,
      businessFunction: 'http://purl.org/goodrelations/v1#LeaseOut',
      price: car.dailyRate,
      priceCurrency: 'INR',
      availability: 'https://schema.org/InStock',
      priceSpecification: [rate(car.dailyRate, 'DAY'), rate(car.hourlyRate, 'HUR'), ...(car.weeklyRate !== null ? [rate(car.weeklyRate, 'WEE')] : [])],
      seller: { '@type': 'AutoRental', name: site.siteName, url: inPageLanguage(new URL('/', site.siteOrigin).href) },
    },
  };
}

/** The script's text: JSON that cannot close its <script> element early. */
export function jsonLdText(data: JsonLd): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}
