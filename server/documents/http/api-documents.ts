import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { salesText as t } from '../../../app/features/sales/sales-texts.ts';
import { parseId } from '../../../app/lib/input.ts';
import { documentListSchema } from '../../http/api-answers.ts';
import { currentUser } from '../../auth/session.ts';
import { describeRoute } from '../../http/openapi.ts';
import { problem, problemFromError } from '../../http/problem.ts';
import type { AppServices } from '../../services.ts';
import { documentsOfUser, openDocument } from '../documents.ts';
import { documentDownload } from './document-download.ts';

/** The person's own documents in the JSON API (decision 114): the list, and each PDF. Anyone else's is 404. */
export function documentsApi(api: Hono, services: AppServices) {
  const signedIn = async (c: Context) => currentUser(services.auth, c.req.raw);
  const notSignedIn = (c: Context) => problem(c, 401, t('signInFirst'));
  const fail = (c: Context, error: unknown, log: string) => problemFromError(c, error, services.logger, { fallback: t('documentNotFound'), log });

  api.get(
    '/me/documents',
    describeRoute({
      tag: 'Account',
      summary: "My documents: the tax invoices, credit notes and delivery notes of cars I bought, and my rentals' agreements and tax invoices",
      auth: true,
      ok: { status: 200, schema: documentListSchema, description: 'Newest first.' },
    }),
    async (c) => {
      const user = await signedIn(c);
      if (!user) return notSignedIn(c);
      try {
        const items = await documentsOfUser(services.database, user.id);
        return c.json(
          { items: items.map(({ ownerKind: _kind, ownerId: _owner, ...document }) => document) } satisfies z.input<typeof documentListSchema>,
          200,
          {
            'Cache-Control': 'no-store',
          },
        );
      } catch (error) {
        return fail(c, error, 'api: documents list failed');
      }
    },
  );

  api.get(
    '/me/documents/:id',
    describeRoute({
      tag: 'Account',
      summary: 'One of my documents, as a PDF',
      description: "Anyone else's document answers 404, as one that does not exist.",
      auth: true,
      params: { id: 'The document id.' },
      ok: { status: 200, schema: z.string(), mediaType: 'application/pdf', description: 'The PDF as issued.' },
      refusals: { 404: '' },
    }),
    async (c) => {
      const user = await signedIn(c);
      if (!user) return notSignedIn(c);
      const id = parseId(c.req.param('id'));
      try {
        const opened = id === null ? null : await openDocument(services, id, { userId: user.id });
        if (!opened) return problem(c, 404, t('documentNotFound'));
        return documentDownload(opened);
      } catch (error) {
        return fail(c, error, 'api: document download failed');
      }
    },
  );
}
