/**
 * Section 1: search latency of the real service function `listVehicles` at 1k, 10k and 100k
 * vehicles on SQLite and PostgreSQL, measured in-process.
 *
 *   npm run bench -- search [--sizes=1000,10000,100000] [--dialects=sqlite,postgres] [--budget-ms=3000]
 *   npm exec -- node bench/search.ts [same options]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CompiledQuery, type Insertable, type KyselyPlugin } from 'kysely';
import { priceDigits } from '../app/lib/format.ts';
import { buildSearchText } from '../server/catalog/search.ts';
import { filterColumns } from '../server/catalog/filters.ts';
import { colourIn, parseListingQuery } from '../app/lib/listing-filters.ts';
import { createCategory, listVehicles } from '../server/catalog/vehicles.ts';
import { createListingTotals } from '../server/catalog/listing-totals.ts';
import { systemClock } from '../server/clock.ts';
import { parseConfig } from '../server/config.ts';
import { openDatabase, type Database, type Dialect } from '../server/db/connection.ts';
import { demoCategories, demoVehicles, type DemoVehicle } from '../server/db/demo/inventory.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import type { VehicleImageTable, VehicleTable } from '../server/db/schema.ts';
import { createPostgresDatabase, postgresAvailable } from '../tests/support/server.ts';
import { loadAverage, option, random, stats, writeResult, type Stats } from './lib/common.ts';

const SIZES = (option('sizes') ?? '1000,10000,100000').split(',').map(Number);
const DIALECTS = (option('dialects') ?? 'sqlite,postgres').split(',') as Dialect[];
/** Time spent measuring one query at one size (after warm-up); at least MIN_ITERATIONS runs. */
const BUDGET_MS = Number(option('budget-ms') ?? 3000);
const MAX_ITERATIONS = 300;
const MIN_ITERATIONS = 20;
const WARMUP = 5;
const PER_PAGE = 10;
const TARGET_P95_MS = 20;

/**
 * The fixed query mix; each asks for 10 per page as the home page does, page 1 unless `page`
 * says otherwise (a page past the end is the last page). `params`: the buyer's filters and
 * sort as the listing URL carries them.
 */
export const QUERIES: { kind: string; query: string; params?: string; page?: number }[] = [
  { kind: 'empty query (listing)', query: '' },
  { kind: 'common model', query: 'creta' },
  { kind: 'common model', query: 'swift' },
  { kind: 'make + model (2 words)', query: 'maruti swift' },
  { kind: '2-letter word', query: 'ev' },
  { kind: '1-letter word', query: 'x' },
  { kind: 'year', query: '2019' },
  { kind: 'fuel', query: 'diesel' },
  { kind: 'rare word', query: 'ambassador' },
  { kind: 'no match', query: 'lamborghini' },
  { kind: 'two filters', query: '', params: 'make=maruti-suzuki&fuel=petrol' },
  { kind: 'search + two filters', query: 'swift', params: 'fuel=petrol&trans=manual' },
  { kind: 'page 2', query: '', page: 2 },
  { kind: 'last page', query: '', page: 1_000_000 },
  { kind: 'last page of a search', query: 'creta', page: 1_000_000 },
];

/** How a query of the mix is shown: the search, its filters and its page. */
export function queryLabel(entry: { query: string; params?: string; page?: number }): string {
  return [entry.query, entry.params ?? '', entry.page ? (entry.page > 1000 ? 'last page' : `page ${entry.page}`) : ''].filter(Boolean).join(' · ');
}

function listingOptions(entry: (typeof QUERIES)[number]) {
  const parsed = entry.params ? parseListingQuery(new URLSearchParams(entry.params)) : null;
  if (parsed && parsed.problems.length > 0) throw new Error(`bench query ${entry.params}: ${parsed.problems.join('; ')}`);
  return { query: entry.query, page: entry.page ?? 1, perPage: PER_PAGE, ...(parsed ? { filters: parsed.filters, sort: parsed.sort } : {}) };
}

// ---------------------------------------------------------------- synthetic inventory

