/** Dates on blog pages: one format, in UTC, so server and browser render the same text. */
const DATE_FORMAT = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

export function formatPostDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : DATE_FORMAT.format(date);
}

/** The date a reader should see as "published": when it went public, else when it was created. */
export function publishedDate(post: { published_at: string | null; created_at: string }): string {
  return post.published_at ?? post.created_at;
}
