/**
 * A photo kept in the private storage, answered to the one viewer who may see it: never cached
 * by anyone but their own browser, never shown inside another site's page. The rental checklists'
 * photos and a sold car's delivery photos are answered this way.
 */
export function privateImageResponse(file: { body: ReadableStream; size: number }): Response {
  return new Response(file.body, {
    headers: {
      'Content-Type': 'image/webp',
      'Content-Length': String(file.size),
      'Cache-Control': 'private, no-store',
      'Content-Disposition': 'inline',
      'Cross-Origin-Resource-Policy': 'same-origin',
      Vary: 'Cookie',
    },
  });
}
