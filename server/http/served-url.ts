/**
 * The address to open: SITE_ORIGIN when set (the site's public name), else the bound address.
 * A wildcard bind (0.0.0.0, ::) answers on every interface, so localhost is the one that works here.
 */
export function servedUrl(siteOrigin: string | undefined, host: string, port: number): string {
  if (siteOrigin) return siteOrigin.replace(/\/+$/, '');
  const shown = host === '0.0.0.0' || host === '::' || host === '' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}`;
}
