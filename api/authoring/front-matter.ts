/**
 * The front matter of a post file, read the way an author means it: which keys are post fields (the
 * others are named in a warning, with a "did you mean", and never sent), when the post goes or went
 * public (`publish_at`, `publishAt` or the older `publishedAt`, kept as the author wrote it and checked
 * against the clock), the cover image (`cover_image` and `cover_image_alt`, or `cover` and `cover_alt`), and the post's `id` and `revision`, which `blogpost publish` writes back into the
 * file with setFrontMatterFields without touching any other byte.
 */
import matter from 'gray-matter';
import { closest, distance } from 'fastest-levenshtein';
import { createPostSchema, FIELD_ALIASES, parsePublishAt } from '../../contract/blog';

export class PostFileError extends Error {
  override name = 'PostFileError';
}

export type PostFileKind = 'markdown' | 'html' | 'json';

/**
 * gray-matter's options for every read. Its JavaScript engine (a file opening with `---js`) would
 * run the front matter as code, with eval, on the machine that reads the file: `blogpost lint` in a
 * CI job over someone else's post could run anything. That engine is replaced by a refusal; YAML
 * (js-yaml's safe schema) and JSON are read as data only. Passing options also turns off gray-matter's
 * cache, which is keyed by the text itself (and so answers inherited properties for texts such as "toString").
 */
const MATTER_OPTIONS = {
  engines: {
    javascript: () => {
      throw new PostFileError('Front matter in JavaScript (a file opening with ---js) is not read, because it would run as code: write the front matter in YAML, between --- lines.');
    },
  },
};

/** The front matter and content of a post file's text, as data: never run as code (MATTER_OPTIONS). */
export function readFrontMatter(text: string): matter.GrayMatterFile<string> {
  return matter(text, MATTER_OPTIONS);
}

/** Front matter as gray-matter finds it: `---` not followed by another `-` at the very start. */
export function hasFrontMatter(text: string): boolean {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  return body.startsWith('---') && body.charAt(3) !== '-';
}

/** The kind of a post file: by its name's extension, else by how its text (after any front matter) starts. */
export function detectPostFileKind(fileName: string | undefined, text: string): PostFileKind {
  const ext = fileName?.toLowerCase().match(/\.([a-z]+)$/)?.[1];
  if (ext === 'json') return 'json';
  if (ext === 'html' || ext === 'htm') return 'html';
  if (ext === 'md' || ext === 'markdown') return 'markdown';
  if (hasFrontMatter(text)) {
    let body: string;
    try {
      body = readFrontMatter(text).content;
    } catch {
      return 'markdown';
    }
    return /^<(?:!doctype|html|article|section|h[1-6]|p|div)\b/i.test(body.trimStart()) ? 'html' : 'markdown';
  }
  const start = text.trimStart();
  if (start.startsWith('{') || start.startsWith('"')) return 'json';
  if (/^<(?:!doctype|html|article|section|h[1-6]|p|div)\b/i.test(start)) return 'html';
  return 'markdown';
}

/** The keys that name when a post goes live, in the order they are looked at. */
const PUBLISH_KEYS = ['publish_at', 'publishAt', 'publishedAt'] as const;

/**
 * The cover image's shorter spellings in front matter (`cover: img/cover.jpg`), by alias: read as the
 * post field. `blogpost publish` uploads a cover that names a local file and sends its media id.
 */
export const COVER_ALIASES: Readonly<Record<string, 'cover_image' | 'cover_image_alt'>> = { cover: 'cover_image', cover_alt: 'cover_image_alt' };

/** Front-matter keys read by parsePostFile: the create fields, the cover's aliases, the schedule's spellings and the post's id. */
export const FRONT_MATTER_KEYS: readonly string[] = [
  ...new Set([...Object.keys(createPostSchema.shape), 'cover_image', 'cover_image_alt', ...Object.keys(COVER_ALIASES), 'publishAt', 'publishedAt', 'id', 'revision']),
];

/** The keys inside the objects of the front matter (the contract ignores any others; `compliance` is checked in compliance-front-matter.ts). */
const NESTED_KEYS: Readonly<Record<string, readonly string[]>> = {
  author: Object.keys(createPostSchema.shape.author.shape),
  trust: ['factCheckedBy', 'sources', 'lastUpdated'],
  compliance: ['accept'],
};

