/**
 * An embeddable player URL for a walkthrough video, or null. Only YouTube and Vimeo are
 * embedded (the Content-Security-Policy allows those frames); other links are shown as links.
 */
export function videoEmbedUrl(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const host = parsed.hostname.replace(/^www\.|^m\./, '');
  let youtubeId: string | null = null;
  if (host === 'youtu.be') youtubeId = parsed.pathname.slice(1);
  else if (host === 'youtube.com' || host === 'youtube-nocookie.com') {
    if (parsed.pathname === '/watch') youtubeId = parsed.searchParams.get('v');
    else {
      const match = /^\/(?:embed|shorts|live)\/([^/]+)/.exec(parsed.pathname);
      youtubeId = match?.[1] ?? null;
    }
  }
  if (youtubeId && /^[\w-]{6,20}$/.test(youtubeId)) return `https://www.youtube-nocookie.com/embed/${youtubeId}`;
  if (host === 'vimeo.com' || host === 'player.vimeo.com') {
    // The video id is a whole path segment: the last numeric one (/123456, /video/123456,
    // /channels/staffpicks/123456), never digits inside a name like /user12345678.
    const match = /\/(\d{6,12})\/?$/.exec(parsed.pathname);
    if (match) return `https://player.vimeo.com/video/${match[1]}`;
  }
  return null;
}
