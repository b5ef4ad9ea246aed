import { useRouteLoaderData } from 'react-router';
import type { loader as rootLoader } from '../root.tsx';

/** What the root loader gives every page: site configuration, sign-in, wishlist ids, EMI terms. */
export function useRootData() {
  const data = useRouteLoaderData<typeof rootLoader>('root');
  if (!data) throw new Error('Root data missing');
  return data;
}
