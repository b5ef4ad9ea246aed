import { licencePhotoResponse } from '../../server/rentals/http/licence-photos.ts';
import { appContext } from '../context.ts';
import type { Route } from './+types/licence-photo';

/** A driving-licence photo: its owner and the admins only (server/rentals/http/licence-photos.ts). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  return licencePhotoResponse(context.get(appContext), request, params);
}