const VARIANTS = ['LXi', 'VXi', 'ZXi', 'ZXi+', 'Sigma', 'Delta', 'Zeta', 'Alpha', 'E', 'S', 'SX', 'SX(O)', 'Asta', 'Sportz', 'Magna', 'XE', 'XM', 'XZ+', 'HTK', 'HTX', 'GTX+', 'AX5', 'AX7 L', 'ZX CVT', 'VX', 'V', 'G', 'GX', 'Highline', 'Topline', 'Style', 'Technology', 'Premium Plus', 'M Sport'];
const REGISTRATIONS = ['MH-02', 'MH-04', 'MH-12', 'MH-14', 'KA-01', 'KA-05', 'KA-51', 'DL-3C', 'DL-8C', 'HR-26', 'UP-16', 'TN-09', 'TN-22', 'TS-08', 'AP-39', 'GJ-01', 'GJ-05', 'RJ-14', 'WB-02', 'KL-07', 'PB-10', 'MP-09'];
const OWNERS = ['1st Owner', '1st Owner', '1st Owner', '2nd Owner', '2nd Owner', '3rd Owner'];
const CITIES = ['Mumbai', 'Pune', 'Bengaluru', 'Delhi', 'Gurugram', 'Noida', 'Chennai', 'Hyderabad', 'Ahmedabad', 'Jaipur', 'Kolkata', 'Kochi', 'Chandigarh', 'Indore', 'Lucknow', 'Nagpur'];
const COLOURS = ['pearl white', 'silver', 'grey', 'red', 'blue', 'black', 'brown', 'orange', 'beige', 'green'];
const SENTENCES = [
  (city: string) => `${city}-registered car with complete service records.`,
  (city: string) => `Driven mostly in ${city}, never taken on long trips.`,
  () => 'Accident-free, no flood history, all original papers available.',
  () => 'New battery and fresh set of tyres fitted last month.',
  () => 'Both keys, owner manual and original invoice available.',
  () => 'Touchscreen infotainment with Android Auto and Apple CarPlay.',
  () => 'Sunroof, cruise control and rear parking camera working perfectly.',
  () => 'Minor scratches on the rear bumper, otherwise very clean.',
  () => 'Insurance transferable; we arrange RC transfer at delivery.',
  () => 'Extended warranty valid for one more year.',
  () => 'Company-fitted CNG kit, cylinder hydro-tested.',
  () => 'Seven-seater, ideal for family trips and airport runs.',
  () => 'Easy finance with low down payment and EMI options.',
  (_city: string, colour: string) => `Finished in ${colour}, interiors professionally cleaned.`,
  () => 'Clutch overhauled and suspension bushes replaced at the last service.',
  () => 'Every service done at the authorised workshop on time.',
];

/** A classic that almost nobody stocks: the "rare word" of the query mix. */
const RARE: DemoVehicle = {
  ...demoVehicles.find((vehicle) => vehicle.category === 'Sedans')!,
  make: 'Hindustan Motors',
  model: 'Ambassador',
  name: 'Hindustan Motors Ambassador Grand',
  variant: 'Grand 1.8 ISZ',
  year: '2012',
  description: 'The last of the classic Ambassadors, restored with new upholstery and a rebuilt engine.',
};

function indianPrice(rupees: number): string {
  const digits = String(rupees);
  if (digits.length <= 3) return digits;
  const last3 = digits.slice(-3);
  const rest = digits.slice(0, -3).replace(/\B(?=(\d{2})+(?!\d))/g, ',');
  return `${rest},${last3}`;
}

type Generator = ReturnType<typeof random>;

