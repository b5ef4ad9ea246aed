import sharp from 'sharp';
import type { Context } from 'hono';
import { SHARE_CARD_HEIGHT, SHARE_WIDTH } from '../../app/lib/share-image.ts';

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * The site's share card (decision 086): the brand's colours and car mark with the configured
 * SITE_NAME, drawn as SVG and turned into the 1200 × 630 JPEG that pages about no one car
 * (home, search, categories without a photo, rent, about…) give link previews. Drawn from the
 * configuration rather than committed, so a dealer who renames the site gets its own card.
 */
export function siteCardSvg(siteName: string): string {
  const name = escapeXml(siteName);
  // Long names get a smaller type so they stay on the card.
  const nameSize = siteName.length > 18 ? Math.max(44, Math.round(84 * (18 / siteName.length))) : 84;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SHARE_WIDTH}" height="${SHARE_CARD_HEIGHT}" viewBox="0 0 ${SHARE_WIDTH} ${SHARE_CARD_HEIGHT}">
  <defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1e40af"/><stop offset="1" stop-color="#172554"/></linearGradient></defs>
  <rect width="100%" height="100%" fill="url(#bg)"/>
  <g transform="translate(96 165) scale(4.5)">
    <rect width="64" height="64" rx="14" fill="#ffffff"/>
    <path d="M12 38l5-11a4 4 0 0 1 3.7-2.5h22.6A4 4 0 0 1 47 27l5 11v7a2 2 0 0 1-2 2h-3a2 2 0 0 1-2-2v-2H19v2a2 2 0 0 1-2 2h-3a2 2 0 0 1-2-2z" fill="#1e40af"/>
    <circle cx="21" cy="38" r="3" fill="#ffffff"/><circle cx="43" cy="38" r="3" fill="#ffffff"/>
  </g>
  <g font-family="DejaVu Sans, Noto Sans, Liberation Sans, Arial, sans-serif" fill="#ffffff">
    <text x="450" y="290" font-size="${nameSize}" font-weight="700">${name}</text>
    <text x="452" y="360" font-size="36" fill="#dbeafe">Certified refurbished cars</text>
    <text x="452" y="410" font-size="36" fill="#dbeafe">Self-drive car rentals</text>
    <text x="452" y="480" font-size="26" fill="#93c5fd">Inspected · Fair prices in rupees · Finance</text>
  </g>
</svg>`;
}

export async function renderSiteCard(siteName: string): Promise<Buffer> {
  return sharp(Buffer.from(siteCardSvg(siteName)))
    .flatten({ background: '#1e40af' })
    .jpeg({ quality: 85, progressive: true, mozjpeg: true })
    .toBuffer();
}

/**
 * Answers the card, drawn once per process on the first request (a few tens of milliseconds):
 * every instance draws the same bytes from the same configuration, so nothing is shared.
 */
export function siteCardHandler(siteName: string) {
  let card: Promise<Buffer> | null = null;
  return async (c: Context) => {
    card ??= renderSiteCard(siteName).catch((error: unknown) => {
      card = null;
      throw error;
    });
    const body = await card;
    // Not immutable: a renamed site draws another card under the same name.
    return c.body(new Uint8Array(body), 200, {
      'Content-Type': 'image/jpeg',
      'Content-Length': String(body.byteLength),
      'Cache-Control': 'public, max-age=86400',
    });
  };
}
