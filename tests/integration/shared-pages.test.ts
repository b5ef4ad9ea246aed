import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personalSummarySchema } from '../../server/http/api-answers.ts';
import { HttpClient, signUp, uniqueEmail } from '../support/http-client.ts';
import { sharedServer } from '../support/shared.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * Shared pages (decision 127): the public pages are rendered for nobody, so a signed-in person
 * gets them from the page cache, the very bytes a signed-out visitor gets, `public`; the person is
 * filled in by the browser from GET /api/v1/me/summary, private and never stored. A page asked
 * with a flash message is that person's and is rendered for the request.
 */

const { dialect, url: sharedUrl } = sharedServer();

describe.skipIf(!sharedUrl)(`shared pages from the cache, signed in or not (${dialect})`, () => {
  let server: TestServer;
  let carId: number;
  let otherCarId: number;

  beforeAll(async () => {
    server = await startTestServer({ dialect, seed: true, env: { PAGE_CACHE_SECONDS: '60', TRUST_PROXY: 'true' } });
    const listed = (await (await fetch(`${server.url}/api/v1/vehicles?perPage=2`)).json()) as { items: Array<{ id: number }> };
    carId = listed.items[0]!.id;
    otherCarId = listed.items[1]!.id;
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
  });

  /** A person signed up with a name and one car on their wishlist. */
  async function person(label: string, car: number): Promise<{ client: HttpClient; email: string }> {
    const client = new HttpClient(server.url);
    const email = uniqueEmail(label);
    await signUp(client, email);
    expect((await client.postForm(`/vehicle/${car}`, { intent: 'wishlist', wishlisted: 'true' })).status).toBeLessThan(400);
    const named = await client.request('/api/v1/me/profile', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Person ${label}` }),
    });
    expect(named.status).toBe(200);
    return { client, email };
  }

  it('serves a signed-in person the page every visitor gets, from the cache, public', async () => {
    const { client: signedIn, email } = await person('shared', carId);
    // '/?q=…' is asked first by the signed-in person (the server's warm-up may have stored the others): rendered for nobody, and stored.
    for (const path of ['/?q=swift', '/', `/vehicle/${carId}`, '/hi/']) {
      const first = await signedIn.get(path);
      expect(first.status, path).toBe(200);
      if (path === '/?q=swift') expect(first.headers.get('x-cache')).toBe('miss');
      else expect(['miss', 'hit'], path).toContain(first.headers.get('x-cache'));
      const again = await signedIn.get(path);
      expect(again.headers.get('x-cache'), path).toBe('hit');
      const anonymous = await new HttpClient(server.url).get(path);
      expect(anonymous.headers.get('x-cache'), path).toBe('hit');
      const [firstHtml, againHtml, anonymousHtml] = await Promise.all([first.text(), again.text(), anonymous.text()]);
      expect(againHtml, path).toBe(anonymousHtml);
      expect(firstHtml, path).toBe(anonymousHtml);
      for (const response of [first, again, anonymous]) expect(response.headers.get('cache-control'), path).toBe('public, no-cache');
      // Nothing of the person in it: no name, no address, no filled heart, no Logout.
      expect(anonymousHtml).not.toContain('Person shared');
      expect(anonymousHtml).not.toContain(email);
      expect(anonymousHtml).not.toContain('aria-pressed="true"');
      expect(anonymousHtml).not.toMatch(/>(Logout|लॉग आउट)</);
    }
  });

  it('answers a client navigation’s data of a shared page without the person, not private', async () => {
    const { client, email } = await person('data', otherCarId);
    for (const path of [`/vehicle/${otherCarId}.data`, '/_.data']) {
      const response = await client.get(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('cache-control') ?? '', path).not.toContain('private');
      const body = await response.text();
      expect(body, path).not.toContain('Person data');
      expect(body, path).not.toContain(email);
    }
    // A personal page is still that person's: rendered for them, never stored.
    const wishlist = await client.get('/wishlist');
    expect(wishlist.headers.get('cache-control')).toBe('private, no-store');
    expect(wishlist.headers.get('x-cache')).toBeNull();
  });

  it('renders a page asked with a flash message for that request, never from the cache', async () => {
    const { client } = await person('flash', carId);
    await client.get('/about');
    expect((await client.get('/about')).headers.get('x-cache')).toBe('hit');
    for (const path of ['/about', `/vehicle/${carId}`]) {
      const response = await fetch(`${server.url}${path}`, {
        headers: { cookie: `${client.jar.header()}; gb_flash=e30%3D.nosignature`, 'accept-encoding': 'gzip, br' },
      });
      await response.body?.cancel();
      expect(response.headers.get('x-cache'), path).toBeNull();
      expect(response.headers.get('cache-control'), path).toBe('private, no-store');
    }
  });

  it('tells each person who they are in /api/v1/me/summary, private and never stored', async () => {
    const first = await person('first', carId);
    const second = await person('second', otherCarId);
    const answers = await Promise.all([first.client.get('/api/v1/me/summary'), second.client.get('/api/v1/me/summary')]);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get('cache-control')).toBe('private, no-store');
    }
    const [mine, theirs] = await Promise.all(answers.map(async (answer) => personalSummarySchema.parse(await answer.json())));
    expect(mine).toEqual({ signedIn: true, name: 'Person first', wishlist: [carId] });
    expect(theirs).toEqual({ signedIn: true, name: 'Person second', wishlist: [otherCarId] });

    const anonymous = await new HttpClient(server.url).get('/api/v1/me/summary');
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers.get('cache-control')).toBe('private, no-store');
    const body = await anonymous.text();
    expect(JSON.parse(body)).toEqual({ signedIn: false, name: null, wishlist: [] });
    expect(body.length).toBeLessThan(500);
  });

  it('answers the app’s bearer token as it answers the session cookie', async () => {
    const email = uniqueEmail('app-summary');
    // Through the HttpClient for its address of its own (sign-ups are limited per address); the cookie it may get is not used.
    const signedUp = await new HttpClient(server.url).request('/api/v1/auth/sign-up', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Asha Verma', email, password: 'correct-horse-7' }),
    });
    expect(signedUp.status).toBe(201);
    const { token } = (await signedUp.json()) as { token: string };
    const answer = await fetch(`${server.url}/api/v1/me/summary`, { headers: { authorization: `Bearer ${token}` } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('private, no-store');
    expect(personalSummarySchema.parse(await answer.json())).toEqual({ signedIn: true, name: 'Asha Verma', wishlist: [] });
  });
});
