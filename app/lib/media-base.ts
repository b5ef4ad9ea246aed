import { useRouteLoaderData } from 'react-router';
import type { PublicConfig } from './public-config.ts';

/**
 * Where this page links public photos: '' for the site's own `/media/`, or MEDIA_PUBLIC_BASE_URL
 * (a CDN in front of the bucket). Read from the root loader's data, so the server's HTML and the
 * hydrating browser agree.
 */
export function useMediaBase(): string {
  return useRouteLoaderData<{ site: PublicConfig }>('root')?.site.mediaBaseUrl ?? '';
}
