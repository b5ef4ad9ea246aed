/**
 * A schema-level check of a page's JSON-LD against what Google's rich results ask of a Product
 * (and its subtypes Vehicle and Car) with an Offer, without any network call: the properties
 * its Product snippet and merchant listing rules name as required, with the shapes they accept,
 * and the vehicle facts a car listing carries. Returns what is wrong, one sentence each.
 */

type Json = Record<string, unknown>;

const PRODUCT_TYPES = new Set(['Product', 'Vehicle', 'Car', 'Motorcycle', 'IndividualProduct']);
const AVAILABILITIES = new Set(
  [
    'InStock',
    'OutOfStock',
    'SoldOut',
    'LimitedAvailability',
    'PreOrder',
    'BackOrder',
    'Discontinued',
    'InStoreOnly',
    'OnlineOnly',
    'PreSale',
    'Reserved',
    'MadeToOrder',
  ].map((name) => `https://schema.org/${name}`),
);
const CONDITIONS = new Set(['NewCondition', 'UsedCondition', 'RefurbishedCondition', 'DamagedCondition'].map((name) => `https://schema.org/${name}`));
/** UN/CEFACT codes for a price per unit of time, and for distances. */
const TIME_UNITS = new Set(['HUR', 'DAY', 'WEE', 'MON', 'ANN']);
const DISTANCE_UNITS = new Set(['KMT', 'SMI']);

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const typesOf = (value: Json): string[] => [value['@type']].flat().filter((type): type is string => typeof type === 'string');
const isAbsoluteUrl = (value: unknown): boolean => typeof value === 'string' && /^https?:\/\/[^\s/]+\/\S*$/.test(value);
const isPrice = (value: unknown): boolean =>
  (typeof value === 'number' && Number.isFinite(value) && value > 0) || (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value) && Number(value) > 0);

function offerProblems(offer: unknown, where: string): string[] {
  if (!isObject(offer)) return [`${where} is not an object`];
  const problems: string[] = [];
  if (!typesOf(offer).includes('Offer')) problems.push(`${where} is not an Offer`);
  // Google reads the price from the Offer, or from its priceSpecification.
  const specifications = [offer.priceSpecification].flat().filter((spec) => spec !== undefined);
  if (!isPrice(offer.price) && !specifications.some((spec) => isObject(spec) && isPrice(spec.price))) problems.push(`${where} has no price above zero`);
  if (offer.price !== undefined && !/^[A-Z]{3}$/.test(String(offer.priceCurrency ?? ''))) problems.push(`${where} has no ISO 4217 priceCurrency`);
  if (!AVAILABILITIES.has(String(offer.availability))) problems.push(`${where}.availability is not a schema.org ItemAvailability URL`);
  if (offer.url !== undefined && !isAbsoluteUrl(offer.url)) problems.push(`${where}.url is not absolute`);
  if (offer.itemCondition !== undefined && !CONDITIONS.has(String(offer.itemCondition)))
    problems.push(`${where}.itemCondition is not a schema.org OfferItemCondition URL`);
  specifications.forEach((spec, index) => {
    const at = `${where}.priceSpecification[${index}]`;
    if (!isObject(spec)) return void problems.push(`${at} is not an object`);
    if (!typesOf(spec).some((type) => type.endsWith('PriceSpecification'))) problems.push(`${at} is not a PriceSpecification`);
    if (!isPrice(spec.price)) problems.push(`${at} has no price above zero`);
    if (!/^[A-Z]{3}$/.test(String(spec.priceCurrency ?? ''))) problems.push(`${at} has no ISO 4217 priceCurrency`);
    if (spec.unitCode !== undefined && !TIME_UNITS.has(String(spec.unitCode)))
      problems.push(`${at}.unitCode ${String(spec.unitCode)} is no UN/CEFACT time unit`);
  });
  return problems;
}

/** What keeps `data` from being a Product rich result; `offersRequired` when the page shows a price. */
export function productProblems(data: unknown, options: { offersRequired: boolean }): string[] {
  if (!isObject(data)) return ['the JSON-LD is not an object'];
  const problems: string[] = [];
  if (data['@context'] !== 'https://schema.org') problems.push('@context is not https://schema.org');
  if (!typesOf(data).some((type) => PRODUCT_TYPES.has(type))) problems.push(`@type ${JSON.stringify(data['@type'])} is not a Product type`);
  if (typeof data.name !== 'string' || data.name.trim() === '') problems.push('name is missing');
  const images = [data.image].flat().filter((image) => image !== undefined);
  if (images.length === 0) problems.push('image is missing');
  for (const image of images) if (!isAbsoluteUrl(isObject(image) ? image.url : image)) problems.push(`image ${JSON.stringify(image)} is not an absolute URL`);
  if (data.url !== undefined && !isAbsoluteUrl(data.url)) problems.push('url is not absolute');
  const offers = [data.offers].flat().filter((offer) => offer !== undefined);
  if (options.offersRequired && offers.length === 0) problems.push('offers is missing');
  offers.forEach((offer, index) => problems.push(...offerProblems(offer, offers.length > 1 ? `offers[${index}]` : 'offers')));
  if (data.brand !== undefined && !(isObject(data.brand) && typeof data.brand.name === 'string' && data.brand.name !== ''))
    problems.push('brand is not a Brand with a name');
  if (data.itemCondition !== undefined && !CONDITIONS.has(String(data.itemCondition)))
    problems.push('itemCondition is not a schema.org OfferItemCondition URL');
  if (typesOf(data).some((type) => type === 'Car' || type === 'Vehicle')) problems.push(...vehicleProblems(data));
  return problems;
}

/** The vehicle facts, when given, in the shapes schema.org's Vehicle defines. */
function vehicleProblems(data: Json): string[] {
  const problems: string[] = [];
  if (data.vehicleModelDate !== undefined && !/^\d{4}$/.test(String(data.vehicleModelDate))) problems.push('vehicleModelDate is not a year');
  const mileage = data.mileageFromOdometer;
  if (mileage !== undefined) {
    if (!isObject(mileage) || !typesOf(mileage).includes('QuantitativeValue')) problems.push('mileageFromOdometer is not a QuantitativeValue');
    else {
      if (typeof mileage.value !== 'number' || mileage.value < 0) problems.push('mileageFromOdometer.value is not a number');
      if (!DISTANCE_UNITS.has(String(mileage.unitCode))) problems.push('mileageFromOdometer.unitCode is not KMT or SMI');
    }
  }
  for (const text of ['model', 'fuelType', 'vehicleTransmission'] as const) {
    if (data[text] !== undefined && (typeof data[text] !== 'string' || data[text] === '')) problems.push(`${text} is not a text`);
  }
  if (data.seatingCapacity !== undefined && !(typeof data.seatingCapacity === 'number' && data.seatingCapacity > 0))
    problems.push('seatingCapacity is not a number');
  return problems;
}