function makeVehicle(rng: Generator, id: number, categoryIds: Map<string, number>): Insertable<VehicleTable> {
  // Roughly one vehicle in 2,000 is the rare classic (and at least one in every inventory).
  const template = id === 7 || rng.chance(0.0005) ? RARE : rng.pick(demoVehicles);
  const year = String(Math.min(2025, Math.max(2010, Number(template.year) + rng.int(-5, 3))));
  const variant = rng.chance(0.5) ? template.variant : rng.pick(VARIANTS);
  const name = rng.chance(0.3) ? '' : `${template.make} ${template.model} ${variant}`;
  const basePrice = priceDigits(template.price) ?? 500_000;
  const rupees = Math.round((basePrice * (0.7 + rng.next() * 0.6) * (1 + (Number(year) - Number(template.year)) * 0.06)) / 1000) * 1000;
  const price = rng.chance(0.5) ? indianPrice(rupees) : String(rupees);
  const city = rng.pick(CITIES);
  const colour = rng.pick(COLOURS);
  const sentences = Array.from({ length: rng.int(1, 3) }, () => rng.pick(SENTENCES)(city, colour));
  const description = [rng.chance(0.6) ? template.description : '', ...sentences].filter(Boolean).join(' ');
  const categoryName = template.category;
  const categoryId = categoryIds.get(categoryName)!;
  const roll = rng.next();
  const status = roll < 0.1 ? 'sold' : roll < 0.12 ? 'reserved' : 'available';
  const created = new Date(Date.UTC(2023, 0, 1) + id * 13 * 60_000 + rng.int(0, 600_000)).toISOString();
  const transmission = rng.chance(0.15) ? (template.transmission === 'Manual' ? 'Automatic' : 'Manual') : template.transmission;
  const owners = rng.pick(OWNERS);
  const registration = rng.pick(REGISTRATIONS);
  const searched = { make: template.make, model: template.model, name, variant, year, fuelType: template.fuelType, transmission, bodyType: template.bodyType, registration, categoryName, description };
  return {
    id,
    category_id: categoryId,
    name,
    make: template.make,
    model: template.model,
    variant,
    year,
    fuel_type: template.fuelType,
    transmission,
    body_type: template.bodyType,
    colour: colourIn(colour),
    price,
    price_rupees: rupees,
    owners,
    registration,
    insurance_validity: `202${rng.int(5, 7)}-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`,
    odometer: rng.chance(0.03) ? null : rng.int(3, 150) * 1000,
    fitness_fc: template.fitnessFC,
    tyre_point: rng.chance(0.5) ? `${rng.int(5, 9) * 10}%` : '',
    description,
    featured: rng.chance(0.04) ? 1 : 0,
    inspection: template.inspection ? JSON.stringify(template.inspection) : null,
    refurbishment: template.refurbishment ? JSON.stringify(template.refurbishment) : null,
    financial: template.financial ? JSON.stringify(template.financial) : null,
    video_url: '',
    status,
    sold_price: status === 'sold' ? rupees : null,
    sold_at: status === 'sold' ? created : null,
    search_text: buildSearchText(searched),
    ...filterColumns({ ...searched, owners }),
    created_at: created,
    updated_at: created,
  };
}

/** Adds vehicles (and 1-5 image rows each) until there are `target`, in batched multi-row inserts. */
async function fill(database: Database, rng: Generator, categoryIds: Map<string, number>, from: number, target: number) {
  const VEHICLE_BATCH = 500; // ~32 columns: 16k parameters, within SQLite's and PostgreSQL's limits
  const CHUNK = 5000; // vehicles per transaction
  for (let start = from + 1; start <= target; start += CHUNK) {
    const end = Math.min(target, start + CHUNK - 1);
    await database.db.transaction().execute(async (trx) => {
      for (let batchStart = start; batchStart <= end; batchStart += VEHICLE_BATCH) {
        const vehicles: Insertable<VehicleTable>[] = [];
        const images: Insertable<VehicleImageTable>[] = [];
        for (let id = batchStart; id <= Math.min(end, batchStart + VEHICLE_BATCH - 1); id++) {
          const vehicle = makeVehicle(rng, id, categoryIds);
          vehicles.push(vehicle);
          const count = rng.int(1, 5);
          for (let position = 0; position < count; position++) {
            images.push({ vehicle_id: id, position, key: `vehicles/bench/${id}-${position}`, width: 1200, height: 900, variant_widths: '400,800,1200', created_at: vehicle.created_at });
          }
        }
        await trx.insertInto('vehicles').values(vehicles).execute();
        for (let index = 0; index < images.length; index += 2000) {
          await trx.insertInto('vehicle_images').values(images.slice(index, index + 2000)).execute();
        }
      }
    });
  }
}

// ---------------------------------------------------------------- measuring

/**
 * As deployed: each listing's count kept LISTING_TOTALS_SECONDS (server/catalog/listing-totals.ts),
 * made fresh for every query so its first call counts; that first call is reported on its own.
 */
