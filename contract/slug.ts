/**
 * Turning text into URL slugs, shared by the server (post slugs, category matching) and any client that
 * wants to predict a slug. Pure: no Node or browser APIs.
 */

/** Lowercase ASCII words joined by single hyphens; accents folded, `&` read as "and". */
export function slugify(text: string, maxLength = 80): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/['\u2019]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (slug.length <= maxLength) return slug;
  // Cut at a word boundary when one is reasonably close, so slugs do not end mid-word.
  const cut = slug.slice(0, maxLength + 1);
  const boundary = cut.lastIndexOf('-');
  return (boundary > maxLength / 2 ? cut.slice(0, boundary) : slug.slice(0, maxLength)).replace(/-+$/, '');
}

/** True for a string that `slugify` could have produced (lowercase words and single hyphens). */
export function isSlug(text: string): boolean {
  return /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(text);
}

/** Slugs the API's own paths use under /api/blog/: no post may take them. */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set(['categories', 'validate']);