/** The known key an unknown one was probably meant to be, if one is close enough. */
function suggestionFor(field: string, known: readonly string[]): string | undefined {
  const alias = FIELD_ALIASES[field];
  if (alias) return alias;
  const lower = field.toLowerCase();
  const candidates = known.map((name) => name.toLowerCase());
  const best = closest(lower, candidates);
  const limit = Math.max(1, Math.min(3, Math.floor(lower.length / 2)));
  return distance(lower, best) <= limit ? known[candidates.indexOf(best)] : undefined;
}

function unknownKeyWarning(prefix: string, field: string, known: readonly string[]): string {
  const suggestion = suggestionFor(field, known);
  const hint = suggestion ? ` (did you mean ${prefix}${suggestion}?)` : '';
  return `front matter key "${prefix}${field}" is not a post field and was not sent${hint}`;
}

/**
 * The front matter without the keys that are not post fields, and a warning naming each one. Keys of
 * `author` and `trust` are checked too: the server would drop an unknown one without a word.
 */
export function withoutUnknownKeys(front: Record<string, unknown>): { front: Record<string, unknown>; warnings: string[] } {
  const warnings: string[] = [];
  const kept: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(front)) {
    if (!FRONT_MATTER_KEYS.includes(field)) {
      warnings.push(unknownKeyWarning('', field, FRONT_MATTER_KEYS));
      continue;
    }
    const nested = NESTED_KEYS[field];
    if (nested && value && typeof value === 'object' && !Array.isArray(value)) {
      const inner: Record<string, unknown> = {};
      for (const [name, innerValue] of Object.entries(value)) {
        if (nested.includes(name)) inner[name] = innerValue;
        else warnings.push(unknownKeyWarning(`${field}.`, name, nested));
      }
      kept[field] = inner;
    } else {
      kept[field] = value;
    }
  }
  return { front: kept, warnings };
}

/**
 * The front matter with `cover` and `cover_alt` read as `cover_image` and `cover_image_alt`. Both
 * spellings with different values is an error that names them (which one was meant cannot be told).
 */
export function withCoverAliases(front: Record<string, unknown>): Record<string, unknown> {
  const result = Object.fromEntries(Object.entries(front).filter(([name]) => !Object.hasOwn(COVER_ALIASES, name)));
  for (const [alias, field] of Object.entries(COVER_ALIASES)) {
    if (!Object.hasOwn(front, alias)) continue;
    const value = front[alias];
    if (result[field] !== undefined && result[field] !== null && result[field] !== value) {
      throw new PostFileError(`The front matter has both ${alias} (${JSON.stringify(value)}) and ${field} (${JSON.stringify(result[field])}): keep one of them (${field}).`);
    }
    result[field] = value;
  }
  return result;
}

/** The text of a top-level `key: value` line of the raw front matter, unquoted, without a trailing comment. */
function rawValue(rawMatter: string, field: string): string | undefined {
  const line = new RegExp(`^${field}[ \\t]*:[ \\t]*(.*?)[ \\t]*\\r?$`, 'm').exec(rawMatter)?.[1];
  if (line === undefined) return undefined;
  const quoted = /^(["'])(.*)\1$/.exec(line);
  return quoted ? quoted[2] : line.replace(/\s+#.*$/, '');
}

/**
 * The author's text of a publish key. YAML reads an unquoted `2026-12-01T09:00:00-05:00` as a Date (in
 * UTC, the offset lost), so a Date is read back from the raw line as it was written.
 */
function publishText(field: string, value: unknown, rawMatter: string): string {
  if (value instanceof Date) return rawValue(rawMatter, field) ?? value.toISOString();
  if (typeof value === 'string') return value.trim();
  throw new PostFileError(`${field} must be a date and time with an offset, e.g. ${field}: 2026-12-01T09:00:00-05:00 (it is ${JSON.stringify(value)})`);
}

/** `2026-12-01 09:00` -> `2026-12-01T09:00:00-05:00`: the author's own time, with an example offset. */
function withExampleOffset(text: string): string {
  const parts = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2})(:\d{2}(?:\.\d+)?)?)?/.exec(text);
  return parts ? `${parts[1]}T${parts[2] ?? '09:00'}${parts[3] ?? ':00'}-05:00` : '2026-12-01T09:00:00-05:00';
}

