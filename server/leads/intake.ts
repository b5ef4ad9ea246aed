import {
  leadMessages,
  MAX_SELL_IMAGES,
  parseRequestForm,
  parseSellForm,
  requestSchema,
  sellSchema,
  type RequestInput,
  type SellInput,
} from '../../app/lib/lead-forms.ts';
import { ForbiddenError, InvalidInputError, RateLimitedError } from '../errors.ts';
import type { Upload } from '../media/images.ts';
import type { RequestContext } from '../services.ts';
import { consumeLeadFormLimit, passesLeadBotCheck, type LeadProof } from './form-guard.ts';
import type { LeadKind } from './leads.ts';
import { queueNewLeadAlerts } from './notify.ts';
import { settingsFor } from '../admin/settings.ts';
import { createVehicleRequest } from './requests.ts';
import { createSellSubmission, sellImageUrls } from './sell.ts';
import { estimateForSeller } from './sell-estimates.ts';
import { estimateLine } from './sell-estimate.ts';
import type { SellCar } from '../../app/features/sell/estimate-schemas.ts';
import { inLanguage } from '../i18n.ts';
import { canonicalPhoneField } from '../phone.ts';

/**
 * How a lead from the public forms comes in, whichever form sent it (Request a Vehicle, Sell
 * Your Vehicle): the visitor's rate limit, the bot check, the save, the admin's mail. The
 * route actions and the API read the post with the forms' shared rules (app/lib/lead-forms.ts)
 * and the server's phone rule (parseRequestLead, parseSellLead); this takes the parsed lead and
 * refuses with the error vocabulary (server/errors.ts).
 */

type IntakeServices = Pick<
  RequestContext,
  'database' | 'storage' | 'logger' | 'config' | 'mailer' | 'botCheck' | 'clientAddress' | 'clock' | 'settingsCache' | 'jobs'
>;

export type IncomingRequest = { kind: 'request'; input: RequestInput };
/** `car`: the seller's car from the estimate step, when they took it; its estimate is worked out again and kept with the lead. */
export type IncomingSell = { kind: 'sell'; input: SellInput; uploads: Upload[]; car?: SellCar | null };

export type SubmittedRequest = { kind: 'request'; id: number };
/** A saved sell submission: its photos' addresses for the chat, and whether the photos could not be stored. */
export type SubmittedSell = { kind: 'sell'; id: number; imageUrls: string[]; imagesFailed: boolean };

/** A lead's phone as the server reads it: the form's checks, then canonical E.164 or "Please enter a valid phone number". */
const leadPhone = canonicalPhoneField(requestSchema.shape.phone, () => leadMessages.phoneInvalid);
export const requestLeadSchema = requestSchema.extend({ phone: leadPhone });
export const sellLeadSchema = sellSchema.extend({ phone: leadPhone });

/**
 * The Request a Vehicle form (page or /api/v1) as the server reads it: the shared rules, with
 * the phone a valid Indian mobile kept in canonical E.164, whatever way it was typed.
 */
export function parseRequestLead(form: FormData | URLSearchParams) {
  return parseRequestForm(form, requestLeadSchema);
}

/** The Sell Your Vehicle form (page or /api/v1) as the server reads it, the phone as parseRequestLead's. */
export function parseSellLead(form: FormData | URLSearchParams) {
  return parseSellForm(form, sellLeadSchema);
}

/**
 * Counts this post against the visitor's limit for the form (rateLimits.publicForm). Called
 * before a byte of the body is read: an address over its limit costs no memory or disk.
 */
export async function admitLead(services: Pick<RequestContext, 'database' | 'clientAddress' | 'clock'>, kind: LeadKind): Promise<void> {
  const limit = await consumeLeadFormLimit(services, kind);
  if (!limit.allowed) throw new RateLimitedError(leadMessages.tooManySubmissions(Math.ceil(limit.retryAfterSeconds / 60)), limit.retryAfterSeconds);
}

/**
 * The bot check, then the save with the admin's mail queued in its transaction; the worker
 * sends it without the visitor waiting. Refusals: InvalidInputError (a photo: too many, or refused by its content,
 * with the `images` field's message), ForbiddenError (the bot check failed). Anything else
 * is a failure on our side.
 */
export async function submitLead(services: IntakeServices, lead: IncomingRequest, proof: LeadProof): Promise<SubmittedRequest>;
export async function submitLead(services: IntakeServices, lead: IncomingSell, proof: LeadProof): Promise<SubmittedSell>;
export async function submitLead(services: IntakeServices, lead: IncomingRequest | IncomingSell, proof: LeadProof): Promise<SubmittedRequest | SubmittedSell> {
  if (lead.kind === 'sell' && lead.uploads.length > MAX_SELL_IMAGES)
    throw new InvalidInputError(leadMessages.tooManyImages, { images: leadMessages.tooManyImages });
  if (!(await passesLeadBotCheck(services, proof, lead.kind))) throw new ForbiddenError(leadMessages.botCheckFailed);

  const settings = await settingsFor(services);
  if (lead.kind === 'request') {
    const { id } = await services.database.db.transaction().execute(async (trx) => {
      const saved = await createVehicleRequest({ ...services.database, db: trx }, lead.input, new Date(services.clock.now()));
      await queueNewLeadAlerts(trx, services, settings, { kind: 'request', id: saved.id, ...lead.input });
      return saved;
    });
    services.jobs.wake();
    return { kind: 'request', id };
  }
  // Kept with the lead for the desk (its pages and the new-lead mail): worded in English.
  const valuation = lead.car ? { car: lead.car, estimate: await inLanguage('en', () => estimateForSeller(services, settings, lead.car!)) } : null;
  const { submission, imagesFailed } = await createSellSubmission(
    services,
    lead.input,
    lead.uploads,
    new Date(services.clock.now()),
    (trx, saved) =>
      queueNewLeadAlerts(trx, services, settings, {
        kind: 'sell',
        id: saved.id,
        ...lead.input,
        imageUrls: sellImageUrls(services.config.siteOrigin, saved.images),
        estimate: valuation ? estimateLine(valuation.estimate) : null,
      }).then(() => {}),
    valuation,
  );
  services.jobs.wake();
  const imageUrls = sellImageUrls(services.config.siteOrigin, submission.images);
  return { kind: 'sell', id: submission.id, imageUrls, imagesFailed };
}
