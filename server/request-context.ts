import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The request (or the job a request queued) that the code running now works for, carried by
 * Node's AsyncLocalStorage through every await below the point that entered it: the server's
 * request listener (server/http/server-entry.ts) and the job worker (server/jobs/worker.ts). The
 * logger stamps its id on every line (server/logger.ts), the queue stores it with every job it
 * takes (server/jobs/queue.ts) and a problem answer names it (server/http/problem.ts), without
 * any service learning of HTTP or handing an id down by hand (decision 111).
 */
export type RequestScope = {
  /** The X-Request-Id this request answers with, or that the request which queued this job had. */
  requestId: string;
};

const scopes = new AsyncLocalStorage<RequestScope>();

/** Runs `work` (and everything it awaits or schedules) on behalf of `scope`. */
export function withinRequest<T>(scope: RequestScope, work: () => T): T {
  return scopes.run(scope, work);
}

/** The id of the request the running code works for, or null (start-up, the scheduler, a job no request queued). */
export function currentRequestId(): string | null {
  return scopes.getStore()?.requestId ?? null;
}
