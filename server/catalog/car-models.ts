import shipped from './car-models.json' with { type: 'json' };
import { recordAudit } from '../audit/audit.ts';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/connection.ts';
import { brokenUniqueRule } from '../db/unique-rules.ts';
import { ConflictError } from '../errors.ts';
import type { CatalogueMake, CatalogueModel } from '../../app/features/sell/car-models.ts';
import { foldName, hasDevanagari, typoDistance } from '../../app/lib/name-matching.ts';
import type { CarModelAddition } from '../../app/lib/schemas/car-models.ts';
import { slugify } from '../../app/lib/slug.ts';
import { carModelsText as t } from '../../app/lib/i18n/carModels.ts';

/**
 * The catalogue of cars sold in India (decision 098): the shipped list (car-models.json) with
 * the admin's additions (table car_model_additions) merged in. The sell page's pickers and
 * `GET /api/v1/car-models` show it, the seller's typed car is read against it, and buyer search
 * reads Hindi names of makes and models through it.
 */

type ShippedModel = { name: string; hi: string; body: string; fuels: string[]; variants: string[] };
type ShippedMake = { name: string; hi: string; models: ShippedModel[] };

/** The shipped list with ids, made once. */
const shippedMakes: CatalogueMake[] = (shipped.makes as ShippedMake[]).map((make) => {
  const id = slugify(make.name);
  return { id, name: make.name, hi: make.hi, models: make.models.map((model) => ({ ...model, id: `${id}-${slugify(model.name)}` })) };
});

export type CarModelAdditionRow = {
  id: number;
  make: string;
  makeHi: string;
  model: string;
  modelHi: string;
  variant: string;
  body: string;
  addedBy: string;
  createdAt: string;
};

/** The admin's additions, oldest first (the order they join the list in). */
export async function carModelAdditions(database: Database): Promise<CarModelAdditionRow[]> {
  const rows = await database.db.selectFrom('car_model_additions').selectAll().orderBy('id').execute();
  return rows.map((row) => ({
    id: row.id,
    make: row.make,
    makeHi: row.make_hi,
    model: row.model,
    modelHi: row.model_hi,
    variant: row.variant,
    body: row.body_type,
    addedBy: row.added_by,
    createdAt: row.created_at,
  }));
}

/** The shipped list with `additions` merged in: a make, model or variant matched by its folded name, new ones after the shipped. */
export function mergeCatalogue(additions: readonly CarModelAdditionRow[]): CatalogueMake[] {
  const makes = shippedMakes.map((make) => ({ ...make, models: make.models.map((model) => ({ ...model, variants: [...model.variants] })) }));
  for (const addition of additions) {
    let make = makes.find((entry) => foldName(entry.name) === foldName(addition.make));
    if (!make) {
      make = { id: slugify(addition.make, `make-${addition.id}`), name: addition.make, hi: addition.makeHi, models: [] };
      makes.push(make);
    }
    let model: CatalogueModel | undefined = make.models.find((entry) => foldName(entry.name) === foldName(addition.model));
    if (!model) {
      model = {
        id: `${make.id}-${slugify(addition.model, String(addition.id))}`,
        name: addition.model,
        hi: addition.modelHi,
        body: addition.body,
        fuels: [],
        variants: [],
      };
      make.models.push(model);
    }
    if (addition.variant && !model.variants.some((variant) => foldName(variant) === foldName(addition.variant))) model.variants.push(addition.variant);
  }
  return makes;
}

/** The whole catalogue as it is now. */
export async function carCatalogue(database: Database): Promise<CatalogueMake[]> {
  return mergeCatalogue(await carModelAdditions(database));
}

/**
 * Adds a make, model or variant the list lacks. Refused (409) when the catalogue has it
 * already; two admins adding the same car at once are kept to one row by the table's unique rule.
 */
