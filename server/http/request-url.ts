/**
 * The address a request was made to, as the site's pages and better-auth must see it. Node
 * builds it from the socket (always http behind a TLS proxy) and the Host header (chosen by the
 * sender), so behind the documented proxy a browser's `Origin: https://www.example.in` met a
 * request URL of `http://www.example.in`, and React Router refused every page form. The origin
 * is therefore the site's own: the accepted origin (config.ts acceptedOrigins) the Host header
 * names, which on loopback lets `127.0.0.1` and `localhost` each stay themselves, and SITE_ORIGIN
 * for any other Host, so a forged Host never reaches a link, a redirect or a cookie.
 */
export function requestUrlOnSite(config: {
  siteOrigin: string;
  acceptedOrigins: readonly string[];
}): (target: string, hostHeader: string | undefined) => string {
  const originOfHost = new Map(config.acceptedOrigins.map((origin) => [new URL(origin).host, origin]));
  return (target, hostHeader) => `${originOfHost.get(hostHeader?.toLowerCase() ?? '') ?? config.siteOrigin}${pathAndQuery(target)}`;
}

/**
 * The path and query of a request target: an absolute-form target (`GET http://other.example/x`,
 * which proxies send) keeps only its path, so it cannot name another origin either.
 */
function pathAndQuery(target: string): string {
  if (target.startsWith('/')) return target;
  if (/^https?:\/\//i.test(target)) {
    try {
      const url = new URL(target);
      return `${url.pathname}${url.search}`;
    } catch {
      return '/';
    }
  }
  return `/${target}`;
}
