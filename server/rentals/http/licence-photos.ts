import type { AppServices } from '../../services.ts';
import { rentalDeskText as t } from '../../../app/features/rentals/rental-desk-texts.ts';
import { adminStatus } from '../../auth/admins.ts';
import { currentUser } from '../../auth/session.ts';
import { readLicencePhoto } from '../licences.ts';
import { ServiceUnavailableError } from '../../errors.ts';
import type { LicenceSide } from '../../../app/features/rentals/licence.ts';

/** Every refusal looks the same: a stranger cannot tell a licence that exists from one that does not. */
function notFound(): Response {
  return new Response(t('notFound'), { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });
}

/**
 * One side of a driving licence, for its owner and the admins only; everyone else (signed out,
 * another customer) gets the same 404 as for a licence that does not exist. Never cached by
 * anyone but the viewer's own browser, never shown in another site's page.
 */
export async function licencePhotoResponse(
  services: AppServices,
  request: Request,
  params: { userId?: string | undefined; side?: string | undefined },
): Promise<Response> {
  const side = params.side === 'front' || params.side === 'back' ? (params.side as LicenceSide) : null;
  const userId = params.userId ?? '';
  if (!side || !userId || userId.length > 200) return notFound();
  const viewer = await currentUser(services.auth, request);
  if (!viewer) return notFound();
  if (viewer.id !== userId && (await adminStatus(services.config, services.database, viewer)) !== 'admin') return notFound();
  let photo: Awaited<ReturnType<typeof readLicencePhoto>>;
  try {
    photo = await readLicencePhoto(services, { userId, side });
  } catch (error) {
    if (!(error instanceof ServiceUnavailableError)) throw error;
    return new Response(error.message, {
      status: 503,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', 'Retry-After': '30' },
    });
  }
  if (!photo) return notFound();
  return new Response(photo.body, {
    headers: {
      'Content-Type': 'image/webp',
      'Content-Length': String(photo.size),
      'Cache-Control': 'private, no-store',
      'Content-Disposition': 'inline',
      'Cross-Origin-Resource-Policy': 'same-origin',
      Vary: 'Cookie',
    },
  });
}
