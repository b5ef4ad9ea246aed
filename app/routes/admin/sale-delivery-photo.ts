import { data } from 'react-router';
import { requireAdmin } from '../../../server/admin/guard.ts';
import { privateImageResponse } from '../../../server/http/private-image.ts';
import { openDeliveryPhoto } from '../../../server/sales/delivery-store.ts';
import { appContext } from '../../context.ts';
import { deliveryText as t } from '../../features/sales/delivery-texts.ts';
import { parseId } from '../../lib/input.ts';
import type { Route } from './+types/sale-delivery-photo';

/** A sold car's handover photo (decision 116), for the desk only: the private storage's file, never cached. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const services = context.get(appContext);
  await requireAdmin(services, request);
  const saleId = parseId(params.id);
  const thumb = new URL(request.url).searchParams.get('size') === 'thumb';
  const file = saleId === null ? null : await openDeliveryPhoto(services, { saleId, photoId: params.photoId, thumb });
  if (!file) throw data({ message: t('photoNotFound') }, { status: 404 });
  return privateImageResponse(file);
}
