import { redirect } from 'react-router';
import type { Auth } from './auth.ts';
import type { AuthUser } from '../accounts/profiles.ts';
import { pageAddress, paths } from '../../app/lib/paths.ts';

export type SessionUser = AuthUser & { image: string | null };

/** The path prefix of the JSON API, the only place a bearer token counts (decision 074). */
export const API_V1_PREFIX = '/api/v1/';

/** Whether `request` carries `Authorization: Bearer …` (the app's token). */
export function hasBearerToken(request: Request): boolean {
  return /^bearer\s/i.test(request.headers.get('authorization') ?? '');
}

/**
 * The headers better-auth reads the session from. better-auth's bearer plugin turns an
 * `Authorization: Bearer` header into the session cookie wherever better-auth is asked, so
 * outside /api/v1 the header is dropped here: a page (or an admin page) only ever knows the
 * browser's cookie, whatever the edge lets through.
 */
function sessionHeaders(request: Request): Headers {
  if (!request.headers.has('authorization') || new URL(request.url).pathname.startsWith(API_V1_PREFIX)) return request.headers;
  const headers = new Headers(request.headers);
  headers.delete('authorization');
  return headers;
}

/** The signed-in person and the id of the session they came with (cookie or, on /api/v1, bearer token), or null. */
export async function currentSession(auth: Auth, request: Request): Promise<{ user: SessionUser; sessionId: string } | null> {
  const session = await auth.api.getSession({ headers: sessionHeaders(request) });
  if (!session) return null;
  return { user: sessionUser(session.user), sessionId: session.session.id };
}

/** The signed-in person for this request, or null. */
export async function currentUser(auth: Auth, request: Request): Promise<SessionUser | null> {
  return (await currentSession(auth, request))?.user ?? null;
}

type AuthUserRow = { id: string; email: string; name?: string | null; image?: string | null; emailVerified?: boolean | null; createdAt: Date };

/** better-auth's user as the app uses it. */
export function sessionUser(user: AuthUserRow): SessionUser {
  return {
    id: user.id,
    email: user.email,
    name: user.name ?? '',
    image: user.image ?? null,
    emailVerified: Boolean(user.emailVerified),
    createdAt: user.createdAt,
  };
}

/** For pages that need a signed-in person: everyone else goes to /login. */
export async function requireUser(auth: Auth, request: Request): Promise<SessionUser> {
  const user = await currentUser(auth, request);
  if (!user) {
    throw redirect(paths.loginThen(pageAddress(request.url)));
  }
  return user;
}

/** Copies better-auth's Set-Cookie headers onto a response of ours. */
export function forwardCookies(from: Headers, to: Headers = new Headers()): Headers {
  for (const cookie of from.getSetCookie()) to.append('Set-Cookie', cookie);
  return to;
}
