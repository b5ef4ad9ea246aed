import { looseDistance, nameDistance, rankByName } from '../../lib/name-matching.ts';

/**
 * The catalogue of cars sold in India (decision 098) as the sell page, the app's API and buyer
 * search read it: makes, their models and the models' main variants, each make and model with
 * its Hindi name. Shipped as server/catalog/car-models.json, merged with the admin's additions
 * by server/catalog/car-models.ts; the reading of a typed name is here, so the pickers in the
 * browser and the server agree on what 'hundai' or 'cretta' means.
 */

export type CatalogueModel = {
  /** `<make id>-<model slug>`: 'hyundai-creta'. */
  id: string;
  name: string;
  /** In Devanagari: 'क्रेटा'. */
  hi: string;
  /** A BODY_TYPES key, or ''. */
  body: string;
  fuels: string[];
  variants: string[];
};

export type CatalogueMake = { id: string; name: string; hi: string; models: CatalogueModel[] };

/** The names a make or model is known by: English, Hindi and its id. */
export const namesOf = (entry: { name: string; hi: string; id: string }) => [entry.name, entry.hi, entry.id];

/** At most this many names are offered when a typed name matched none, or several equally. */
const CLOSEST = 4;

/** What a typed name is: one entry, or none and the closest names worth offering. */
export type NameMatch<T> = { found: T; closest: [] } | { found: null; closest: T[] };

/**
 * The one entry `typed` names: the same name, or the only nearest one (a start of a name, a
 * typo within the allowance). Several equally near ('grand' → Grand i10, Grand i10 Nios) or none
 * near: no entry, and the names to offer instead.
 */
export function matchName<T>(typed: string, things: readonly T[], names: (thing: T) => readonly string[]): NameMatch<T> {
  const ranked = rankByName(typed, things, names);
  const first = ranked[0];
  if (first !== undefined) {
    const best = nameDistance(typed, names(first))!;
    const tied = ranked.filter((thing) => nameDistance(typed, names(thing)) === best);
    if (best === 0 || tied.length === 1) return { found: first, closest: [] };
    return { found: null, closest: tied.slice(0, CLOSEST) };
  }
  const loose = things
    .map((thing, position) => ({ thing, position, distance: looseDistance(typed, names(thing)) }))
    .filter((entry) => entry.distance !== null)
    .sort((a, b) => a.distance! - b.distance! || a.position - b.position);
  return { found: null, closest: loose.slice(0, CLOSEST).map((entry) => entry.thing) };
}

/** A seller's typed car read against the catalogue: each part found, or the names closest to it. */
export type CarReading =
  | { ok: true; make: CatalogueMake; model: CatalogueModel; variant: string }
  | { ok: false; problems: Partial<Record<'make' | 'model' | 'variant', string[]>>; make?: CatalogueMake; model?: CatalogueModel };

/**
 * Reads a make, model and (optional) variant typed by a seller: 'hundai' 'cretta' is Hyundai
 * Creta. A model is looked for among its make's models only: 'cretta' under Tata is refused
 * with Tata's models offered, as the seller may mean another car.
 */
export function readCar(catalogue: readonly CatalogueMake[], typed: { make: string; model: string; variant: string }): CarReading {
  const make = matchName(typed.make, catalogue, namesOf);
  if (!make.found) return { ok: false, problems: { make: make.closest.map((entry) => entry.name) } };
  const model = matchName(typed.model, make.found.models, namesOf);
  if (!model.found)
    return {
      ok: false,
      problems: { model: (model.closest.length ? model.closest : make.found.models.slice(0, CLOSEST)).map((entry) => entry.name) },
      make: make.found,
    };
  if (!typed.variant.trim()) return { ok: true, make: make.found, model: model.found, variant: '' };
  const variant = matchName(typed.variant, model.found.variants, (name) => [name]);
  if (!variant.found)
    return {
      ok: false,
      problems: { variant: variant.closest.length ? variant.closest : model.found.variants.slice(0, CLOSEST) },
      make: make.found,
      model: model.found,
    };
  return { ok: true, make: make.found, model: model.found, variant: variant.found };
}
