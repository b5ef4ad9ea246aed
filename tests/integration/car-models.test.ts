import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carCatalogueSchema, sellEstimateAnswerSchema, vehicleListSchema } from '../../server/http/api-answers.ts';
import { HttpClient, mainText, randomAddress } from '../support/http-client.ts';
import { openServerDatabase } from '../support/database.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * The catalogue of cars sold in India (decision 098) on SQLite and PostgreSQL: a seller's
 * 'hundai cretta' read as Hyundai Creta by the page and the API, a name not in it refused with
 * the closest ones, the admin's additions (guarded, kept once by the database) offered to
 * sellers, and buyer search reading Hindi names of makes and models.
 */

const { dialect, url: sharedUrl } = sharedServer();
const ADMIN = 'admin@gaadibazaar.in';
const PASSWORD = 'secret123';

const creta = { year: '2019', fuel: 'Diesel', transmission: 'Manual', km: '45000', owners: '1', registrationState: 'MH' };

describe.skipIf(!sharedUrl)(`the catalogue of car models (${dialect})`, () => {
  let server: TestServer;
  let admin: HttpClient;
  const visitor = () => new HttpClient(server.url, { address: randomAddress() });

  async function estimate(body: Record<string, unknown>) {
    const response = await visitor().request('/api/v1/sell-estimates', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...creta, ...body }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  const sellPage = async (car: Record<string, string>) =>
    mainText(await (await visitor().get(`/sell-vehicle?${new URLSearchParams({ ...creta, ...car })}`)).text());

  beforeAll(async () => {
    server = await startTestServer({ dialect, seed: true, env: { APP_MODE: 'demo', DEMO_ADMIN_PASSWORD: PASSWORD, TRUST_PROXY: 'true', ADMIN_EMAILS: ADMIN } });
    admin = new HttpClient(server.url);
    const signIn = await admin.postForm('/admin-login', { email: ADMIN, password: PASSWORD, botCheck: await admin.botToken('LOGIN') });
    expect(signIn.status).toBe(302);
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("'hundai cretta' gets the Creta's estimate, on the page and in the API", async () => {
    const typed = await estimate({ make: 'hundai', model: 'cretta' });
    expect(typed.status).toBe(200);
    const answer = sellEstimateAnswerSchema.parse(typed.body);
    expect(answer.car).toMatchObject({ make: 'Hyundai', model: 'Creta', variant: '', unlisted: false });
    expect(answer.estimate.kind).toBe('range');
    // By the catalogue's ids, or its Hindi names: the same car, the same figure.
    expect(sellEstimateAnswerSchema.parse((await estimate({ make: 'hyundai', model: 'hyundai-creta' })).body).estimate).toEqual(answer.estimate);
    expect(sellEstimateAnswerSchema.parse((await estimate({ make: 'ह्युंडई', model: 'क्रेटा', variant: 'sx' })).body)).toMatchObject({
      car: { make: 'Hyundai', model: 'Creta', variant: 'SX' },
      estimate: answer.estimate,
    });

    const page = await sellPage({ make: 'hundai', model: 'cretta' });
    expect(page).toContain('Your 2019 Hyundai Creta is worth about');
    if (answer.estimate.kind === 'range') expect(page).toContain('From 1 similar Hyundai Creta');
  });

  it('a name not in the catalogue is refused beside its field with the closest names; "not in the list" takes it as typed', async () => {
    const unknown = await estimate({ make: 'tota', model: 'nexon' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.fields).toEqual({
      make: expect.stringMatching(/^We do not know the make “tota”\. Closest: .*Tata.*Toyota.*\. Choose one, or tick “My car is not in the list”\.$/),
    });
    const model = await estimate({ make: 'tata', model: 'cretta' });
    expect(model.status).toBe(400);
    expect(model.body.fields).toEqual({ model: expect.stringContaining('Tata has no model “cretta” in our list.') });
    const variant = await estimate({ make: 'hyundai', model: 'creta', variant: 'zzz' });
    expect((variant.body.fields as Record<string, string>).variant).toMatch(/The Creta has no variant “zzz” in our list\. Closest: E, EX, S, S \(O\)\./);

    const unlisted = await estimate({ make: 'Hindustan', model: 'Ambassador', unlisted: true });
    expect(unlisted.status).toBe(200);
    expect(sellEstimateAnswerSchema.parse(unlisted.body)).toMatchObject({
      car: { make: 'Hindustan', model: 'Ambassador', unlisted: true },
      estimate: { kind: 'not-enough-data' },
    });

    const page = await sellPage({ make: 'tota', model: 'nexon' });
    expect(page).toContain('We do not know the make “tota”.');
    expect(page).not.toContain('is worth about');
    expect(await sellPage({ make: 'Hindustan', model: 'Ambassador', unlisted: 'true' })).toContain('We cannot estimate this car from our own data yet.');
  });

  it('the app reads the catalogue with its Hindi names', async () => {
    const response = await visitor().get('/api/v1/car-models');
    expect(response.status).toBe(200);
    const { makes } = carCatalogueSchema.parse(await response.json());
    const hyundai = makes.find((make) => make.id === 'hyundai');
    expect(hyundai).toMatchObject({ name: 'Hyundai', hi: 'ह्युंडई' });
    expect(hyundai!.models.find((model) => model.id === 'hyundai-creta')).toMatchObject({
      name: 'Creta',
      hi: 'क्रेटा',
      body: 'suv',
      variants: expect.arrayContaining(['SX']),
    });
    expect(makes.map((make) => make.name)).toEqual(
      expect.arrayContaining(['Maruti Suzuki', 'Tata', 'Mahindra', 'Kia', 'Toyota', 'Honda', 'MG', 'Renault', 'Nissan', 'Skoda', 'Volkswagen', 'Ford']),
    );
  });

  it('buyer search finds the Cretas by their Hindi name', async () => {
    for (const q of ['क्रेटा', 'ह्युंडई क्रेटा']) {
      const list = vehicleListSchema.parse(await (await visitor().get(`/api/v1/vehicles?${new URLSearchParams({ q })}`)).json());
      expect(list.total, q).toBeGreaterThan(0);
      expect(
        list.items.every((item) => item.model === 'Creta'),
        q,
      ).toBe(true);
      expect(list.searchedFor, q).toBe(q === 'क्रेटा' ? 'Creta' : 'Hyundai Creta');
    }
    const page = mainText(await (await visitor().get(`/hi?${new URLSearchParams({ q: 'क्रेटा' })}`)).text());
    expect(page).toContain('Hyundai Creta');
    const swift = vehicleListSchema.parse(await (await visitor().get(`/api/v1/vehicles?${new URLSearchParams({ q: 'स्विफ्ट' })}`)).json());
    expect(swift.items.length).toBeGreaterThan(0);
    expect(swift.items.every((item) => item.model === 'Swift')).toBe(true);
  });

  it('only an admin adds to the catalogue, from our own pages', async () => {
    const fields = { make: 'VinFast', makeHi: 'विनफ़ास्ट', model: 'VF 6', modelHi: 'वीएफ 6', variant: 'Plus', body: 'suv' };
    const signedOut = await visitor().postForm('/admin/car-models', fields);
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get('location')).toMatch(/^\/admin-login/);
    const buyer = visitor();
    expect((await buyer.postForm('/signup', { intent: 'email', email: `buyer-${Date.now()}@example.in`, password: PASSWORD })).status).toBe(302);
    const refused = await buyer.postForm('/admin/car-models', fields);
    expect(refused.status).toBe(403);
    expect((await buyer.get('/admin/car-models')).status).toBe(403);
    // Another site's form, carried by the admin's own browser: refused before it runs.
    const forged = await admin.postForm('/admin/car-models', fields, { origin: 'https://evil.example' });
    expect(forged.status).toBe(403);
    await forged.body?.cancel();
    const { makes } = carCatalogueSchema.parse(await (await visitor().get('/api/v1/car-models')).json());
    expect(makes.some((make) => make.name === 'VinFast')).toBe(false);
  });

  it("an admin's addition is offered to sellers and read by the form, once", async () => {
    const page = await admin.get('/admin/car-models');
    expect(page.status).toBe(200);
    expect(mainText(await page.text())).toContain('Nothing added yet');

    const wrongHindi = await admin.postForm('/admin/car-models', { make: 'VinFast', makeHi: 'Vinfast', model: 'VF 6', modelHi: '', variant: '', body: '' });
    expect(wrongHindi.status).toBe(400);
    expect(mainText(await wrongHindi.text())).toContain('Please write the Hindi name in Devanagari, or leave it empty.');

    const added = await admin.postForm('/admin/car-models', {
      make: 'VinFast',
      makeHi: 'विनफ़ास्ट',
      model: 'VF 6',
      modelHi: 'वीएफ 6',
      variant: 'Plus',
      body: 'suv',
    });
    expect(added.status).toBe(302);
    expect(added.headers.get('location')).toBe('/admin/car-models');
    const listed = mainText(await (await admin.get('/admin/car-models')).text());
    expect(listed).toContain('VinFast VF 6 Plus');
    expect(listed).toContain(`Added by ${ADMIN}`);

    // The same car again, however spelt, and a shipped one: already in the list.
    for (const again of [
      { make: 'vinfast', model: 'VF-6', variant: 'plus' },
      { make: 'Hyundai', model: 'Creta', variant: '' },
    ]) {
      const twice = await admin.postForm('/admin/car-models', { ...again, makeHi: '', modelHi: '', body: '' });
      expect(twice.status, JSON.stringify(again)).toBe(409);
      expect(mainText(await twice.text())).toContain('is already in the list.');
    }
    // A variant for a shipped model joins it.
    expect((await admin.postForm('/admin/car-models', { make: 'hyundai', makeHi: '', model: 'creta', modelHi: '', variant: 'SX Tech', body: '' })).status).toBe(
      302,
    );

    // The seller's form reads the new car (a typo forgiven), and the app lists it.
    expect(await sellPage({ make: 'vinfst', model: 'vf6', variant: 'plus' })).toContain('We cannot estimate this car from our own data yet.');
    const answer = sellEstimateAnswerSchema.parse((await estimate({ make: 'विनफ़ास्ट', model: 'vf 6' })).body);
    expect(answer.car).toMatchObject({ make: 'VinFast', model: 'VF 6' });
    expect(sellEstimateAnswerSchema.parse((await estimate({ make: 'hyundai', model: 'creta', variant: 'sx tech' })).body).car.variant).toBe('SX Tech');
    const { makes } = carCatalogueSchema.parse(await (await visitor().get('/api/v1/car-models')).json());
    expect(makes.find((make) => make.name === 'VinFast')).toMatchObject({
      id: 'vinfast',
      hi: 'विनफ़ास्ट',
      models: [{ id: 'vinfast-vf-6', name: 'VF 6', body: 'suv', variants: ['Plus'] }],
    });
    // On the seller's page, in its pickers' data.
    expect(await (await visitor().get('/sell-vehicle')).text()).toContain('vinfast-vf-6');
  });

  it('the database keeps one row per car and refuses a nameless one, whoever writes', async () => {
    const database = openServerDatabase(server);
    try {
      const row = {
        make: 'Tata',
        make_hi: '',
        model: 'Sierra',
        model_hi: '',
        variant: '',
        body_type: 'suv',
        make_key: 'tata',
        model_key: 'sierra',
        variant_key: '',
        added_by: 'test',
        created_at: new Date().toISOString(),
      };
      await database.db.insertInto('car_model_additions').values(row).execute();
      await expect(
        database.db
          .insertInto('car_model_additions')
          .values({ ...row, make: 'TATA' })
          .execute(),
      ).rejects.toThrow();
      await expect(
        database.db
          .insertInto('car_model_additions')
          .values({ ...row, model: '', model_key: '' })
          .execute(),
      ).rejects.toThrow();
      const count = await database.db
        .selectFrom('car_model_additions')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('model_key', '=', 'sierra')
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(1);
    } finally {
      await database.close();
    }
  });
});
