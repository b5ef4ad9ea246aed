import type { AppServices } from '../../services.ts';
import { rentalDeskText as t } from '../../../app/features/rentals/rental-desk-texts.ts';
import { adminStatus } from '../../auth/admins.ts';
import { currentUser } from '../../auth/session.ts';
import { parseId } from '../../../app/lib/input.ts';
import { readChecklistPhoto } from '../checklists.ts';
import { privateImageResponse } from '../../http/private-image.ts';

/** Every refusal looks the same: a stranger cannot tell a photo that exists from one that does not. */
function notFound(): Response {
  return new Response(t('notFound'), { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });
}

/**
 * One handover or return photo, for the booking's renter and the admins only; everyone else
 * (signed out, another renter) gets the same 404 as for a photo that does not exist. Never
 * cached by anyone but the viewer's own browser, never shown in another site's page.
 */
export async function checklistPhotoResponse(
  services: AppServices,
  request: Request,
  params: { bookingId?: string | undefined; photoId?: string | undefined },
): Promise<Response> {
  const bookingId = parseId(params.bookingId);
  const photoId = params.photoId ?? '';
  if (bookingId === null || !photoId || photoId.length > 100) return notFound();
  const viewer = await currentUser(services.auth, request);
  if (!viewer) return notFound();
  const photo = await readChecklistPhoto(services, { bookingId, photoId, thumb: new URL(request.url).searchParams.get('size') === 'thumb' });
  if (!photo) return notFound();
  if (photo.userId !== viewer.id && (await adminStatus(services.config, services.database, viewer)) !== 'admin') return notFound();
  const file = await photo.open();
  if (!file) return notFound();
  return privateImageResponse(file);
}
