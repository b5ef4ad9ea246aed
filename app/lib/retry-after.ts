import type { HeadersArgs } from 'react-router';

/**
 * A route's `headers` export for pages whose action (or loader) may answer 429: React Router
 * sends a loader's or action's own headers only through this export, on the page and on its
 * data request alike, so without it a refusal would lose its Retry-After (decision 060).
 */
export function retryAfterHeaders({ actionHeaders, loaderHeaders }: HeadersArgs): HeadersInit {
  const value = actionHeaders.get('Retry-After') ?? loaderHeaders.get('Retry-After');
  return value ? { 'Retry-After': value } : {};
}
