import { checklistPhotoResponse } from '../../server/rentals/http/checklist-photos.ts';
import { appContext } from '../context.ts';
import type { Route } from './+types/rental-photo';

/** A handover or return photo: the booking's renter and the admins only (server/rentals/http/checklist-photos.ts). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  return checklistPhotoResponse(context.get(appContext), request, params);
}
