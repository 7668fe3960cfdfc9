/**
 * What a post change touches, named the way a cached page names what it was made from (decision 0031):
 * a page records the posts it showed (`post:<id>`) and the lists it read (`list`, the published posts
 * newest first; `list:category:<slug>`, `list:tag:<tag>`, `list:author:<name>`; `categories`, the
 * counts per category); a change of a post names the post, and the lists only when the set of public
 * posts in them or their order changed. An edit of an old post's text so reaches its page and the list
 * pages that show it, and nothing else; a new post reaches every list it joins.
 */
import type { PostIndexEntry } from './records';

export const postScope = (id: string): string => `post:${id}`;
export const LIST_SCOPE = 'list';
export const CATEGORIES_SCOPE = 'categories';
export const categoryListScope = (slug: string): string => `list:category:${slug}`;
/** Tags and authors are matched without regard to case by the lists. */
export const tagListScope = (tag: string): string => `list:tag:${tag.toLowerCase()}`;
export const authorListScope = (name: string): string => `list:author:${name.toLowerCase()}`;

function isPublic(entry: PostIndexEntry | null): entry is PostIndexEntry {
  return entry !== null && entry.status === 'published' && !entry.deletedAt;
}

/** Where a post sorts in the lists (the store's `sort_key`). */
function sortsAt(entry: PostIndexEntry): string {
  return entry.publishedAt ?? entry.publishAt ?? entry.createdAt;
}

function sameMembership(before: PostIndexEntry, after: PostIndexEntry): boolean {
  const tags = (entry: PostIndexEntry) =>
    entry.tags
      .map((tag) => tag.toLowerCase())
      .sort()
      .join('\n');
  return (
    sortsAt(before) === sortsAt(after) &&
    before.categorySlug === after.categorySlug &&
    before.author.name.toLowerCase() === after.author.name.toLowerCase() &&
    tags(before) === tags(after)
  );
}

/** The scopes a change from `before` to `after` reaches (null: the post did not exist on that side). */
export function changeScopes(before: PostIndexEntry | null, after: PostIndexEntry | null): string[] {
  const post = after ?? before;
  if (!post) return [];
  const scopes = new Set([postScope(post.id)]);
  const was = isPublic(before) ? before : null;
  const is = isPublic(after) ? after : null;
  if (!was && !is) return [...scopes];
  // Shown where it was and is: its own scope reaches those pages; lists move only when it joins, leaves or moves in them.
  if (was && is && sameMembership(was, is)) return [...scopes];
  scopes.add(LIST_SCOPE);
  for (const entry of [was, is]) {
    if (!entry) continue;
    scopes.add(categoryListScope(entry.categorySlug));
    scopes.add(authorListScope(entry.author.name));
    for (const tag of entry.tags) scopes.add(tagListScope(tag));
  }
  if (!was || !is || was.categorySlug !== is.categorySlug) scopes.add(CATEGORIES_SCOPE);
  return [...scopes];
}
