import { useRouteLoaderData } from 'react-router';
import type { loader as rootLoader } from '../root.tsx';

/**
 * What the root loader gives every page: site configuration, EMI terms, and on a personal page
 * the person (`personal`). Read the person through usePersonal() (use-personal.ts): a shared page's
 * root data does not know them.
 */
export function useRootData() {
  const data = useRouteLoaderData<typeof rootLoader>('root');
  if (!data) throw new Error('Root data missing');
  return data;
}
