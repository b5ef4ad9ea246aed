import type { Context, Hono } from 'hono';
import type { z } from 'zod';
import { salesText as t } from '../../../app/features/sales/sales-texts.ts';
import { currentUser } from '../../auth/session.ts';
import { purchaseListSchema } from '../../http/api-answers.ts';
import { describeRoute } from '../../http/openapi.ts';
import { problem, problemFromError } from '../../http/problem.ts';
import type { AppServices } from '../../services.ts';
import { purchasesOfBuyer } from '../rc-transfers.ts';

/**
 * The person's purchases with their registration transfers in the JSON API (decision 117): the
 * app shows where each RC stands, as the profile does. A cancelled sale is not listed; anyone
 * else's sale never is.
 */
export function purchasesApi(api: Hono, services: AppServices) {
  const notSignedIn = (c: Context) => problem(c, 401, t('signInFirst'));

  api.get(
    '/me/sales',
    describeRoute({
      tag: 'Account',
      summary: 'My purchases: the cars I bought and where each registration (RC) transfer stands',
      description: 'Newest first. Each step has the date the dealer recorded it; the buyer is also told by mail and SMS at each step.',
      auth: true,
      ok: { status: 200, schema: purchaseListSchema, description: 'Newest first.' },
    }),
    async (c) => {
      const user = await currentUser(services.auth, c.req.raw);
      if (!user) return notSignedIn(c);
      try {
        const purchases = await purchasesOfBuyer(services.database, user.id);
        const items = purchases.map(({ saleId, car, registration, invoiceNumber, invoiceDate, transfer }) => ({
          saleId,
          car,
          registration,
          invoiceNumber,
          invoiceDate,
          transfer: {
            // A listed sale is recorded, so its transfer is never closed.
            state: transfer.state === 'closed' ? 'sold' : transfer.state,
            next: transfer.next,
            steps: transfer.steps.map(({ step, doneMs }) => ({ step, doneAt: doneMs === null ? null : new Date(doneMs).toISOString() })),
            applicationNumber: transfer.applicationNumber,
            feePaise: transfer.feePaise,
            feeReceipt: transfer.feeReceipt,
            newRegistration: transfer.newRegistration,
            form35Needed: transfer.form35Needed,
            form28Needed: transfer.form28Needed,
          },
        }));
        return c.json({ items } satisfies z.input<typeof purchaseListSchema>, 200, { 'Cache-Control': 'no-store' });
      } catch (error) {
        return problemFromError(c, error, services.logger, { fallback: t('saleNotFound'), log: 'api: purchases list failed' });
      }
    },
  );
}
