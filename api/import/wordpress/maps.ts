/**
 * The mapping files of `blogpost import-wordpress`: `--category-map` (a WordPress category's nicename
 * to one of the site's category slugs) and `--author-map` (a WordPress login to the author name the
 * post shows). Either is a JSON object, or lines `wordpress=site` (blank lines and `#` comments
 * skipped). In the category map `*` names the category of every WordPress category the map does not
 * name. Decision 0029.
 */
import { distance } from 'fastest-levenshtein';
import { BLOG_CATEGORIES, UNCATEGORIZED } from '../../../contract/categories';

export class MapFileError extends Error {
  override name = 'MapFileError';
}

/** The site's category slugs: the built-in ones and uncategorized. */
export const SITE_CATEGORY_SLUGS: readonly string[] = [...BLOG_CATEGORIES.map((category) => category.slug), UNCATEGORIZED.slug];

/** The closest of `candidates` to `word`, when it is close enough to be a likely typo. */
export function didYouMean(word: string, candidates: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const d = distance(word.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best !== null && bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : null;
}

/** A mapping file's pairs, in order; `what` names the file in errors. */
export function parseMapText(text: string, what: string): Map<string, string> {
  const trimmed = text.trim();
  const pairs = new Map<string, string>();
  if (trimmed.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch (error) {
      throw new MapFileError(`${what} starts like JSON but is not valid JSON (${error instanceof Error ? error.message : String(error)}): write an object {"wordpress": "site"}, or lines wordpress=site.`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new MapFileError(`${what} must be a JSON object {"wordpress": "site"}.`);
    for (const [from, value] of Object.entries(parsed)) {
      if (typeof value !== 'string' || value.trim() === '') throw new MapFileError(`${what}: the value of "${from}" must be a non-empty string.`);
      pairs.set(from.trim(), value.trim());
    }
    return pairs;
  }
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const at = line.indexOf('=');
    if (at <= 0 || at === line.length - 1) throw new MapFileError(`${what}, line ${index + 1}: "${line}" is not wordpress=site (e.g. news=financial-education).`);
    pairs.set(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  return pairs;
}

/** A category map checked: every target is one of the site's categories (with a did-you-mean otherwise). */
export function categoryMapFrom(text: string, what: string): Map<string, string> {
  const pairs = parseMapText(text, what);
  for (const [from, to] of pairs) {
    if (SITE_CATEGORY_SLUGS.includes(to)) continue;
    const guess = didYouMean(to, SITE_CATEGORY_SLUGS);
    throw new MapFileError(`${what}: "${from}" maps to "${to}", which is not a category of this site${guess ? ` (did you mean ${guess}?)` : ''}. The site's categories: ${SITE_CATEGORY_SLUGS.join(', ')}.`);
  }
  return pairs;
}
