/**
 * Dates on blog pages: one format ("November 22, 2026"), in UTC, so server and browser render the same
 * text. Written out by hand rather than with Intl.DateTimeFormat: creating a formatter with a time zone
 * loads the browser's time-zone data, which measured 66 ms of main-thread work on the first page view.
 */
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

export function formatPostDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${MONTHS[date.getUTCMonth()] ?? ''} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
}

/** The date a reader should see as "published": when it went public, else when it was created. */
export function publishedDate(post: { published_at: string | null; created_at: string }): string {
  return post.published_at ?? post.created_at;
}

/**
 * When the post last changed, as a reader should see it: its last edit, or the author's own
 * "last updated" date (trust.lastUpdated) when that is later.
 */
export function lastModified(post: { updated_at: string; trust: { lastUpdated?: string } | null }): string {
  const stated = post.trust?.lastUpdated;
  if (!stated) return post.updated_at;
  const statedAt = Date.parse(/^\d{4}-\d{2}-\d{2}/.test(stated) ? stated : `${stated} UTC`);
  return Number.isNaN(statedAt) || statedAt <= Date.parse(post.updated_at) ? post.updated_at : stated;
}
