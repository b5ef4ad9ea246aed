import type { MiddlewareHandler } from 'hono';
import { edgeRefusal } from './problem.ts';
import { MAX_SELL_UPLOAD_BYTES } from '../../app/lib/lead-forms.ts';
import { MAX_VEHICLE_IMAGES } from '../../app/lib/vehicle-schema.ts';
import { MAX_IMAGE_BYTES } from '../../app/lib/uploads.ts';
import { CHECKLIST_ITEMS, MAX_DAMAGE_NOTES } from '../../app/features/rentals/rental-checklist.ts';
import { adminPaths, matchPattern, pathPatterns, paths } from '../../app/lib/paths.ts';
import { errorsText as t } from '../../app/lib/i18n/errors.ts';
import { withoutLanguage } from '../../app/lib/i18n/language.ts';
import { WHATSAPP_WEBHOOK_PATH } from '../notify/whatsapp-graph.ts';

/** The Android app's licence upload (server/rentals/http/api-licence.ts). */
export const LICENCE_API_PATH = '/api/v1/me/licence';

/**
 * How large a request body may be, by the path it is sent to. One table for the whole server:
 * the edge refuses bodies over it before anything reads them, and the form readers
 * (server/http/forms.ts) take their limit from here too.
 */

/** Login, signup, settings, wishlist…: a few short fields. */
export const PLAIN_FORM_MAX_BYTES = 64 * 1024;
/** Forms with free text (a request's description, a lead's notes): 10 000 characters of Devanagari, URL-encoded. */
export const LONG_TEXT_FORM_MAX_BYTES = 256 * 1024;
/** Room for a multipart body's text fields and part headers beside the files. */
const FORM_OVERHEAD_BYTES = 1024 * 1024;

export type BodyClass = {
  maxBytes: number;
  /** Upload forms: files are streamed to disk, each at most `maxFileBytes`, at most `maxFiles` of them. */
  upload?: { maxFileBytes: number; maxFiles: number };
};

const plain: BodyClass = { maxBytes: PLAIN_FORM_MAX_BYTES };
const longText: BodyClass = { maxBytes: LONG_TEXT_FORM_MAX_BYTES };
const sellUpload: BodyClass = { maxBytes: MAX_SELL_UPLOAD_BYTES + FORM_OVERHEAD_BYTES, upload: { maxFileBytes: MAX_IMAGE_BYTES, maxFiles: 10 } };
const vehicleUpload: BodyClass = {
  maxBytes: MAX_VEHICLE_IMAGES * MAX_IMAGE_BYTES + FORM_OVERHEAD_BYTES,
  upload: { maxFileBytes: MAX_IMAGE_BYTES, maxFiles: MAX_VEHICLE_IMAGES },
};
/** A driving licence: photos of its two sides and two short fields. */
const licenceUpload: BodyClass = { maxBytes: 2 * MAX_IMAGE_BYTES + 64 * 1024, upload: { maxFileBytes: MAX_IMAGE_BYTES, maxFiles: 2 } };
/** A handover or return checklist (a rental's, a sold car's delivery): a photo of each side and the dashboard, and the damage notes' photos. */
const CHECKLIST_PHOTOS = CHECKLIST_ITEMS.length + MAX_DAMAGE_NOTES;
const checklistUpload: BodyClass = {
  maxBytes: CHECKLIST_PHOTOS * MAX_IMAGE_BYTES + FORM_OVERHEAD_BYTES,
  upload: { maxFileBytes: MAX_IMAGE_BYTES, maxFiles: CHECKLIST_PHOTOS },
};
/** Meta's WhatsApp notifications (decision 125): a few KB each, a batch of statuses well under this. */
export const WEBHOOK_MAX_BYTES = 1024 * 1024;
const webhook: BodyClass = { maxBytes: WEBHOOK_MAX_BYTES };
const categoryUpload: BodyClass = { maxBytes: MAX_IMAGE_BYTES + 64 * 1024, upload: { maxFileBytes: MAX_IMAGE_BYTES, maxFiles: 1 } };

/** Each class with the pages (paths or route patterns) whose forms post such bodies. */
const classes: Array<[string[], BodyClass]> = [
  [[paths.sellVehicle, '/api/v1/sell-offers'], sellUpload],
  [[paths.profileLicence, LICENCE_API_PATH], licenceUpload],
  // An inspection's photos go through the vehicle photos' pipeline and limits (decision 084).
  [[adminPaths.addVehicle, adminPaths.aliases.addVehicle, pathPatterns.adminEditVehicle, pathPatterns.adminInspection], vehicleUpload],
  [[adminPaths.categories, adminPaths.aliases.manageCategories, adminPaths.addCategory], categoryUpload],
  [[pathPatterns.adminRentalBooking, pathPatterns.adminSaleDelivery], checklistUpload],
  [[WHATSAPP_WEBHOOK_PATH], webhook],
  [[paths.requestVehicle, '/api/v1/vehicle-requests', adminPaths.sellingVehicles, adminPaths.aliases.sellingVehicles, adminPaths.requestedVehicles], longText],
];

/** The body class of a path; React Router's data requests (`/login.data`) count as their page. */
export function bodyClassFor(pathname: string): BodyClass {
  // A Hindi page (/hi/…, decision 087) takes the limits of its English twin.
  const page = withoutLanguage(pathname.replace(/\.data$/, '').replace(/\/+$/, '') || '/');
  for (const [pages, bodyClass] of classes) if (pages.some((pattern) => matchPattern(pattern, page))) return bodyClass;
  return plain;
}

