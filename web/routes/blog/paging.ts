/** Paging of the blog lists: `?page=N`, anything that is not a whole number >= 1 is page 1. */
export const BLOG_PAGE_SIZE = 12;

export function pageNumberFrom(url: URL): number {
  const page = Number(url.searchParams.get('page') ?? '1');
  return Number.isInteger(page) && page >= 1 ? page : 1;
}
