import { randomUUID } from 'node:crypto';

/**
 * Every answer carries `X-Request-Id` (decision 111): the id a trusted proxy in front of the site
 * sent (TRUST_PROXY=true, the proxy the client address is taken from, security/rate-limit.ts),
 * so one id follows a request from the load balancer's log to ours; else one of our own. From
 * anyone else the header is ignored: a visitor could otherwise write what they like into our
 * logs, or make two requests look like one.
 */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/** At most this long, and printable ASCII only: an id goes into log lines and a problem's `instance` as it is. */
const WELL_FORMED = /^[\x21-\x7e]{1,128}$/;

export function requestIdFor(incoming: string | string[] | undefined, trustProxy: boolean): string {
  const value = Array.isArray(incoming) ? undefined : incoming?.trim();
  if (trustProxy && value !== undefined && WELL_FORMED.test(value)) return value;
  return randomUUID();
}