/** What the front matter says about publication: the payload's `status` and `publish_at`, and notes. */
export interface Publication {
  /** The status to send (changed to `scheduled` for a future time), or undefined to leave it as it was. */
  status?: string;
  /** The `publish_at` to send, exactly as the author wrote it. */
  publishAt?: string;
  /** Set when the time is past and the post is published: its original publication date. */
  publishedAt?: string;
  notes: string[];
}

/**
 * Applies the schedule rules to the front matter's publish time, with `now` as the clock:
 * a future time publishes then (status `scheduled`, a draft refuses it); a past time is the original
 * publication date of a published post (a scheduled post refuses it). Throws PostFileError with the fix.
 */
export function publicationFrom(front: Record<string, unknown>, rawMatter: string, now: Date): Publication {
  const given = PUBLISH_KEYS.filter((field) => front[field] !== undefined && front[field] !== null).map((field) => ({ field, text: publishText(field, front[field], rawMatter) }));
  const first = given[0];
  if (!first) return { notes: [] };
  const other = given.find((entry) => entry.text !== first.text);
  if (other) {
    throw new PostFileError(`The front matter has both ${first.field} (${first.text}) and ${other.field} (${other.text}): keep one of them (publish_at).`);
  }
  const { field, text } = first;
  const parsed = parsePublishAt(text);
  if (!parsed.ok) {
    if (/^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?$/.test(text)) {
      throw new PostFileError(
        `${field} "${text}" has no time zone offset, so it names a different moment in every time zone: add an offset, e.g. ${withExampleOffset(text)} (or Z for UTC).`,
      );
    }
    throw new PostFileError(`${field} "${text}" ${parsed.message}.`);
  }
  const status = typeof front.status === 'string' ? front.status.trim().toLowerCase() : undefined;
  const future = parsed.at.getTime() > now.getTime();
  if (future) {
    if (status === 'draft') {
      throw new PostFileError(
        `${field} ${text} is in the future but the status is draft, and a draft never goes live by itself: ` +
          'set status: scheduled (or leave status out) to publish the post at that time, or remove the publish time to keep it a draft.',
      );
    }
    if (status === undefined || status === 'published' || status === 'scheduled') {
      const changed = status === 'published' ? ' (status published became scheduled: the time is in the future)' : '';
      return { status: 'scheduled', publishAt: text, notes: [`scheduled for ${text}${changed}`] };
    }
    return { publishAt: text, notes: [] };
  }
  if (status === 'scheduled') {
    throw new PostFileError(
      `publish_at ${text} is in the past: a scheduled post needs a future time (it is ${now.toISOString()} now). ` +
        'Set a later time, or status: published to publish the post now with that date as its original publication date.',
    );
  }
  if (status === 'draft') {
    throw new PostFileError(`${field} ${text} is a publication date, but the status is draft: remove the date to keep a draft, or set status: published.`);
  }
  return { publishAt: text, publishedAt: text, notes: [`publish_at ${text} is in the past: kept as the post's original publication date`] };
}

/** The post's id from the front matter (never sent in the payload: it names the post to update). */
export function idFrom(value: unknown): string | undefined {
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (value === undefined || value === null) return undefined;
  throw new PostFileError(`id in the front matter must be the post's id as blogpost publish wrote it (a text), not ${JSON.stringify(value)}: remove the line to publish a new post.`);
}

/** The revision of the post the file holds (an update sends it as If-Match); never sent in the payload. */
export function revisionFrom(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1) return value;
  throw new PostFileError(`revision in the front matter must be the post's revision number (1 or more) as blogpost publish wrote it, not ${JSON.stringify(value)}: remove the line to update the current revision.`);
}

/** `key: value` as YAML reads it back as exactly that value (a text is quoted only when it would not be). */
export function frontMatterLine(field: string, value: string | number): string {
  if (typeof value === 'number') return `${field}: ${value}`;
  const plain = `${field}: ${value}`;
  try {
    if ((readFrontMatter(`---\n${plain}\n---\n`).data as Record<string, unknown>)[field] === value) return plain;
  } catch {
    // Not valid as a plain scalar: quoted below.
  }
  return `${field}: ${JSON.stringify(value)}`;
}

/**
 * The file with a `key: value` line for each field: in place of the top-level line the front matter
 * has for that key, else added at the top of the front matter (in the order given). Every other byte
 * stays as it was (no YAML is re-written, so comments, quoting and key order survive). A file without
 * front matter gets one in front: `---\nid: <id>\n---\n`.
 */
