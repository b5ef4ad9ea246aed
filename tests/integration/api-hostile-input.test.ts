import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problemSchema } from '../../server/http/api-answers.ts';
import { HttpClient, signUp, uniqueEmail } from '../support/http-client.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { sharedServer } from '../support/shared.ts';

/**
 * The app API's hostile-input corpus, walked from the served OpenAPI document, so a new
 * operation is covered the day it is described: every operation with odd ids (huge, negative,
 * zero, not a number, a NUL byte), every body-taking one with malformed JSON, a JSON array,
 * wrong types and NUL bytes, every one without a session. Each refusal is a 4xx
 * `application/problem+json` that parses as the document's Problem; nothing answers 5xx and no
 * body shows a stack, a driver's error or a file path. Plus the refusals made before any route:
 * the cross-site check, an unknown path, a wrong method.
 */

const shared = sharedServer();

const HOSTILE_IDS = ['99999999999999999999', '-1', '0', 'abc', '1.5', '%00', '1%00'];
/** Bodies no operation accepts: cut-off JSON, a JSON array, a string, NUL bytes, wrong types everywhere. */
const HOSTILE_BODIES: Array<[string, string]> = [
  ['malformed JSON', '{"vehicleId": 1, "slot": '],
  ['a JSON array', '[1, 2, 3]'],
  ['a JSON string', '"hello"'],
  ['NUL bytes', JSON.stringify({ vehicleId: '1\u0000', carId: '\u0000', slot: 'a\u0000b', phone: '98\u00007', password: '\u0000', name: 'A\u0000' })],
  [
    'wrong types',
    JSON.stringify({
      vehicleId: { $gt: 1 },
      carId: [1],
      slot: 12,
      mode: true,
      from: 1,
      to: null,
      pickup: 7,
      phone: 9876543210,
      otp: [],
      name: {},
      password: 1,
      confirm: false,
    }),
  ],
  ['huge numbers', '{"vehicleId": 99999999999999999999, "carId": -1, "from": "99999-01-01T10:00", "to": "-1"}'],
];