export async function addCarModel(deps: { database: Database; clock: Clock }, input: CarModelAddition, actorEmail: string): Promise<void> {
  const catalogue = await carCatalogue(deps.database);
  const make = catalogue.find((entry) => foldName(entry.name) === foldName(input.make));
  const model = make?.models.find((entry) => foldName(entry.name) === foldName(input.model));
  const known = model && (!input.variant || model.variants.some((variant) => foldName(variant) === foldName(input.variant)));
  const car = [input.make, input.model, input.variant].filter(Boolean).join(' ');
  if (known) throw new ConflictError(t('alreadyListed', { car }));
  try {
    await deps.database.db
      .insertInto('car_model_additions')
      .values({
        make: input.make,
        make_hi: input.makeHi,
        model: input.model,
        model_hi: input.modelHi,
        variant: input.variant,
        body_type: input.body,
        make_key: foldName(input.make),
        model_key: foldName(input.model),
        variant_key: foldName(input.variant),
        added_by: actorEmail,
        created_at: new Date(deps.clock.now()).toISOString(),
      })
      .execute();
  } catch (error) {
    if (brokenUniqueRule(error, 'car_model_additions', { car: { constraint: 'car_model_additions_car_uq', column: 'make_key' } }))
      throw new ConflictError(t('alreadyListed', { car }));
    throw error;
  }
  await recordAudit(deps, {
    actorEmail,
    action: 'create',
    entity: 'car_model',
    summary: `Added ${car} to the car models`,
    after: { make: input.make, makeHi: input.makeHi, model: input.model, modelHi: input.modelHi, variant: input.variant, bodyType: input.body },
  });
}

/**
 * A search with the Hindi names of makes and models put in English, as the cars are written:
 * 'क्रेटा' → 'Creta', 'मारुति सुज़ुकी स्विफ़्ट' → 'Maruti Suzuki Swift'. A Hindi name of several
 * words is matched whole first (the longest run of words that names something), then word by
 * word, each within the matcher's typos. Null when no word is in Devanagari or none is known.
 */
export function searchInEnglishNames(terms: readonly string[], catalogue: readonly CatalogueMake[]): string[] | null {
  if (!terms.some(hasDevanagari)) return null;
  const names = catalogue.flatMap((make) => [make, ...make.models]).filter((entry) => entry.hi);
  const phrases = names.map((entry) => ({ hindi: foldName(entry.hi).split(' '), english: entry.name.split(/\s+/) }));
  const result: string[] = [];
  let changed = false;
  for (let start = 0; start < terms.length;) {
    if (!hasDevanagari(terms[start]!)) {
      result.push(terms[start]!);
      start += 1;
      continue;
    }
    const found = longestPhrase(terms, start, phrases) ?? wordOf(terms[start]!, phrases);
    if (found) {
      result.push(...found.english);
      changed = true;
      start += found.length;
    } else {
      result.push(terms[start]!);
      start += 1;
    }
  }
  return changed ? result : null;
}

type Phrase = { hindi: string[]; english: string[] };

/** The longest run of words from `start` that is a whole Hindi name, within the matcher's typos ('क्रेता' is क्रेटा). */
function longestPhrase(terms: readonly string[], start: number, phrases: Phrase[]) {
  for (let length = Math.min(4, terms.length - start); length >= 1; length--) {
    const typed = foldName(terms.slice(start, start + length).join(' ')).replace(/ /g, '');
    let best: { phrase: Phrase; distance: number } | null = null;
    for (const phrase of phrases) {
      if (phrase.hindi.length !== length) continue;
      const distance = typoDistance(typed, phrase.hindi.join(''));
      if (distance !== null && (!best || distance < best.distance)) best = { phrase, distance };
    }
    if (best) return { english: best.phrase.english, length };
  }
  return null;
}

/** One Hindi word of a name of as many words in both languages ('सुज़ुकी' → 'suzuki'). */
function wordOf(term: string, phrases: Phrase[]) {
  const typed = foldName(term);
  for (const phrase of phrases) {
    if (phrase.hindi.length !== phrase.english.length) continue;
    const position = phrase.hindi.findIndex((word) => typoDistance(typed, word) !== null);
    if (position >= 0) return { english: [phrase.english[position]!], length: 1 };
  }
  return null;
}