export function setFrontMatterFields(text: string, fields: Readonly<Record<string, string | number>>, options: { fileName?: string } = {}): string {
  for (const [field, value] of Object.entries(fields)) {
    if (!/^[A-Za-z_][\w-]*$/.test(field)) throw new PostFileError(`"${field}" cannot be written as a front-matter key.`);
    if (typeof value === 'string' ? value.trim() === '' || /[\r\n]/.test(value) : !Number.isFinite(value)) {
      throw new PostFileError(`${JSON.stringify(value)} cannot be written as the front matter's ${field}: it must be one line of text or a number.`);
    }
  }
  if (detectPostFileKind(options.fileName, text) === 'json') {
    throw new PostFileError('A JSON post file has no front matter: keep "id" and "revision" as fields of its object instead.');
  }
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  let body = text.slice(bom.length);
  const lines = Object.entries(fields).map(([field, value]) => ({ field, line: frontMatterLine(field, value) }));
  // gray-matter's rule: front matter opens with `---` not followed by another `-`, and closes at the next "\n---".
  if (!hasFrontMatter(body)) return `${bom}---\n${lines.map((l) => l.line).join('\n')}\n---\n${body}`;
  if (!body.includes('\n')) body = `${body}\n---\n`;
  const openEnd = body.indexOf('\n');
  const eol = body.charAt(openEnd - 1) === '\r' ? '\r\n' : '\n';
  const added: string[] = [];
  for (const { field, line } of lines) {
    const closeAt = body.indexOf('\n---', openEnd);
    const block = body.slice(openEnd + 1, closeAt === -1 ? body.length : closeAt + 1);
    // The key's top-level line, with any indented lines that continue its value.
    const existing = new RegExp(`^${field}[ \\t]*:[^\\n]*(?:\\n[ \\t]+[^\\n]*)*`, 'm').exec(block);
    if (!existing) {
      added.push(line);
      continue;
    }
    const ending = existing[0].endsWith('\r') ? '\r' : '';
    const start = openEnd + 1 + existing.index;
    body = `${body.slice(0, start)}${line}${ending}${body.slice(start + existing[0].length)}`;
  }
  const top = added.map((line) => `${line}${eol}`).join('');
  return `${bom}${body.slice(0, openEnd + 1)}${top}${body.slice(openEnd + 1)}`;
}

/**
 * The key a file's front matter names its publish time with (`publish_at`, or the `publishAt` or
 * `publishedAt` the author chose), so a new time is written in place of the old one, never beside it
 * (two times in one front matter are refused). `publish_at` when it has none, or no readable front matter.
 */
export function publishKeyOf(text: string): (typeof PUBLISH_KEYS)[number] {
  if (!hasFrontMatter(text)) return 'publish_at';
  try {
    const data = readFrontMatter(text.startsWith('\uFEFF') ? text.slice(1) : text).data as Record<string, unknown>;
    return PUBLISH_KEYS.find((key) => data[key] !== undefined) ?? 'publish_at';
  } catch {
    return 'publish_at';
  }
}

/**
 * The file without its front matter's publish time (under whichever key it names it), every other byte
 * as it was: for a post that is no longer scheduled, whose old time would ask for the schedule again.
 */
export function withoutPublishTime(text: string): string {
  if (!hasFrontMatter(text)) return text;
  const openEnd = text.indexOf('\n');
  const closeAt = text.indexOf('\n---', openEnd);
  if (openEnd === -1 || closeAt === -1) return text;
  const block = text.slice(openEnd + 1, closeAt + 1);
  // The key's top-level line, with any indented lines that continue its value, and its line ending.
  const line = new RegExp(`^${publishKeyOf(text)}[ \\t]*:[^\\n]*(?:\\n[ \\t]+[^\\n]*)*\\n`, 'm').exec(block);
  if (!line) return text;
  const start = openEnd + 1 + line.index;
  return `${text.slice(0, start)}${text.slice(start + line[0].length)}`;
}

/** The file with `id: <id>` as its first front-matter line, or in place of its `id:` line (see setFrontMatterFields). */
export function setFrontMatterId(text: string, id: string, options: { fileName?: string } = {}): string {
  return setFrontMatterFields(text, { id }, options);
}
