/**
 * Everything interpolated into HTML the server writes by hand (mails, the maintenance page)
 * goes through here: names and URLs are not ours to trust.
 */
export function escapeHtml(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');
}
