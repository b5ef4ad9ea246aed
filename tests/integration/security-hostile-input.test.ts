import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../support/http-client.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { sharedServer } from '../support/shared.ts';

/**
 * A hostile-input corpus, as an outside probe sends it: odd ids in every URL and form that takes
 * one, control characters, NUL bytes and 100 KB strings in every text field of every form (as
 * urlencoded bodies with our own Origin, so they get past CSRF to the code that reads them), the
 * JSON API's parameters, better-auth's JSON endpoints, admin actions signed in as the admin, and
 * the wishlist action signed in as a buyer. Nothing may answer 5xx and no body may show a stack
 * trace, a driver's error or a file path. Demo mode, so React Router's error handling of the
 * public demo is what is checked.
 */

const shared = sharedServer();
const ADMIN = 'admin@gaadibazaar.in';
const PASSWORD = 'secret123';

/** Ids as a probe writes them: none is a valid id. */
const HOSTILE_IDS = [
  '0',
  '-1',
  '1.5',
  '1e3',
  '0x10',
  '01',
  ' 7',
  '2147483648',
  '9876543210',
  '99999999999999999999999',
  '-2147483649',
  'NaN',
  'Infinity',
  "1' OR '1'='1",
  '1\u0000',
  '%00',
  'abc',
];

const HUGE = 'x'.repeat(100_000);
/** Text as a probe writes it. */
const HOSTILE_TEXT = [
  '\u0000',
  'Ravi\u0000Kumar',
  'ravi@example.in\u0000',
  '\u0001\u0002\u0007\u001b[31m\u001f\u007f',
  'line\r\nbreak\ttab',
  HUGE,
  `${'\u0000'.repeat(50)}${HUGE}`,
  '\uD800lonely surrogate',
  "'; DROP TABLE vehicles; --",
  '<script>alert(1)</script>',
  '%_\\',
];