const TOTALS_SECONDS = parseConfig({ APP_MODE: 'demo' }).listingTotalsSeconds;

async function measure(database: Database, entry: (typeof QUERIES)[number]) {
  const totals = createListingTotals({ ttlMs: TOTALS_SECONDS * 1000, clock: systemClock });
  const run = () => listVehicles(database, listingOptions(entry), totals);
  const first = performance.now();
  let result = await run();
  const firstMs = performance.now() - first;
  for (let index = 1; index < WARMUP; index++) result = await run();
  const samples: number[] = [];
  const started = performance.now();
  while (samples.length < MAX_ITERATIONS && (samples.length < MIN_ITERATIONS || performance.now() - started < BUDGET_MS)) {
    const t0 = performance.now();
    await run();
    samples.push(performance.now() - t0);
  }
  return { total: result.total, totalCapped: result.totalCapped, page: result.page, shown: result.items.length, ids: result.items.map((item) => item.id), firstMs, stats: stats(samples) };
}

type Statement = { kind: string; sql: string; medianMs: number; plan: string[] };

/** The statements listVehicles sends for one query, each timed on its own, with its plan. */
async function diagnose(database: Database, entry: (typeof QUERIES)[number]): Promise<Statement[]> {
  const captured: CompiledQuery[] = [];
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      captured.push(database.db.getExecutor().compileQuery(args.node, args.queryId));
      return args.node;
    },
    async transformResult(args) {
      return args.result;
    },
  };
  await listVehicles({ ...database, db: database.db.withPlugin(plugin) }, listingOptions(entry));
  const statements: Statement[] = [];
  for (const compiled of captured) {
    const kind = /count\(\*\)/i.test(compiled.sql) ? 'count' : /vehicle_images/.test(compiled.sql) ? 'covers' : 'page';
    const samples: number[] = [];
    for (let index = 0; index < 15; index++) {
      const t0 = performance.now();
      await database.db.executeQuery(compiled);
      samples.push(performance.now() - t0);
    }
    statements.push({ kind, sql: compiled.sql, medianMs: stats(samples).p50, plan: await explain(database, compiled) });
  }
  return statements;
}

async function explain(database: Database, compiled: CompiledQuery): Promise<string[]> {
  if (database.dialect === 'sqlite') {
    const { rows } = await database.db.executeQuery<{ id: number; parent: number; detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${compiled.sql}`, [...compiled.parameters]));
    const depth = new Map<number, number>();
    return rows.map((row) => {
      const level = row.parent === 0 ? 0 : (depth.get(row.parent) ?? 0) + 1;
      depth.set(row.id, level);
      return `${'  '.repeat(level)}${row.detail}`;
    });
  }
  const { rows } = await database.db.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) ${compiled.sql}`, [...compiled.parameters]));
  return rows.map((row) => row['QUERY PLAN']);
}

async function serverVersion(database: Database): Promise<string> {
  const statement = database.dialect === 'sqlite' ? 'SELECT sqlite_version() AS version' : 'SHOW server_version';
  const { rows } = await database.db.executeQuery<Record<string, string>>(CompiledQuery.raw(statement));
  const row = rows[0] ?? {};
  return `${database.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'} ${row.version ?? row.server_version ?? '?'}`;
}

/** Bytes on disk: the whole SQLite file, or the vehicles table with its indexes and TOAST. */
async function storedBytes(database: Database): Promise<number> {
  const statement =
    database.dialect === 'sqlite'
      ? 'SELECT page_count * page_size AS bytes FROM pragma_page_count(), pragma_page_size()'
      : "SELECT pg_total_relation_size('vehicles') AS bytes";
  const { rows } = await database.db.executeQuery<{ bytes: number | string }>(CompiledQuery.raw(statement));
  return Number(rows[0]?.bytes ?? 0);
}

type SizeResult = { size: number; insertSeconds: number; storedBytes: number; queries: { kind: string; query: string; total: number; totalCapped: boolean; page: number; shown: number; ids: number[]; firstMs: number; stats: Stats }[] };

