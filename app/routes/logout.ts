import { redirect } from 'react-router';
import { signOut } from '../../server/auth/flows.ts';
import { appContext } from '../context.ts';
import type { Route } from './+types/logout';
import { paths } from '../lib/paths.ts';

export async function action({ request, context }: Route.ActionArgs) {
  const headers = await signOut(context.get(appContext), request);
  throw redirect(paths.home, { headers });
}

export function loader() {
  throw redirect(paths.home);
}
