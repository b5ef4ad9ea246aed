import type { Context, Hono } from 'hono';
import type { z } from 'zod';
import { saleCancelSchema, saleFormSchema } from '../../../app/features/sales/schemas.ts';
import { salesText as t } from '../../../app/features/sales/sales-texts.ts';
import { parseId } from '../../../app/lib/input.ts';
import { parseWith } from '../../../app/lib/form-errors.ts';
import { deskAdmin } from '../../admin/desk-api-guard.ts';
import { deskSaleAnswerSchema } from '../../http/api-answers.ts';
import { jsonObjectBody } from '../../http/json-body.ts';
import { describeRoute } from '../../http/openapi.ts';
import { problem, problemFromError } from '../../http/problem.ts';
import type { AppServices } from '../../services.ts';
import type { IssuedDocument } from '../../documents/documents.ts';
import type { Sale } from '../store.ts';
import { cancelSale, recordSale, saleWithDocuments } from '../sales.ts';

/**
 * The desk's sales in the JSON API (decision 120): the same services and the same schema as the
 * desk's pages, so a refusal reads the same on the page (beside its field) and here (problem+json
 * with `reason` and `fields`). An admin's site session only; see deskAdmin.
 */

const NO_STORE = { 'Cache-Control': 'no-store' };

function deskView(sale: Sale, documents: IssuedDocument[]): z.input<typeof deskSaleAnswerSchema> {
  const { userId: _user, dealer: _dealer, recordedBy: _by, createdAt: _at, cancelledAt: _cancelledAt, ...shown } = sale;
  return { sale: { ...shown, documents: documents.map(({ ownerKind: _kind, ownerId: _owner, ...document }) => document) } };
}

export function deskSalesApi(api: Hono, services: AppServices) {
  const fail = (c: Context, error: unknown, log: string) => problemFromError(c, error, services.logger, { fallback: t('saleFailed'), log });
  const notJson = (c: Context) => problem(c, 400, t('apiBodyNotJson'));
  const refusals = {
    400: 'A value is missing or has the wrong shape (`fields` names each); no GSTIN in the settings (`reason` dealer-gstin-missing); a PAN missing above the limit; amounts that do not add up.',
    404: 'No such car, or it is not for sale; no such reservation.',
    409: 'The car is sold (`reason` sold) or reserved by a buyer (`reserved`), or the reservation is not active (`reservation-not-active`).',
  } as const;

  api.post(
    '/admin/sales',
    describeRoute({
      tag: 'Desk',
      auth: 'desk',
      summary: 'Record a sale: the tax invoice is numbered in the same transaction',
      description:
        'A walk-in (`vehicleId`) or a buyer’s reservation (`reservationId`, whose token counts towards the price). Amounts are rupees as typed ("6,50,000"), answered in paise. The car is sold once: a second sale answers 409.',
      body: { kind: 'json', schema: saleFormSchema },
      ok: { status: 201, schema: deskSaleAnswerSchema, description: 'Recorded; its tax invoice is made by a job, or on first download.' },
      refusals,
    }),
    async (c) => {
      const admin = await deskAdmin(services, c);
      if (admin instanceof Response) return admin;
      const body = await jsonObjectBody(c.req.raw);
      if (!body) return notJson(c);
      const parsed = parseWith(saleFormSchema, body);
      if (!parsed.ok) return problem(c, 400, parsed.error, { fields: parsed.fields });
      try {
        const sale = await recordSale(services, { ...parsed.value, actorEmail: admin.email });
        return c.json(deskView(sale, []), 201, NO_STORE);
      } catch (error) {
        return fail(c, error, 'api: recording a sale failed');
      }
    },
  );

  api.get(
    '/admin/sales/:id',
    describeRoute({
      tag: 'Desk',
      auth: 'desk',
      summary: 'A sale, with its documents',
      params: { id: 'The sale id.' },
      ok: { status: 200, schema: deskSaleAnswerSchema, description: 'The sale as its invoice says it.' },
      refusals: { 404: '' },
    }),
    async (c) => {
      const admin = await deskAdmin(services, c);
      if (admin instanceof Response) return admin;
      const id = parseId(c.req.param('id'));
      if (id === null) return problem(c, 404, t('saleNotFound'));
      try {
        const { sale, documents } = await saleWithDocuments(services, id);
        return c.json(deskView(sale, documents), 200, NO_STORE);
      } catch (error) {
        return fail(c, error, 'api: reading a sale failed');
      }
    },
  );

  api.post(
    '/admin/sales/:id/cancel',
    describeRoute({
      tag: 'Desk',
      auth: 'desk',
      summary: 'Cancel a sale by a credit note for its whole value; the car is back in stock',
      params: { id: 'The sale id.' },
      body: { kind: 'json', schema: saleCancelSchema },
      ok: { status: 200, schema: deskSaleAnswerSchema, description: 'Cancelled, with its credit note number.' },
      refusals: { 400: 'No reason given.', 404: '', 409: 'Already cancelled (`reason` cancelled).' },
    }),
    async (c) => {
      const admin = await deskAdmin(services, c);
      if (admin instanceof Response) return admin;
      const id = parseId(c.req.param('id'));
      if (id === null) return problem(c, 404, t('saleNotFound'));
      const body = await jsonObjectBody(c.req.raw);
      if (!body) return notJson(c);
      const parsed = parseWith(saleCancelSchema, body);
      if (!parsed.ok) return problem(c, 400, parsed.error, { fields: parsed.fields });
      try {
        const sale = await cancelSale(services, { saleId: id, reason: parsed.value.reason, actorEmail: admin.email });
        return c.json(deskView(sale, []), 200, NO_STORE);
      } catch (error) {
        return fail(c, error, 'api: cancelling a sale failed');
      }
    },
  );
}
