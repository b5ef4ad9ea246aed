import { generateKeyPairSync, randomBytes, randomUUID, sign } from 'node:crypto';
import { OAuth2Server } from 'oauth2-mock-server';

/**
 * A local OpenID Connect provider standing in for Google (oauth2-mock-server with an RS256
 * key). Point the app at it with `env` (GOOGLE_ISSUER and the client credentials): the app
 * reads its discovery document, sends the browser to its /authorize, exchanges the code with
 * PKCE at its /token and verifies the signed ID token against its JWKS, exactly as with Google.
 *
 * Who signs in is chosen per authorization: `identity` is read when /authorize answers and
 * bound to that code, so the ID token (and /userinfo) carry that person's sub, email, name and
 * email_verified. `failNextAuthorization('access_denied')` makes the next /authorize send the
 * browser back with an error instead of a code, as Google does when consent is refused.
 */

export type GoogleIdentity = {
  sub: string;
  email: string;
  name: string;
  picture?: string;
  emailVerified?: boolean;
};

export type OidcProvider = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** GOOGLE_* variables for startTestServer's env. */
  env: Record<string, string>;
  /** The person who signs in at the next /authorize (and every later one until changed). */
  identity: GoogleIdentity;
  /** The next /authorize redirects back with `?error=<error>` and no code. */
  failNextAuthorization: (error: string, description?: string) => void;
  /** The next code exchange at /token is refused (invalid_grant). */
  failNextTokenExchange: () => void;
  /** Every /authorize request the provider received (query parameters), oldest first. */
  authorizations: URLSearchParams[];
  /**
   * An ID token as Google hands one to the Android app for `identity` (audience: the site's
   * client id), signed with the key the provider publishes at its JWKS; `change` alters its
   * claims (another audience, an expired one…) before signing.
   */
  idToken: (identity: GoogleIdentity, change?: (claims: Record<string, unknown>) => void) => Promise<string>;
  /** The same claims signed by a key the provider never published, under its key id: a forgery. */
  forgedIdToken: (identity: GoogleIdentity) => string;
  stop: () => Promise<void>;
};

/** A Google-like identity with a fresh subject. */
export function googleIdentity(email: string, name = 'Asha Verma'): GoogleIdentity {
  return { sub: String(100_000_000_000_000_000_000n + BigInt(`0x${randomBytes(8).toString('hex')}`)), email, name, emailVerified: true };
}

function claimsOf(identity: GoogleIdentity): Record<string, unknown> {
  return {
    sub: identity.sub,
    email: identity.email,
    email_verified: identity.emailVerified ?? true,
    name: identity.name,
    ...(identity.picture ? { picture: identity.picture } : {}),
  };
}

function jwtPayload(token: string): Record<string, unknown> | null {
  try {
    return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return null;
  }
}

export async function startOidcProvider(): Promise<OidcProvider> {
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  await server.start(0, '127.0.0.1');
  // The library names the issuer after 'localhost'; the address it listens on is unambiguous.
  const address = server.address();
  server.issuer.url = `http://127.0.0.1:${address.port}`;
  const issuer = server.issuer.url;
  const clientId = `gaadi-test-${randomUUID()}.apps.googleusercontent.com`;
  const clientSecret = `GOCSPX-${randomBytes(18).toString('base64url')}`;
  const byCode = new Map<string, GoogleIdentity>();
  const authorizations: URLSearchParams[] = [];
  let nextError: { error: string; description?: string } | null = null;
  let failToken = false;

  const provider: OidcProvider = {
    issuer,
    clientId,
    clientSecret,
    env: { GOOGLE_CLIENT_ID: clientId, GOOGLE_CLIENT_SECRET: clientSecret, GOOGLE_ISSUER: issuer },
    identity: googleIdentity('someone@gmail.com'),
    failNextAuthorization: (error, description) => {
      nextError = { error, ...(description ? { description } : {}) };
    },
    failNextTokenExchange: () => {
      failToken = true;
    },
    authorizations,
    idToken: (identity, change) =>
      server.issuer.buildToken({
        scopesOrTransform: (_header, payload) => {
          Object.assign(payload, { aud: clientId, azp: `android-${clientId}`, ...claimsOf(identity) });
          change?.(payload);
        },
      }),
    forgedIdToken: (identity) => {
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const kid = (server.issuer.keys.toJSON()[0] as { kid?: string } | undefined)?.kid;
      const now = Math.floor(Date.now() / 1000);
      const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const signingInput = `${encode({ alg: 'RS256', typ: 'JWT', kid })}.${encode({ iss: issuer, aud: clientId, iat: now, exp: now + 3600, ...claimsOf(identity) })}`;
      return `${signingInput}.${sign('sha256', Buffer.from(signingInput), privateKey).toString('base64url')}`;
    },
    stop: () => server.stop(),
  };

  const service = server.service;
  service.on('beforeAuthorizeRedirect', (redirect: { url: URL }, req: { url?: string }) => {
    authorizations.push(new URL(req.url ?? '/', issuer).searchParams);
    const code = redirect.url.searchParams.get('code');
    if (nextError) {
      // What Google does when the person presses Cancel on the consent screen.
      redirect.url.searchParams.delete('code');
      redirect.url.searchParams.set('error', nextError.error);
      if (nextError.description) redirect.url.searchParams.set('error_description', nextError.description);
      nextError = null;
      return;
    }
    if (code) byCode.set(code, { ...provider.identity });
  });
  service.on('beforeResponse', (response: { body: unknown; statusCode: number }) => {
    if (!failToken) return;
    failToken = false;
    response.body = { error: 'invalid_grant', error_description: 'Bad Request' };
    response.statusCode = 400;
  });
  // Both the access token and the ID token of a code exchange carry the person's claims.
  service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }, req: { body?: { code?: string } }) => {
    const code = req.body?.code;
    const identity = code ? byCode.get(code) : undefined;
    if (identity) Object.assign(token.payload, claimsOf(identity));
  });
  service.on('beforeUserinfo', (response: { body: unknown; statusCode: number }, req: { headers: Record<string, string | string[] | undefined> }) => {
    const header = req.headers.authorization;
    const bearer = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7) : '';
    const payload = jwtPayload(bearer);
    if (payload && typeof payload.email === 'string') {
      response.body = {
        sub: payload.sub,
        email: payload.email,
        email_verified: payload.email_verified,
        name: payload.name,
        ...(payload.picture ? { picture: payload.picture } : {}),
      };
    }
  });

  return provider;
}
