/**
 * The configuration values the browser may see (server/config.ts's publicConfig picks them out
 * of the validated configuration). Secrets never go here: this object is serialised into every
 * page. Declared here, not derived from the server's Config, because browser code imports
 * nothing from server/ (decision 015).
 */
export type PublicConfig = {
  siteName: string;
  siteOrigin: string;
  sellerPhone: string;
  whatsappNumber: string;
  androidAppUrl: string;
  contactEmail: string;
  contactAddress: string;
  /** Prefix of public photo URLs: '' (this site's /media/) or a CDN / bucket URL (decision 068). */
  mediaBaseUrl: string;
};
