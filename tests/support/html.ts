/** Reading server-rendered HTML in tests: what a visitor reads, and the tags search engines read. */

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, entity: string) => {
    const lower = entity.toLowerCase();
    if (lower.startsWith('#x')) return String.fromCodePoint(Number.parseInt(lower.slice(2), 16));
    if (lower.startsWith('#')) return String.fromCodePoint(Number(lower.slice(1)));
    return NAMED_ENTITIES[lower] ?? whole;
  });
}

/** The text a visitor reads: no scripts or styles, no tags, entities decoded, white space collapsed. */
export function visibleText(html: string): string {
  const bare = html
    .replace(/<script\b[\s\S]*?<\/script>/gi, ' ')
    .replace(/<style\b[\s\S]*?<\/style>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, '')
    // A line-break opportunity is no space: "₹8,225/<wbr>month" reads "₹8,225/month".
    .replace(/<wbr\s*\/?>/gi, '')
    .replace(/<[^>]+>/g, ' ');
  return decodeEntities(bare).replace(/\s+/g, ' ').trim();
}

/** The page's <main> element, as HTML. */
export function mainOf(html: string): string {
  const match = /<main\b[\s\S]*?<\/main>/.exec(html);
  if (!match) throw new Error(`the page has no <main>: ${html.slice(0, 300)}`);
  return match[0];
}

/** The <main> element's visible text. */
export function mainText(html: string): string {
  return visibleText(mainOf(html));
}

/** Attributes of every <name …> tag (names lower-cased, values decoded). */
export function tags(html: string, name: string): Array<Record<string, string>> {
  return [...html.matchAll(new RegExp(`<${name}\\b([^>]*)>`, 'gi'))].map((match) =>
    Object.fromEntries(
      [...match[1]!.matchAll(/([^\s=/>]+)(?:="([^"]*)")?/g)].map((attribute) => [attribute[1]!.toLowerCase(), decodeEntities(attribute[2] ?? '')]),
    ),
  );
}

export const titleOf = (html: string) => decodeEntities(/<title>([\s\S]*?)<\/title>/.exec(html)?.[1] ?? '');

/** The content of the page's <meta> with this name or property; a page that has two is an error. */
export function metaContent(html: string, key: string): string | undefined {
  const found = tags(html, 'meta').filter((tag) => tag.name === key || tag.property === key);
  if (found.length > 1) throw new Error(`the page has ${found.length} <meta> ${key}`);
  return found[0]?.content;
}

/** The href of every canonical link of the page (it should have exactly one). */
export function canonicalLinks(html: string): string[] {
  return tags(html, 'link')
    .filter((link) => link.rel === 'canonical')
    .map((link) => link.href ?? '');
}
