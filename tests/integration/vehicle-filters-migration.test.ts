import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/connection.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { createPostgresDatabase } from '../support/server.ts';
import { sharedServer } from '../support/shared.ts';

/**
 * Migration 006 on a database holding cars from before it: the filter columns are read from
 * what was typed, body type from the category's name, colour from the description, and the
 * searched text gains fuel, transmission, body type and the registration's city, on the
 * project's database.
 */

const { dialect, url } = sharedServer();

describe.skipIf(!url)('migration 006 fills the filter columns of stored cars', () => {
  let database: Database;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    if (dialect === 'postgres') {
      const created = await createPostgresDatabase();
      database = openDatabase({ dataDir: '', databaseUrl: created.url });
      cleanup = async () => {
        await database.close();
        await created.drop();
      };
    } else {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'gaadi-migration-'));
      database = openDatabase({ dataDir });
      cleanup = async () => {
        await database.close();
        await rm(dataDir, { recursive: true, force: true });
      };
    }
    await migrateToLatest(database, { upTo: '005-listing-index' });
    const now = new Date().toISOString();
    const db = database.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    await db
      .insertInto('categories')
      .values([
        { id: 1, name: 'SUVs', slug: 'suvs', created_at: now, updated_at: now },
        { id: 2, name: 'Rental Cars', slug: 'rental-cars', created_at: now, updated_at: now },
      ])
      .execute();
    const car = (id: number, categoryId: number, fields: Record<string, string | number | null>) => ({
      id,
      category_id: categoryId,
      created_at: now,
      updated_at: now,
      search_text: 'old text',
      ...fields,
    });
    await db
      .insertInto('vehicles')
      .values([
        car(1, 1, {
          make: 'Hyundai',
          model: 'Creta',
          year: '2021',
          fuel_type: 'Diesel',
          transmission: 'Automatic',
          owners: '2nd Owner',
          registration: 'MH-12 AB 1234',
          description: 'Phantom black, sunroof.',
          price: '12,50,000',
          price_rupees: 1250000,
        }),
        car(2, 2, {
          make: 'Maruti Suzuki',
          model: 'Swift Dzire',
          year: 'Dec 2019',
          fuel_type: 'petrol + cng',
          transmission: 'AMT',
          owners: 'First owner',
          registration: 'ka05mn4321',
          description: 'Pearl white, with driver.',
          price: 'On request',
          price_rupees: null,
        }),
        car(3, 2, {
          make: '',
          model: '',
          year: '',
          fuel_type: 'Steam',
          transmission: '',
          owners: '',
          registration: 'XX 01',
          description: '',
          price: '',
          price_rupees: null,
        }),
      ])
      .execute();
    if (dialect === 'postgres') await sql`SELECT setval('vehicles_id_seq', 3)`.execute(database.db);
    await migrateToLatest(database);
  }, 120_000);

  afterAll(async () => {
    await cleanup?.();
  });

  it('reads every filter column from what was typed', async () => {
    const rows = await database.db
      .selectFrom('vehicles')
      .select(['id', 'body_type', 'colour', 'make_slug', 'model_slug', 'model_year', 'fuel_key', 'transmission_key', 'owner_count', 'registration_state'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      {
        id: 1,
        body_type: 'suv',
        colour: 'black',
        make_slug: 'hyundai',
        model_slug: 'creta',
        model_year: 2021,
        fuel_key: 'diesel',
        transmission_key: 'automatic',
        owner_count: 2,
        registration_state: 'MH',
      },
      {
        id: 2,
        body_type: '',
        colour: 'white',
        make_slug: 'maruti-suzuki',
        model_slug: 'swift-dzire',
        model_year: 2019,
        fuel_key: 'cng',
        transmission_key: 'automatic',
        owner_count: 1,
        registration_state: 'KA',
      },
      {
        id: 3,
        body_type: '',
        colour: '',
        make_slug: '',
        model_slug: '',
        model_year: null,
        fuel_key: '',
        transmission_key: '',
        owner_count: null,
        registration_state: '',
      },
    ]);
  });

  it('rebuilds the searched text, and the search index follows it', async () => {
    const rows = await database.db.selectFrom('vehicles').select(['id', 'search_text']).orderBy('id').execute();
    expect(rows[0]!.search_text.split('\n')).toEqual([
      'hyundai',
      'creta',
      '2021',
      'diesel',
      'automatic',
      'suv',
      'suvs',
      'pune maharashtra',
      'phantom black, sunroof.',
    ]);
    expect(rows[1]!.search_text).toContain('bengaluru karnataka');
    if (dialect === 'sqlite') {
      const found = await sql<{ rowid: number }>`SELECT rowid FROM vehicles_fts WHERE vehicles_fts MATCH '"pune"'`.execute(database.db);
      expect(found.rows.map((row) => row.rowid)).toEqual([1]);
      const old = await sql<{ rowid: number }>`SELECT rowid FROM vehicles_fts WHERE vehicles_fts MATCH '"old text"'`.execute(database.db);
      expect(old.rows).toEqual([]);
    }
  });
});