async function benchDialect(dialect: Dialect) {
  let dataDir: string | null = null;
  let pgDatabase: Awaited<ReturnType<typeof createPostgresDatabase>> | null = null;
  if (dialect === 'postgres') pgDatabase = await createPostgresDatabase();
  else dataDir = await mkdtemp(path.join(tmpdir(), 'gaadi-bench-'));
  const database = openDatabase({ dataDir: dataDir ?? tmpdir(), databaseUrl: pgDatabase?.url });
  try {
    await migrateToLatest(database);
    const version = await serverVersion(database);
    const categoryIds = new Map<string, number>();
    for (const category of demoCategories) categoryIds.set(category.name, await createCategory(database, { name: category.name }));
    const rng = random(2024);
    const sizes: SizeResult[] = [];
    let count = 0;
    for (const size of [...SIZES].sort((a, b) => a - b)) {
      const t0 = performance.now();
      await fill(database, rng, categoryIds, count, size);
      // PostgreSQL's autovacuum vacuums and analyses a freshly loaded table within a minute
      // (which also flushes the trigram index's pending list); do it now. SQLite gets no
      // ANALYZE: the product never runs one, so it is measured as shipped.
      if (dialect === 'postgres') await database.db.executeQuery(CompiledQuery.raw('VACUUM ANALYZE'));
      const insertSeconds = (performance.now() - t0) / 1000;
      count = size;
      console.log(`${dialect}: ${size} vehicles (${insertSeconds.toFixed(1)} s to add)`);
      const queries = [];
      for (const entry of QUERIES) {
        const measured = await measure(database, entry);
        console.log(`  ${queryLabel(entry).padEnd(40)} total ${String(measured.total).padStart(6)}${measured.totalCapped ? '+' : ' '} first ${measured.firstMs.toFixed(2)} ms  p50 ${measured.stats.p50.toFixed(2)} ms  p95 ${measured.stats.p95.toFixed(2)} ms  (${measured.stats.n} runs)`);
        queries.push({ kind: entry.kind, query: queryLabel(entry), ...measured });
      }
      sizes.push({ size, insertSeconds, storedBytes: await storedBytes(database), queries });
    }
    // Why the slow ones are slow: each statement of each query at the largest size, with its plan.
    const diagnostics = [];
    for (const entry of QUERIES) diagnostics.push({ query: queryLabel(entry), statements: await diagnose(database, entry) });
    return { dialect, version, sizes, diagnostics };
  } finally {
    await database.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    await pgDatabase?.drop();
  }
}

const dialects = [];
const loadStart = loadAverage();
const skipped: string[] = [];
for (const dialect of DIALECTS) {
  if (dialect === 'postgres' && !(await postgresAvailable())) {
    console.log('PostgreSQL did not answer: skipped');
    skipped.push('postgres (not reachable)');
    continue;
  }
  dialects.push(await benchDialect(dialect));
}

// Both databases hold the same inventory (same seed): every query must give the same page.
const [first, second] = dialects;
const parity =
  first && second
    ? first.sizes.flatMap((size, sizeIndex) =>
        size.queries
          .filter((entry, index) => {
            const other = second.sizes[sizeIndex]?.queries[index];
            return other && (other.total !== entry.total || other.page !== entry.page || other.ids.join() !== entry.ids.join());
          })
          .map((entry) => `${size.size}: ${entry.query || '(empty)'}`),
      )
    : null;
if (parity && parity.length > 0) console.log(`Pages differ between the databases: ${parity.join('; ')}`);

// The goal holds on each database at the largest size, for every query of the mix.
const targets = dialects.map((entry) => {
  const largest = entry.sizes.at(-1)!;
  const worstQuery = largest.queries.reduce((a, b) => (b.stats.p95 > a.stats.p95 ? b : a));
  return { dialect: entry.dialect, p95Ms: TARGET_P95_MS, size: largest.size, worstP95Ms: worstQuery.stats.p95, worstQuery: worstQuery.query, met: worstQuery.stats.p95 <= TARGET_P95_MS };
});
writeResult('search', {
  load: { start: loadStart, end: loadAverage() },
  perPage: PER_PAGE,
  budgetMs: BUDGET_MS,
  warmup: WARMUP,
  totalsSeconds: TOTALS_SECONDS,
  targets,
  // Queries whose page differed between SQLite and PostgreSQL (null: only one database ran).
  parity,
  skipped,
  dialects,
});
