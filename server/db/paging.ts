/**
 * Count, clamp, offset: how every paged list in the app turns a requested page into rows.
 * A page past the end shows the last page (a list that shrank while someone paged keeps
 * showing something), and an empty list still has one page.
 */

export type Page<T> = { items: T[]; total: number; page: number; pageCount: number; perPage: number };

export type PageWindow = { page: number; pageCount: number; perPage: number; limit: number; offset: number };

/** Where the requested page of `total` rows starts, `perPage` at a time. */
export function pageWindow(total: number, requestedPage: number, perPage: number): PageWindow {
  const pageCount = Math.max(1, Math.ceil(total / perPage));
  const page = Math.min(Math.max(1, Math.floor(requestedPage)), pageCount);
  return { page, pageCount, perPage, limit: perPage, offset: (page - 1) * perPage };
}

/** The page's items with the window they came from. */
export function pageOf<T>(items: T[], total: number, window: PageWindow): Page<T> {
  return { items, total, page: window.page, pageCount: window.pageCount, perPage: window.perPage };
}
