import type { Context } from 'hono';
import type { Logger } from '../logger.ts';
import { answerError, type AnswerOptions } from './action-errors.ts';
import { errorsText as t } from '../../app/lib/i18n/errors.ts';
import { currentRequestId } from '../request-context.ts';

/**
 * The one shape of every refusal of `/api/v1`: RFC 9457 problem details
 * (`application/problem+json`). `title` is the status's short name, `detail` the sentence to
 * show the person, `fields` the message per invalid input, `reason` a stable word an app may
 * branch on (`licence-pending`, `slot-taken`…). `type` names the kind of problem: the
 * reference page's section for a `reason`, else `about:blank` (RFC 9457 §4.2: the status says
 * it all). `instance` names this occurrence: `urn:request:<X-Request-Id>`, the id the answer's
 * header and our log lines carry, so a report of a problem leads to its log (decision 111).
 */

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export type Problem = {
  type: string;
  title: string;
  status: number;
  detail: string;
  fields?: Record<string, string>;
  reason?: string;
  instance?: string;
};

/** The statuses with a title of their own (problem+json `title`), read in the request's language. */
const TITLED = new Set([400, 401, 403, 404, 405, 408, 409, 413, 415, 422, 429, 500, 502, 503] as const);
type Titled = typeof TITLED extends Set<infer Status> ? Status : never;

function titleOf(status: number): string {
  if (TITLED.has(status as Titled)) return t(`title${status as Titled}`);
  return status >= 500 ? t('titleServerError') : t('titleClientError');
}

export type ProblemExtras = {
  fields?: Readonly<Record<string, string>>;
  reason?: string;
  /** Retry-After for 429 and 503, WWW-Authenticate for 401, Set-Cookie… */
  headers?: HeadersInit;
};

/** The problem document itself (for tests and for places that build a Response by hand). */
export function problemBody(status: number, detail: string, extras: Omit<ProblemExtras, 'headers'> = {}): Problem {
  const fields = extras.fields && Object.keys(extras.fields).length > 0 ? { fields: { ...extras.fields } } : {};
  return {
    type: extras.reason ? `/api/docs#problem-${extras.reason}` : 'about:blank',
    title: titleOf(status),
    status,
    detail,
    ...fields,
    ...(extras.reason ? { reason: extras.reason } : {}),
    ...instanceOfThisRequest(),
  };
}

/** `instance` for the request being answered; none outside one (a test building a body). */
function instanceOfThisRequest(): { instance?: string } {
  const requestId = currentRequestId();
  return requestId === null ? {} : { instance: `urn:request:${requestId}` };
}

/** A problem+json Response; never cached (a refusal is about this request). */
export function problemResponse(status: number, detail: string, extras: ProblemExtras = {}): Response {
  const headers = new Headers(extras.headers);
  headers.set('Content-Type', PROBLEM_CONTENT_TYPE);
  if (!headers.has('Cache-Control')) headers.set('Cache-Control', 'no-store');
  return new Response(JSON.stringify(problemBody(status, detail, extras)), { status, headers });
}

/** The same, from a Hono handler (headers already set on `c`, such as cookies, are kept). */
export function problem(c: Context, status: number, detail: string, extras: ProblemExtras = {}): Response {
  const response = problemResponse(status, detail, extras);
  c.res.headers.forEach((value, name) => {
    if (name.toLowerCase() === 'set-cookie') response.headers.append(name, value);
  });
  return response;
}

/** Whether a path belongs to the API (`/api/v1`, better-auth's `/api/auth`, the bot check…), whose refusals are problems. */
export function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

/**
 * A refusal made before any route runs (the CSRF check, the body limit, the outage answer…): a
 * problem on an API path, else `page()`, the answer a browser's page gets (text or HTML), with
 * the same `headers`. The person reads the same sentence either way.
 */
export function edgeRefusal(c: Context, status: number, detail: string, headers: HeadersInit, page: () => Response): Response {
  if (!isApiPath(c.req.path)) return page();
  return problem(c, status, detail, { headers });
}

/**
 * What a service threw, as a problem: a refusal of the error vocabulary (server/errors.ts)
 * keeps its status, message, fields and reason; anything else is logged and answered 500 with
 * `fallback` (the error's own message is never shown).
 */
export function problemFromError(c: Context, error: unknown, logger: Pick<Logger, 'error'>, options: AnswerOptions): Response {
  const answer = answerError(error, logger, options);
  return problem(c, answer.status, answer.message, { fields: answer.fields, reason: answer.reason, headers: answer.headers });
}
