import { Link } from 'react-router';
import { primaryButton } from '../../components/form.tsx';
import { adminPaths } from '../../lib/paths.ts';
import type { DeliverySummary } from './delivery.ts';
import { deliveryText as t } from './delivery-texts.ts';

/**
 * The delivery's section of a sale's desk page (decision 116): what was handed over and who
 * signed, or the way to the handover form while the sale is recorded and the car not handed over.
 * The delivery note itself is listed with the sale's documents.
 */
export function SaleDeliverySection({ saleId, recorded, delivery }: { saleId: number; recorded: boolean; delivery: DeliverySummary | null }) {
  if (!delivery && !recorded) return null;
  return (
    <section aria-labelledby="sale-delivery" className="w-full max-w-2xl rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <h2 id="sale-delivery" className="text-lg font-bold">
        {t('deliverySection')}
      </h2>
      {delivery ? (
        <div className="mt-2 flex flex-col gap-2 text-sm">
          <p>
            {t('deliveredSummary', { time: delivery.handedOverAt, admin: delivery.deliveredBy, km: delivery.km, fuel: delivery.fuel, keys: delivery.keys })}
          </p>
          <p>
            <span className="text-slate-600">{t('documentsHandedOver')}:</span>{' '}
            {delivery.documents.length > 0 ? delivery.documents.join(', ') : t('noDocumentsHandedOver')}
          </p>
          <p>
            {t('signedBy', {
              name: delivery.signerName,
              time: delivery.handedOverAt,
              how: t(delivery.signature === 'drawn' ? 'signedDrawn' : 'signedTyped'),
            })}
          </p>
          {delivery.photos.length > 0 ? (
            <>
              <h3 className="font-semibold">{t('handoverPhotos')}</h3>
              <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3">
                {delivery.photos.map((photo) => (
                  <li key={photo.id}>
                    <a
                      href={adminPaths.saleDeliveryPhoto(saleId, photo.id)}
                      target="_blank"
                      rel="noopener"
                      className="block overflow-hidden rounded-lg ring-1 ring-slate-200"
                    >
                      <img
                        src={adminPaths.saleDeliveryPhoto(saleId, photo.id, 'thumb')}
                        alt={photo.label}
                        loading="lazy"
                        width={160}
                        height={120}
                        className="aspect-[4/3] w-full bg-slate-100 object-cover"
                      />
                    </a>
                    <p className="mt-1 text-xs text-slate-600">{photo.label}</p>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </div>
      ) : (
        <div className="mt-2 flex flex-col gap-3">
          <p className="text-sm text-slate-600">{t('notDelivered')}</p>
          <Link to={adminPaths.saleDelivery(saleId)} className={`${primaryButton} self-start`}>
            {t('handOverLink')}
          </Link>
        </div>
      )}
    </section>
  );
}
