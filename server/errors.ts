/**
 * The one vocabulary services use to refuse something. A service knows nothing of HTTP: it
 * throws one of these, and the route's edge (server/http/action-errors.ts) turns it into the
 * page's message and a status code. The message of every error here is written for the person
 * using the site and may be shown as it is; any other error is a fault of ours, is logged,
 * and is never shown (its message may hold SQL, paths or stack details).
 */

export abstract class AppError extends Error {
  /** The HTTP status the edge answers with; the only place a service's refusal meets HTTP. */
  abstract readonly status: number;
  /** A stable word for programs (the JSON API answers it as `reason`) where the status alone says too little. */
  reason: string | undefined;
  /** Sets `reason`: `throw new InvalidInputError(message).because('wrong-password')`. */
  because(reason: string): this {
    this.reason = reason;
    return this;
  }
}

/** What was sent cannot be used; `fields` names the form fields to mark, each with its message. */
export class InvalidInputError extends AppError {
  readonly status = 400;
  constructor(
    message: string,
    readonly fields: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

/**
 * A photo refused by its content or size. Its message already names the file and says what to
 * do, so the edge shows it without the action's own "Failed to …:" prefix.
 */
export class ImageRefusedError extends InvalidInputError {
  constructor(
    readonly fileName: string,
    message: string,
  ) {
    super(message, { images: message });
  }
}

/** The thing acted on does not exist (any more). */
export class NotFoundError extends AppError {
  readonly status = 404;
}

/** The change would break a rule of the data as it is now (a category that still has vehicles). */
export class ConflictError extends AppError {
  readonly status = 409;
}

/** The caller may not do this (a lead form whose bot check failed). */
export class ForbiddenError extends AppError {
  readonly status = 403;
}

/** The steps a person must finish before booking (a rental car or a test drive). */
export type CannotBookYetReason = 'phone' | 'licence' | 'licence-refused' | 'licence-date-of-birth' | 'age';

/**
 * The person cannot book yet: a step of theirs is not done (a verified phone, a driving
 * licence, the car's minimum age). 422 wherever it is refused, its `reason` naming the step
 * (decision 047).
 */
export class CannotBookYetError extends AppError {
  readonly status = 422;
  constructor(reason: CannotBookYetReason, message: string) {
    super(message);
    this.because(reason);
  }
}

/** Too many attempts; `retryAfterSeconds` says when the next one is allowed. */
export class RateLimitedError extends AppError {
  readonly status = 429;
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** An outside service we depend on (the payment provider) could not answer; trying again later may work. */
export class UpstreamError extends AppError {
  readonly status = 502;
}

/**
 * Something we keep data in (the object storage holding the photos) did not answer in time or
 * refused; nothing was lost and trying again in a minute may work.
 */
export class ServiceUnavailableError extends AppError {
  readonly status = 503;
}
