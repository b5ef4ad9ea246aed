import { RcTimeline } from './rc-transfer-section.tsx';
import type { RcTransferView } from './rc-transfer-rules.ts';
import { salesText as t } from './sales-texts.ts';

/** A car the person bought, with its registration transfer. */
export type MyRcTransfer = { saleId: number; car: string; registration: string; invoiceNumber: string; transfer: RcTransferView };

/** The registration transfer of each car the person bought (decision 117): every step and its date, next to their documents. */
export function MyRcTransfers({ purchases }: { purchases: readonly MyRcTransfer[] }) {
  if (purchases.length === 0) return null;
  return (
    <section id="rc-transfers" aria-labelledby="my-rc-transfers" className="mt-8 border-t border-slate-200 pt-6">
      <h2 id="my-rc-transfers" className="text-lg font-bold">
        {t('myRcTransfers')}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{t('myRcIntro')}</p>
      <ul className="mt-3 flex flex-col gap-4">
        {purchases.map((purchase) => (
          <li key={purchase.saleId} className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
            <p className="break-words font-semibold">
              {purchase.car} · {purchase.registration}
            </p>
            <p className="text-sm text-slate-600">{purchase.invoiceNumber}</p>
            {purchase.transfer.state === 'delivered' ? <p className="mt-1 text-sm font-semibold text-green-700">{t('rcComplete')}</p> : null}
            <RcTimeline transfer={purchase.transfer} showWho={false} />
          </li>
        ))}
      </ul>
    </section>
  );
}