const LEAKS: Array<[string, RegExp]> = [
  ['a stack frame', /\n\s+at \S+ \(|\bat [\w.<>]+ \(\/|at async /],
  ['a node_modules path', /\/node_modules\//],
  ['a TypeError', /TypeError|SyntaxError/],
  ['a SQLite error', /SqliteError|SQLITE_/],
  ['a database word', /\bkysely\b|\bpg-protocol\b|invalid byte sequence|out of range for type/i],
  ['a source file path', /\/[\w.-]+\/[\w./-]+\.(?:ts|tsx|js|mjs|cjs):\d+/],
];

type Operation = { method: string; path: string; auth: boolean; body: boolean };
type Finding = { label: string; status: number; problem: string; excerpt: string };

/** The refusal `response` is, checked: a 4xx problem that reads as the document's Problem, leaking nothing; `ok` lets a success pass. */
async function findingOf(label: string, response: Response, ok: 'refusal' | 'any' = 'refusal'): Promise<Finding | null> {
  const text = await response.text();
  const finding = (problem: string) => ({ label, status: response.status, problem, excerpt: text.slice(0, 200) });
  for (const [name, pattern] of LEAKS) if (pattern.test(text)) return finding(`shows ${name}`);
  if (response.status >= 500) return finding('a server error');
  if (response.status < 400) return ok === 'any' ? null : finding('accepted');
  if (!response.headers.get('content-type')?.startsWith('application/problem+json')) return finding(`content type ${response.headers.get('content-type')}`);
  const parsed = problemSchema.safeParse(JSON.parse(text));
  if (!parsed.success) return finding('not a Problem');
  if (parsed.data.status !== response.status) return finding('status differs from the answer');
  return null;
}

describe.skipIf(!shared.url)(`hostile input on every /api/v1 operation (${shared.dialect})`, () => {
  let server: TestServer;
  let person: HttpClient;
  let operations: Operation[];

  beforeAll(async () => {
    server = await startTestServer({ dialect: shared.dialect, seed: true, env: { APP_MODE: 'demo' } });
    person = new HttpClient(server.url);
    await signUp(person, uniqueEmail('api-hostile'));
    const document = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { security?: unknown[]; requestBody?: unknown }>>;
    };
    operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({
        method: method.toUpperCase(),
        path,
        auth: (operation.security?.length ?? 0) > 0,
        body: Boolean(operation.requestBody),
      })),
    );
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  /** Runs the attempts four at a time; the findings. */
  async function runAll(attempts: Array<{ label: string; run: () => Promise<Response>; ok?: 'refusal' | 'any' }>): Promise<Finding[]> {
    const findings: Finding[] = [];
    let next = 0;
    const worker = async () => {
      while (next < attempts.length) {
        const attempt = attempts[next++]!;
        const finding = await findingOf(attempt.label, await attempt.run(), attempt.ok);
        if (finding) findings.push(finding);
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    return findings;
  }

  it('walks more than twenty operations of the document', () => {
    expect(operations.length).toBeGreaterThan(20);
    expect(operations.filter((operation) => operation.path.includes('{id}')).length).toBeGreaterThan(5);
  });

  it('an odd id in any path is a 4xx problem (signed in), never a 5xx', async () => {
    const attempts = operations
      .filter((operation) => operation.path.includes('{'))
      .flatMap((operation) =>
        HOSTILE_IDS.map((id) => ({
          label: `${operation.method} ${operation.path} id=${id}`,
          run: () =>
            person.request(`/api/v1${operation.path.replace(/\{[^}]+\}/g, id)}`, {
              method: operation.method,
              ...(operation.method === 'POST' ? { body: '{}', headers: { 'content-type': 'application/json' } } : {}),
            }),
        })),
      );
    expect(await runAll(attempts)).toEqual([]);
  });

  it('malformed JSON, arrays, NUL bytes and wrong types in every body are 4xx problems', async () => {
    const attempts = operations
      .filter((operation) => operation.body && operation.path !== '/me/delete')
      .flatMap((operation) =>
        HOSTILE_BODIES.map(([name, body]) => ({
          label: `${operation.method} ${operation.path} ${name}`,
          run: () =>
            person.request(`/api/v1${operation.path.replace(/\{[^}]+\}/g, '1')}`, {
              method: operation.method,
              body,
              headers: { 'content-type': 'application/json' },
            }),
        })),
      );
    expect(await runAll(attempts)).toEqual([]);
    // Deleting the account with hostile bodies refuses them, and the account stays.
    const deletions = HOSTILE_BODIES.map(([name, body]) => ({
      label: `POST /me/delete ${name}`,
      run: () => person.request('/api/v1/me/delete', { method: 'POST', body, headers: { 'content-type': 'application/json' } }),
    }));
    expect(await runAll(deletions)).toEqual([]);
    expect((await person.request('/api/v1/me/licence')).status).toBe(200);
  });

  it('odd query values never make a 5xx; a refusal is a problem', async () => {
    const attempts = operations
      .filter((operation) => operation.method === 'GET')
      .flatMap((operation) =>
        ['abc%00', '99999999999999999999', '-1', '%E0%A4', '1,2,%00'].map((value) => ({
          label: `GET ${operation.path}?…=${value}`,
          ok: 'any' as const,
          run: () =>
            person.request(
              `/api/v1${operation.path.replace(/\{[^}]+\}/g, '1')}?${['q', 'page', 'perPage', 'budget', 'fuel', 'category', 'sort', 'from', 'to', 'month', 'vehicleId', 'date', 'pinCode'].map((name) => `${name}=${value}`).join('&')}`,
            ),
        })),
      );
    expect(await runAll(attempts)).toEqual([]);
  });

  it('without a session, every signed-in operation is a 401 problem', async () => {
    const stranger = new HttpClient(server.url);
    const attempts = operations
      .filter((operation) => operation.auth)
      .map((operation) => ({
        label: `${operation.method} ${operation.path} signed out`,
        run: () =>
          stranger.request(`/api/v1${operation.path.replace(/\{[^}]+\}/g, '1')}`, {
            method: operation.method,
            ...(operation.body ? { body: '{}', headers: { 'content-type': 'application/json' } } : {}),
          }),
      }));
    expect(attempts.length).toBeGreaterThan(10);
    const answers = await Promise.all(attempts.map(async (attempt) => ({ label: attempt.label, response: await attempt.run() })));
    for (const { label, response } of answers) {
      expect(response.status, label).toBe(401);
      expect(await findingOf(label, response)).toBeNull();
    }
  });

  it('the refusals before any route are problems too: cross-site, unknown path, wrong method, oversize body', async () => {
    const crossSite = await person.request('/api/v1/test-drives', {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
      origin: 'https://evil.example',
    });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.clone().json()).toMatchObject({
      status: 403,
      detail: 'This request did not come from our site and was refused. Please reload the page and try again.',
    });
    expect(await findingOf('cross-site', crossSite)).toBeNull();

    const unknown = await fetch(`${server.url}/api/v1/no-such-thing`);
    expect(unknown.status).toBe(404);
    expect(await findingOf('unknown path', unknown)).toBeNull();

    const wrongMethod = await person.request('/api/v1/vehicles', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET, HEAD');
    expect(await findingOf('wrong method', wrongMethod)).toBeNull();

    const oversize = await person.request('/api/v1/test-drives', {
      method: 'POST',
      body: JSON.stringify({ text: 'x'.repeat(2 * 1024 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(oversize.status).toBe(413);
    expect(await findingOf('oversize', oversize)).toBeNull();

    // A page keeps its own answer: the cross-site refusal of a form is text.
    const page = await person.postForm('/logout', {}, { origin: 'https://evil.example' });
    expect(page.status).toBe(403);
    expect(page.headers.get('content-type')).toMatch(/^text\/plain/);
  });
});