/** What a leaked internal error looks like in a body. */
const LEAKS: Array<[string, RegExp]> = [
  ['a stack frame', /\n\s+at \S+ \(|\bat [\w.<>]+ \(\/|at async /],
  ['a node_modules path', /\/node_modules\//],
  ['a TypeError', /TypeError/],
  ['a SQLite error', /SqliteError|SQLITE_/],
  ['a PostgreSQL error', /\berror: (invalid|syntax|value|null|column|relation|insert|update|duplicate|out of range)/i],
  ['a source file path', /\/[\w.-]+\/[\w./-]+\.(?:ts|tsx|js|mjs|cjs):\d+/],
  ['a database word', /\bkysely\b|\bpg-protocol\b|invalid byte sequence|out of range for type integer/i],
];

/** `signedIn`: sent with a session that must survive (being sent to a login page would test nothing). */
type Attempt = { label: string; run: () => Promise<Response>; signedIn?: boolean };
type Finding = { label: string; status: number; problem: string; excerpt: string };

let server: TestServer;
let visitor: HttpClient;
let buyer: HttpClient;
let admin: HttpClient;
let vehicle: { id: number; categorySlug: string; categoryId: number };

/** A fresh visitor (own address, empty jar) per request, so per-address limits never mask the code behind them. */
const stranger = () => new HttpClient(server.url);

function json(client: HttpClient, path: string, body: unknown): Promise<Response> {
  return client.request(path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', accept: 'application/json' } });
}

async function check(attempt: Attempt): Promise<Finding | null> {
  let response: Response;
  try {
    response = await attempt.run();
  } catch (error) {
    return { label: attempt.label, status: 0, problem: `request failed: ${String(error)}`, excerpt: '' };
  }
  const body = await response.text();
  const location = response.headers.get('location') ?? '';
  if (attempt.signedIn && /^\/(admin-)?login\b/.test(location))
    return { label: attempt.label, status: response.status, problem: `was sent to ${location}`, excerpt: '' };
  if (response.status >= 500) return { label: attempt.label, status: response.status, problem: 'answered 5xx', excerpt: body.slice(0, 300) };
  for (const [name, pattern] of LEAKS) {
    const match = pattern.exec(body);
    if (match)
      return {
        label: attempt.label,
        status: response.status,
        problem: `shows ${name}`,
        excerpt: body.slice(Math.max(0, match.index - 100), match.index + 200),
      };
  }
  return null;
}

/** Runs the attempts a few at a time (the machine is shared) and returns what went wrong. */
async function runAll(attempts: Attempt[], concurrency = 4): Promise<Finding[]> {
  const findings: Finding[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < attempts.length) {
        const attempt = attempts[next++]!;
        const finding = await check(attempt);
        if (finding) findings.push(finding);
      }
    }),
  );
  return findings;
}

/** Percent-encoding that, like a browser, turns a lone surrogate into U+FFFD instead of throwing. */
const enc = (text: string) => encodeURIComponent(text.toWellFormed());
const isSignedIn = (client: () => HttpClient) => client() === admin || client() === buyer;
const get = (client: () => HttpClient, path: string): Attempt => ({
  label: `GET ${path.slice(0, 120)}`,
  run: () => client().get(path),
  signedIn: isSignedIn(client),
});
const post = (client: () => HttpClient, path: string, fields: Record<string, string>): Attempt => ({
  label: `POST ${path} ${JSON.stringify(fields).slice(0, 120)}`,
  run: () => client().postForm(path, fields),
  signedIn: isSignedIn(client),
});
const postJson = (client: () => HttpClient, path: string, body: Record<string, unknown>): Attempt => ({
  label: `POST ${path} (JSON) ${JSON.stringify(body).slice(0, 120)}`,
  run: () => json(client(), path, body),
  signedIn: isSignedIn(client),
});

/** Every text field of a form gets every hostile text in turn, the others valid. */
function eachField(client: () => HttpClient, path: string, valid: Record<string, string>, fields: string[] = Object.keys(valid)): Attempt[] {
  return fields.flatMap((field) => HOSTILE_TEXT.map((text) => post(client, path, { ...valid, [field]: text })));
}

const validVehicle = (categoryId: number): Record<string, string> => ({
  intent: 'save',
  name: 'Probe Car',
  make: 'Maruti',
  model: 'Swift',
  categoryId: String(categoryId),
  price: '5,45,000',
  year: '2021',
  variant: 'VXi',
  fuelType: 'Petrol',
  transmission: 'Manual',
  owners: '1st Owner',
  registration: 'MH-12',
  insuranceValidity: '2027-03-31',
  odometer: '23450',
  fitnessFC: 'Valid',
  tyrePoint: '85%',
  description: 'One owner.',
  videoUrl: '',
  status: 'available',
  soldPrice: '',
  soldAt: '',
  'inspection.key': 'Engine',
  'inspection.value': 'Good',
});

describe.skipIf(!shared.url)('hostile input', () => {
  beforeAll(async () => {
    server = await startTestServer({
      dialect: shared.dialect,
      seed: true,
      env: { APP_MODE: 'demo', DEMO_ADMIN_PASSWORD: PASSWORD, TRUST_PROXY: 'true', ADMIN_EMAILS: ADMIN },
    });
    visitor = new HttpClient(server.url);
    const first = (await (await visitor.get('/api/v1/vehicles/1')).json()) as { id: number; categorySlug: string; categoryId: number };
    vehicle = first;

    buyer = new HttpClient(server.url);
    const signUp = await buyer.postForm('/signup', { intent: 'email', email: 'probe.buyer@example.in', password: PASSWORD });
    expect(signUp.status).toBe(302);

    admin = new HttpClient(server.url);
    const signIn = await admin.postForm('/admin-login', { email: ADMIN, password: PASSWORD, botCheck: await admin.botToken('LOGIN') });
    expect(signIn.status).toBe(302);
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('answers public pages and the JSON API without a 5xx or a leak', async () => {
    const attempts: Attempt[] = [];
    for (const id of HOSTILE_IDS) {
      attempts.push(get(stranger, `/vehicle/${enc(id)}`));
      attempts.push(get(stranger, `/vehicle/${enc(id)}.data`));
      attempts.push(get(stranger, `/api/v1/vehicles/${enc(id)}`));
      attempts.push(get(stranger, `/api/v1/vehicles?perPage=${enc(id)}`));
      attempts.push(get(stranger, `/api/v1/vehicles?page=${enc(id)}`));
      attempts.push(get(stranger, `/api/v1/vehicles?category=${enc(id)}`));
      attempts.push(get(stranger, `/?page=${enc(id)}`));
      attempts.push(get(stranger, `/categories?page=${enc(id)}&category=${enc(vehicle.categorySlug)}`));
    }
    for (const text of HOSTILE_TEXT) {
      attempts.push(get(stranger, `/?q=${enc(text)}`));
      attempts.push(get(stranger, `/api/v1/vehicles?q=${enc(text)}`));
      attempts.push(get(stranger, `/categories?category=${enc(text)}`));
      attempts.push(get(stranger, `/login?error=${enc(text)}`));
      attempts.push(get(stranger, `/admin-login?redirectTo=${enc(text)}`));
      attempts.push(get(stranger, `/api/bot-check/challenge?action=${enc(text)}`));
    }
    const findings = await runAll(attempts);
    expect(attempts.length).toBeGreaterThanOrEqual(200);
    expect(findings).toEqual([]);
    // A too-large id in a URL is simply not found.
    expect((await stranger().get('/vehicle/2147483648')).status).toBe(404);
    expect((await stranger().get('/api/v1/vehicles/9876543210')).status).toBe(404);
    const badCategory = await stranger().get('/api/v1/vehicles?category=9876543210');
    expect(badCategory.status).toBe(400);
    expect(await badCategory.json()).toMatchObject({ status: 400, detail: expect.stringContaining('category') });
  }, 240_000);

  it('answers every public form, sign-in and sign-up with hostile text without a 5xx or a leak', async () => {
    const attempts: Attempt[] = [
      ...eachField(stranger, '/login', { intent: 'email', email: 'someone@example.in', password: 'secret123', botCheck: 'x' }),
      ...eachField(stranger, '/signup', { intent: 'email', email: 'someone.new@example.in', password: 'secret123' }),
      ...eachField(stranger, '/admin-login', { email: ADMIN, password: 'wrong-password' }),
      ...eachField(stranger, '/setup-admin', { email: ADMIN, password: 'secret123' }),
      ...eachField(stranger, '/request-vehicle', {
        name: 'Ravi',
        phone: '98765 43210',
        model: 'Creta',
        year: '2020',
        budget: '10 lakh',
        description: 'Any colour',
      }),
      ...eachField(stranger, '/sell-vehicle', {
        name: 'Ravi',
        phone: '98765 43210',
        vehicle: 'Creta',
        year: '2020',
        price: '10 lakh',
        description: 'Any colour',
      }),
      ...HOSTILE_TEXT.map((text) => postJson(stranger, '/api/auth/sign-in/email', { email: text, password: 'secret123' })),
      ...HOSTILE_TEXT.map((text) =>
        postJson(stranger, '/api/auth/sign-up/email', { email: `x${Math.random()}@example.in`, password: 'secret123', name: text }),
      ),
    ];
    const findings = await runAll(attempts);
    expect(findings).toEqual([]);
  }, 600_000);

  it('refuses a control character in a form that passes the bot check with a 400 at the edge; tabs and line breaks are cleaned and stored', async () => {
    const statuses: number[] = [];
    for (const text of ['Ravi\u0000Kumar', '\u0001Ravi\u007f', 'Ravi\tKumar\r\n']) {
      const client = stranger();
      const response = await client.postForm('/request-vehicle', {
        name: text,
        phone: '98765 43210',
        model: `Creta${text}`,
        year: '2020',
        budget: '10 lakh',
        description: `Any colour${text}`,
        botCheck: await client.botToken('REQUEST_FORM'),
      });
      statuses.push(response.status);
      const body = await response.text();
      if (response.status === 400) expect(body).toContain('invisible control characters');
    }
    expect(statuses).toEqual([400, 400, 200]);
    const list = await (await admin.get('/admin/requested-vehicles')).text();
    expect(list).toContain('Ravi Kumar');
    expect(list).not.toContain('RaviKumar');
    expect(list).not.toContain('\u0000');
  }, 120_000);

  it('refuses a NUL in any form field or JSON body with a 400, before it reaches a query', async () => {
    const nul = 'x\u0000y';
    const forms: Array<[HttpClient, string, Record<string, string>]> = [
      [stranger(), '/login', { intent: 'email', email: nul, password: 'secret123', botCheck: 'x' }],
      [stranger(), '/request-vehicle', { name: nul, phone: '98765 43210' }],
      [buyer, '/profile-complete', { intent: 'send', name: nul, countryCode: '+91', phone: '9876543210' }],
      [admin, '/admin/rentals/licences', { intent: 'approve', userId: nul }],
      [admin, '/admin/settings', { intent: 'reset', [nul]: '1' }],
    ];
    for (const [client, path, fields] of forms) {
      const response = await client.postForm(path, fields);
      expect(response.status, `${path} ${JSON.stringify(fields)}`).toBe(400);
      expect(await response.text()).toContain('invisible control characters');
    }
    const api = await json(buyer, '/api/v1/test-drives', { vehicleId: vehicle.id, slot: `2030-01-01T10:00${'\u0000'}`, mode: 'showroom' });
    expect(api.status).toBe(400);
    // The refusal names the field that held it, as every form error does.
    expect(await api.json()).toMatchObject({
      status: 400,
      detail: expect.stringContaining('invisible control characters'),
      fields: { slot: expect.stringContaining('invisible control characters') },
    });
  });

  it('answers the buyer’s wishlist, profile and account actions without a 5xx or a leak', async () => {
    const attempts: Attempt[] = [
      ...HOSTILE_IDS.flatMap((id) => [
        post(() => buyer, `/vehicle/${enc(id)}`, { wishlisted: 'true' }),
        post(() => buyer, `/vehicle/${enc(id)}`, { wishlisted: 'false' }),
        post(() => buyer, `/vehicle/${enc(id)}.data`, { wishlisted: 'true' }),
      ]),
      ...HOSTILE_TEXT.map((text) => post(() => buyer, `/vehicle/${vehicle.id}`, { wishlisted: text })),
      ...eachField(() => buyer, '/profile-complete', { intent: 'verify', name: 'Ravi Kumar', countryCode: '+91', phone: '9876543210', otp: '123456' }),
      ...eachField(() => buyer, '/profile-complete', { intent: 'send', name: 'Ravi Kumar', countryCode: '+91', phone: '9876543210', botCheck: 'x' }, [
        'name',
        'countryCode',
        'phone',
      ]),
      ...HOSTILE_TEXT.map((text) => postJson(() => buyer, '/api/auth/update-user', { name: text })),
      get(() => buyer, '/wishlist'),
      get(() => buyer, '/profile?debug=1'),
    ];
    const findings = await runAll(attempts, 2);
    expect(findings).toEqual([]);
    // The wishlist action with an id that cannot exist is a plain 404 with a message.
    const missing = await buyer.postForm('/vehicle/2147483648', { wishlisted: 'true' });
    expect(missing.status).toBe(404);
    await missing.body?.cancel();
    // better-auth's update-user is not exposed over HTTP (decision 009): not found, whatever the body.
    const nul = await json(buyer, '/api/auth/update-user', { name: 'Ravi\u0000' });
    expect(nul.status).toBe(404);
    await nul.body?.cancel();
  }, 600_000);

  it('answers every admin page and action with hostile ids and text without a 5xx or a leak', async () => {
    const asAdmin = () => admin;
    const editBase = `/admin-panel/vehicles/edit/${enc(vehicle.categorySlug)}`;
    const attempts: Attempt[] = [];
    for (const id of HOSTILE_IDS) {
      attempts.push(get(asAdmin, `${editBase}/${enc(id)}`));
      attempts.push(get(asAdmin, `/admin-panel/vehicles/edit/${enc(id)}/${enc(id)}`));
      attempts.push(post(asAdmin, `${editBase}/${enc(id)}`, validVehicle(vehicle.categoryId)));
      attempts.push(post(asAdmin, `${editBase}/${vehicle.id}`, { intent: 'remove-image', imageId: id }));
      attempts.push(post(asAdmin, `${editBase}/${vehicle.id}`, { intent: 'move-image', imageId: id, direction: 'left' }));
      attempts.push(post(asAdmin, `${editBase}/${vehicle.id}`, { ...validVehicle(vehicle.categoryId), categoryId: id }));
      attempts.push(post(asAdmin, '/admin-panel/vehicles', { intent: 'delete', id }));
      attempts.push(post(asAdmin, '/admin-panel/categories', { intent: 'delete', id }));
      attempts.push(post(asAdmin, '/admin-panel/categories', { intent: 'update', id, name: 'Renamed' }));
      attempts.push(post(asAdmin, '/admin/requested-vehicles', { id, status: 'contacted', notes: 'Called' }));
      attempts.push(post(asAdmin, '/admin/selling-vehicles', { id, intent: 'delete' }));
      attempts.push(get(asAdmin, `/admin-panel/vehicles?page=${enc(id)}&delete=${enc(id)}`));
      attempts.push(get(asAdmin, `/admin-panel/categories?edit=${enc(id)}&delete=${enc(id)}`));
      attempts.push(get(asAdmin, `/admin/audit-log?page=${enc(id)}`));
      attempts.push(get(asAdmin, `/admin/requested-vehicles?page=${enc(id)}`));
      // Licence review takes a user id (text, not a number), the rental desk numeric ids.
      attempts.push(post(asAdmin, '/admin/rentals/licences', { intent: 'approve', userId: id }));
      attempts.push(post(asAdmin, '/admin/rentals/licences', { intent: 'refuse', userId: id, reason: 'unreadable' }));
      attempts.push(post(asAdmin, '/admin/rentals', { intent: 'remove-block', blockId: id }));
      attempts.push(post(asAdmin, '/admin/rentals', { intent: 'confirm', bookingId: id }));
    }
    for (const text of HOSTILE_TEXT) {
      attempts.push(get(asAdmin, `/admin-panel/vehicles?q=${enc(text)}&status=${enc(text)}`));
      attempts.push(get(asAdmin, `/admin/requested-vehicles?q=${enc(text)}&status=${enc(text)}`));
      attempts.push(get(asAdmin, `/admin/selling-vehicles?q=${enc(text)}`));
      attempts.push(get(asAdmin, `/admin/leads-export/requested-vehicles?q=${enc(text)}`));
      attempts.push(post(asAdmin, '/admin-panel/categories', { intent: text, id: '1' }));
      attempts.push(post(asAdmin, '/admin/rentals/licences', { intent: 'approve', userId: text }));
    }
    attempts.push(
      ...eachField(asAdmin, '/admin/add-category', { name: 'Probe Category' }),
      ...eachField(asAdmin, '/admin-panel/categories', { intent: 'update', id: String(vehicle.categoryId), name: 'Renamed Category' }, ['name']),
      ...eachField(asAdmin, '/admin/add-vehicle', validVehicle(vehicle.categoryId), [
        'name',
        'make',
        'price',
        'year',
        'description',
        'odometer',
        'soldAt',
        'inspection.key',
        'videoUrl',
      ]),
      ...eachField(asAdmin, `${editBase}/${vehicle.id}`, validVehicle(vehicle.categoryId), ['name', 'registration', 'description', 'status', 'soldPrice']),
      ...eachField(asAdmin, '/admin/register-admin', { email: 'new.admin@gaadibazaar.in', password: 'secret123' }),
      ...eachField(asAdmin, '/admin/settings', { siteName: 'Gaadi Bazaar', adminEmail: ADMIN, itemsPerPage: '10' }),
      ...eachField(asAdmin, '/admin/requested-vehicles', { id: '1', status: 'contacted', notes: 'Called back' }, ['status', 'notes', 'intent']),
      ...eachField(asAdmin, '/admin/selling-vehicles', { id: '1', status: 'contacted', notes: 'Called back' }, ['status', 'notes']),
    );
    const findings = await runAll(attempts, 2);
    expect(attempts.length).toBeGreaterThanOrEqual(300);
    expect(findings).toEqual([]);
    // Settings saved from hostile text keep no control character.
    const settings = await (await admin.get('/admin/settings')).text();
    // eslint-disable-next-line no-control-regex
    expect(settings).not.toMatch(/[\u0000-\u0008]/);
  }, 900_000);

  it('answers 20 settings resets and saves posted at once without a 5xx', async () => {
    const posts = Array.from({ length: 20 }, (_, index) =>
      index % 2 === 0
        ? admin.postForm('/admin/settings', { intent: 'reset' })
        : admin.postForm('/admin/settings', { siteName: `Gaadi Bazaar ${index}`, adminEmail: ADMIN, itemsPerPage: '10' }),
    );
    const statuses = await Promise.all(
      posts.map(async (pending) => {
        const response = await pending;
        await response.body?.cancel();
        return response.status;
      }),
    );
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
    expect((await admin.get('/admin/settings')).status).toBe(200);
  }, 120_000);

  it('never shows an internal error, even for a body the action cannot read', async () => {
    const attempts: Attempt[] = ['/login', '/login.data', '/request-vehicle', '/admin/settings'].map((path) => ({
      label: `POST ${path} with a multipart type and no boundary`,
      run: () =>
        (path.startsWith('/admin') ? admin : stranger()).request(path, { method: 'POST', body: 'email=a', headers: { 'content-type': 'multipart/form-data' } }),
    }));
    // The status of unreadable bodies is another change's; here only that nothing leaks.
    const leaks = (await runAll(attempts)).filter((finding) => finding.problem !== 'answered 5xx');
    expect(leaks).toEqual([]);
  });
});