/** Thrown by a body stream that went past its path's limit while it was being read. */
export class BodyTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The request body is larger than ${maxBytes} bytes.`);
  }
}

/**
 * Thrown by a body stream whose client sent nothing for longer than the idle limit: a body that
 * trickles in slower than that is answered 408, not held open (nginx's client_body_timeout).
 */
export class BodyTimeoutError extends Error {
  constructor(readonly idleMs: number) {
    super(`No part of the request body arrived for ${idleMs} ms.`);
  }
}

/** Why a body that stopped arriving is refused, in the request's language. */
export const bodyTimeoutMessage = () => t('bodyTimeout');

/** How long the edge waits for the next part of a body, by default: nginx's client_body_timeout. */
export const BODY_IDLE_TIMEOUT_MS = 60_000;

export function tooLargeMessage(maxBytes: number): string {
  const size = maxBytes >= 1024 * 1024 ? `${Math.floor(maxBytes / (1024 * 1024))} MB` : `${Math.floor(maxBytes / 1024)} KB`;
  return t('bodyTooLarge', { size });
}

/**
 * Passes a body through, failing it with BodyTooLargeError once more than `maxBytes` went by,
 * and with BodyTimeoutError when `idleMs` pass without a chunk while the reader waits for one.
 */
export function countedBody(body: ReadableStream<Uint8Array>, maxBytes: number, idleMs = Infinity): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let received = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const stalled = new Promise<'stalled'>((resolve) => {
          if (Number.isFinite(idleMs)) timer = setTimeout(() => resolve('stalled'), idleMs);
        });
        try {
          const next = await Promise.race([reader.read(), stalled]);
          if (next === 'stalled') {
            controller.error(new BodyTimeoutError(idleMs));
            await reader.cancel().catch(() => {});
          } else if (next.done) controller.close();
          else if ((received += next.value.byteLength) > maxBytes) {
            controller.error(new BodyTooLargeError(maxBytes));
            await reader.cancel().catch(() => {});
          } else controller.enqueue(next.value);
        } catch (error) {
          controller.error(error);
        } finally {
          clearTimeout(timer);
        }
      },
      cancel: (reason) => reader.cancel(reason),
    },
    // Reads only when asked: the idle limit measures the client, not a handler that has not started reading.
    { highWaterMark: 0 },
  );
}

/**
 * How much of a refused body is read and dropped before the answer (decision 041): nginx's
 * lingering-close figures (5 s without data, 30 s in all), and at most 64 MiB, a little over
 * the largest form's limit.
 */
export const DISCARD_LIMITS = { idleMs: 5_000, totalMs: 30_000, maxBytes: 64 * 1024 * 1024 };

/**
 * Reads `body` to its end and drops every chunk, within `limits`. Answering a client that is
 * still sending and closing the connection resets it, and a reset throws away the answer it
 * had not read yet: a phone uploading an oversize photo would see "connection reset" instead
 * of the message that says what was wrong. Past a limit it stops and the connection closes.
 */
export async function discardBody(body: ReadableStream<Uint8Array>, limits: typeof DISCARD_LIMITS): Promise<void> {
  const reader = body.getReader();
  // Real elapsed time against real timers, not the clock for rules (a test may move that one).
  const startedAt = performance.now();
  let bytes = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const idle = () =>
    new Promise<'idle'>((resolve) => (timer = setTimeout(() => resolve('idle'), Math.min(limits.idleMs, limits.totalMs - (performance.now() - startedAt)))));
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), idle()]);
      clearTimeout(timer);
      if (next === 'idle' || next.done) break;
      bytes += next.value.byteLength;
      if (bytes > limits.maxBytes) break;
    }
  } catch {
    // The client went away: nothing to answer.
  } finally {
    clearTimeout(timer);
    await reader.cancel().catch(() => {});
  }
}

/** A declared Content-Length over the limit, or null when it is absent, malformed or within. */
export function declaredTooLarge(headers: Headers, maxBytes: number): boolean {
  const declared = headers.get('content-length');
  return declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > maxBytes;
}

/**
 * The edge limit for every request with a body: a declared Content-Length over the path's
 * limit is answered 413 once its bytes are read and dropped (discardBody: nothing is kept, and
 * the answer is not lost to a reset, nor changed when they stop coming); any other body is counted
 * while whoever reads it reads, cut off at the limit, so no handler can be made to hold more,
 * and failed with BodyTimeoutError (408) when the client pauses longer than `idleMs`.
 */
export function bodyLimit(options: { idleMs: number } = { idleMs: BODY_IDLE_TIMEOUT_MS }): MiddlewareHandler {
  return async (c, next) => {
    const request = c.req.raw;
    if (c.req.method === 'GET' || c.req.method === 'HEAD' || !request.body) return next();
    const { maxBytes } = bodyClassFor(c.req.path);
    if (declaredTooLarge(request.headers, maxBytes)) {
      // Up to 64 MiB declared, the body is read and dropped first so the answer is heard; a
      // larger one is refused at once (the client may then see the connection close).
      // Still 413 when the rest never comes: the declared size alone says what is wrong and what to do.
      if (Number(request.headers.get('content-length')) <= DISCARD_LIMITS.maxBytes) await discardBody(request.body, DISCARD_LIMITS);
      const message = tooLargeMessage(maxBytes);
      return edgeRefusal(c, 413, message, { 'Cache-Control': 'no-store' }, () => c.text(message, 413, { 'Cache-Control': 'no-store' }));
    }
    c.req.raw = new Request(request, { body: countedBody(request.body, maxBytes, options.idleMs), duplex: 'half' } as RequestInit);
    return next();
  };
}
