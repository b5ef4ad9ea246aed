import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { sellText } from '../../../app/features/sell/sell-texts.ts';
import { formsText } from '../../../app/lib/i18n/forms.ts';
import { leadMessages, MAX_SELL_IMAGES, requestFailed, requestSent } from '../../../app/lib/lead-forms.ts';
import { sellOfferSentSchema, vehicleRequestSentSchema } from '../../http/api-answers.ts';
import { sellChatLink } from '../../../app/features/sell/sell-chat.ts';
import { imageTooLarge, MAX_IMAGE_BYTES } from '../../../app/lib/uploads.ts';
import { readFormOrJson, uploadsFrom, uploadTempDir, withUploadForm } from '../../http/forms.ts';
import { describeRoute } from '../../http/openapi.ts';
import { problem, problemFromError } from '../../http/problem.ts';
import type { AppServices } from '../../services.ts';
import { admitLead, parseRequestLead, parseSellLead, requestLeadSchema, sellLeadSchema, submitLead } from '../intake.ts';
import type { LeadProof } from '../form-guard.ts';

const NO_STORE = { 'Cache-Control': 'no-store' };
const sellFailed = () => sellText('notSavedTryLater', { notSaved: leadMessages.sellNotSaved });

/** The app proves a person sent the lead by the solved bot check alone; the page's no-script form token is the page's. */
function botCheckOf(form: FormData): LeadProof {
  const botCheck = form.get('botCheck');
  return { botCheck: typeof botCheck === 'string' && botCheck !== '' ? botCheck : null, formToken: null };
}

/** The first message leads; every field's own message is in `fields`. */
function invalid(c: Context, errors: Record<string, string | undefined>) {
  const fields = Object.fromEntries(Object.entries(errors).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return problem(c, 400, Object.values(fields)[0] ?? formsText('checkInput'), { fields });
}

const botCheckField = z.string().meta({
  description: 'The solved bot check (GET /api/bot-check/challenge?action=REQUEST_FORM, or SELL_FORM for a sell offer). Each solution is accepted once.',
});

/**
 * Request a Vehicle and Sell Your Vehicle from the app (/api/v1), open to everyone as the pages
 * are: the same rate limit per address (counted before the body is read), schema, bot check and
 * save, with the dealer's mail queued in the save's transaction (server/leads/intake.ts).
 * `addressOf` keys the rate limits as the pages do.
 */
export function leadsApi(api: Hono, services: AppServices, addressOf: (c: Context) => string) {
  const { config, logger } = services;

  const request = describeRoute({
    tag: 'Leads',
    summary: 'Request a car the dealer does not list (Request a Vehicle)',
    description:
      'JSON or a form, with the fields and messages of the Request a Vehicle page. 403 when the bot check is missing, wrong or already used. At most 10 an hour from one network (429 with `Retry-After`).',
    body: { kind: 'form', schema: requestLeadSchema.extend({ botCheck: botCheckField }) },
    ok: { status: 201, schema: vehicleRequestSentSchema, description: 'Received; the dealer is told by mail.' },
    refusals: { 400: '', 429: '' },
  });
  api.post('/vehicle-requests', request, async (c) => {
    const lead = { ...services, clientAddress: addressOf(c) };
    try {
      await admitLead(lead, 'request');
      const form = await readFormOrJson(c.req.raw);
      const parsed = parseRequestLead(form);
      if (!parsed.ok) return invalid(c, parsed.errors);
      await submitLead(lead, { kind: 'request', input: parsed.data }, botCheckOf(form));
      return c.json({ sent: true, message: requestSent() } satisfies z.input<typeof vehicleRequestSentSchema>, 201, NO_STORE);
    } catch (error) {
      return problemFromError(c, error, logger, { fallback: requestFailed(), log: 'request api: the request could not be saved' });
    }
  });

  const photo = z.file().max(MAX_IMAGE_BYTES).meta({ description: 'A photo of the car (JPEG, PNG, WebP or HEIC), checked by its content, not its name.' });
  const sell = describeRoute({
    tag: 'Leads',
    summary: 'Offer my car to the dealer (Sell Your Vehicle), with photos',
    description: `Multipart, with the fields and messages of the Sell Your Vehicle page and up to ${MAX_SELL_IMAGES} photos in \`images\` (15 MB each, 60 MB in all). 403 when the bot check is missing, wrong or already used. At most 10 an hour from one network (429 with \`Retry-After\`). The answer carries the WhatsApp chat the site opens next.`,
    body: { kind: 'multipart', schema: sellLeadSchema.extend({ botCheck: botCheckField, images: z.array(photo).max(MAX_SELL_IMAGES).optional() }) },
    ok: { status: 201, schema: sellOfferSentSchema, description: 'Saved; the dealer is told by mail.' },
    refusals: { 400: 'The input was refused: a field, or a photo (`fields.images`): too many, too large or not a photo.', 413: '', 429: '' },
  });
  api.post('/sell-offers', sell, async (c) => {
    const lead = { ...services, clientAddress: addressOf(c) };
    const failed = (error: unknown) => problemFromError(c, error, logger, { fallback: sellFailed(), log: 'sell api: the offer could not be saved' });
    try {
      await admitLead(lead, 'sell');
    } catch (error) {
      await c.req.raw.body?.cancel().catch(() => {});
      return failed(error);
    }
    try {
      return await withUploadForm(
        c.req.raw,
        {
          tempDir: uploadTempDir(config.dataDir),
          maxFiles: MAX_SELL_IMAGES,
          messages: { tooLarge: leadMessages.formTooLarge, tooManyFiles: leadMessages.tooManyImages, fileTooLarge: imageTooLarge() },
        },
        async (upload) => {
          const parsed = parseSellLead(upload.fields);
          if (!parsed.ok) return invalid(c, parsed.errors);
          try {
            const saved = await submitLead(lead, { kind: 'sell', input: parsed.data, uploads: uploadsFrom(upload, 'images') }, botCheckOf(upload.fields));
            const chatUrl = sellChatLink(config.whatsappNumber, parsed.data, saved.imageUrls);
            return c.json(
              { sent: true, chatUrl, imageUrls: saved.imageUrls, imagesFailed: saved.imagesFailed } satisfies z.input<typeof sellOfferSentSchema>,
              201,
              NO_STORE,
            );
          } catch (error) {
            return failed(error);
          }
        },
        (error) => {
          const message = error.problem === 'file-too-large' ? `“${error.fileName || 'image'}”: ${error.message}` : error.message;
          return problem(
            c,
            error.status,
            message,
            error.problem === 'too-many-files' || error.problem === 'file-too-large' ? { fields: { images: message } } : {},
          );
        },
      );
    } catch (error) {
      return failed(error);
    }
  });
}
