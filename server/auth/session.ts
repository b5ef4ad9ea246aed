import { redirect } from 'react-router';
import type { Auth } from './auth.ts';
import type { AuthUser } from '../accounts/profiles.ts';
import { paths } from '../../app/lib/paths.ts';

export type SessionUser = AuthUser & { image: string | null };

/** The signed-in person for this request, or null. */
export async function currentUser(auth: Auth, request: Request): Promise<SessionUser | null> {
  const session = await auth.api.getSession({ headers: request.headers });
  if (!session) return null;
  const { user } = session;
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
    const url = new URL(request.url);
    throw redirect(paths.loginThen(url.pathname + url.search));
  }
  return user;
}

/** Copies better-auth's Set-Cookie headers onto a response of ours. */
export function forwardCookies(from: Headers, to: Headers = new Headers()): Headers {
  for (const cookie of from.getSetCookie()) to.append('Set-Cookie', cookie);
  return to;
}
