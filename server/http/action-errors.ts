import { isDatabaseConnectionLoss, isStorageFull } from '../db/connection.ts';
import { AppError, ImageRefusedError, InvalidInputError, RateLimitedError } from '../errors.ts';
import type { Logger } from '../logger.ts';

/**
 * The one place a loader or action turns what a service threw into the page's answer
 * (decision 017). Route modules call it in `loader`/`action` only (it is server code).
 */

export type ErrorAnswer = {
  status: number;
  /** The sentence for the toast or the form's message. */
  message: string;
  /** Form fields to mark, each with its message (from InvalidInputError). */
  fields: Readonly<Record<string, string>>;
  /** Retry-After for a rate limit; empty otherwise. */
  headers: Headers;
  /** The refusal's word for programs (AppError.reason), for JSON answers. */
  reason?: string;
};

export type AnswerOptions = {
  /** What the page says when something unexpected failed: the error's own message is never shown. */
  fallback: string;
  /** Put before a refusal's message ('Failed to update category' -> 'Failed to update category: …'), or a function that words it. */
  prefix?: string | ((message: string) => string);
  /** The log line for an unexpected error, and what to log beside it. */
  log: string;
  context?: Record<string, unknown>;
};

/**
 * A refusal from the error vocabulary (server/errors.ts) keeps its message and status; a
 * photo's refusal is never prefixed, its message already says what failed. Anything else is
 * logged with its stack and answered with `fallback` and 500. A lost database connection is
 * thrown on: the edge answers it, on every path alike, 503 with Retry-After
 * (server/http/database-outage.ts).
 */
export function answerError(error: unknown, logger: Pick<Logger, 'error'>, options: AnswerOptions): ErrorAnswer {
  throwIfDatabaseOutage(error);
  const headers = new Headers();
  if (!(error instanceof AppError)) {
    logger.error({ err: error, ...options.context }, options.log);
    return { status: 500, message: options.fallback, fields: {}, headers };
  }
  if (error instanceof RateLimitedError) headers.set('Retry-After', String(error.retryAfterSeconds));
  const { prefix } = options;
  const message =
    !prefix || error instanceof ImageRefusedError ? error.message : typeof prefix === 'string' ? `${prefix}: ${error.message}` : prefix(error.message);
  return {
    status: error.status,
    message,
    fields: error instanceof InvalidInputError ? error.fields : {},
    headers,
    ...(error.reason ? { reason: error.reason } : {}),
  };
}

/**
 * For a loader's or action's own catch that answers a failure itself (a notice, a flash, an
 * empty list with a message): a lost database connection is not its to answer. Thrown on, the
 * edge answers it 503 with Retry-After like every other path (server/http/database-outage.ts).
 */
export function throwIfDatabaseOutage(error: unknown): void {
  // A full disk is answered the same way: 503, try again, nothing saved.
  if (isDatabaseConnectionLoss(error) || isStorageFull(error)) throw error;
}
