/**
 * Turns an author's file into a create-post payload: Markdown or HTML with YAML front matter, or a
 * JSON payload. Used by `blogpost publish` / `validate` and by the demo-content loader, so a file
 * that validates offline is exactly what gets sent. Markdown is rendered by post-markdown.ts (GFM
 * with footnotes); the front matter's rules (unknown keys, the publish time, the id) live in
 * front-matter.ts. A leading `# Heading` is the title when the front matter has none, and is dropped
 * when it only repeats the title (the page shows the title above the post).
 */
import type matter from 'gray-matter';
import { Marked, type Token } from 'marked';
import markedFootnote from 'marked-footnote';
import { FOOTNOTE_HEADING_CLASS } from '../services/sanitize';
import { complianceFrom } from './compliance-front-matter';
import { detectPostFileKind, hasFrontMatter, idFrom, PostFileError, type PostFileKind, publicationFrom, readFrontMatter, revisionFrom, withCoverAliases, withoutUnknownKeys } from './front-matter';
import { frontMatterSpans, jsonSpans, type PostFileSource } from './post-source';

export { detectPostFileKind, PostFileError, type PostFileKind, publishKeyOf, setFrontMatterFields, setFrontMatterId, withoutPublishTime } from './front-matter';
export type { PostFileSource, SourceField, SourceSpan } from './post-source';

interface FootnoteItem {
  label: string;
  refs: { id: string; label: string }[];
}

/**
 * marked-footnote builds ids and back-link labels from the author's labels (`[^my note]` gives
 * `footnote-my%20note`, and a quote in a label ends up unescaped in an attribute). Each note is given
 * its number as its label instead, so ids are `footnote-1`, `footnote-ref-1`, ... whatever was written.
 */
function numberFootnotes(token: Token): void {
  if ((token.type as string) !== 'footnotes') return;
  for (const item of (token as unknown as { items: FootnoteItem[] }).items) {
    const number = item.refs[0]?.id;
    if (!number) continue;
    item.label = number;
    for (const ref of item.refs) ref.label = number;
  }
}

/**
 * Markdown (GFM, with footnotes) as the HTML a post holds. A renderer per call: marked-footnote keeps
 * its numbering state in the instance.
 */
export function markdownToHtml(markdown: string): string {
  const renderer = new Marked({ gfm: true, async: false }).use(markedFootnote({ headingClass: FOOTNOTE_HEADING_CLASS }), { walkTokens: numberFootnotes });
  return (renderer.parse(markdown) as string).trim();
}

/** The text a reader sees of one line of Markdown (a heading's, say). */
function plainTextOfMarkdown(markdown: string): string {
  return plainText(new Marked({ gfm: true, async: false }).parseInline(markdown) as string);
}

export interface PostFile {
  kind: PostFileKind;
  /** The JSON body to send (checked by the contract's checkCreatePostBody before sending). */
  payload: Record<string, unknown>;
  /** The post's id from the front matter (`blogpost publish` wrote it there): update that post. Never in the payload. */
  id?: string;
  /** The revision of that post the file was written from (front matter `revision`), for If-Match. Never in the payload. */
  revision?: number;
  /**
   * The original publication date when the file back-dates a published post (`publish_at`, or the
   * older `publishedAt`, in the past), as the author wrote it; also in the payload as `publish_at`.
   */
  publishedAt?: string;
  /** What the conversion inferred, for the author to see. */
  notes: string[];
  /** What the author should fix: front-matter keys that are not post fields (they were not sent), accepts naming no rule. */
  warnings: string[];
  /** Where the title, excerpt and content sit in the file: findings about them are shown at their line there. */
  source: PostFileSource;
}

export interface ParsePostFileOptions {
  fileName?: string;
  kind?: PostFileKind;
  /** The clock the publish time is checked against (a future time schedules the post). */
  now?: Date;
  /**
   * Leave the front matter's status and publish time unread (the server reading a post's source: the
   * status is the request's, and a time the file names may have passed since, as the post went live).
   */
  withoutPublication?: boolean;
}

function plainText(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

function leadingSpace(text: string): number {
  return text.length - text.trimStart().length;
}

function firstParagraph(html: string): string | undefined {
  const match = /<p>([\s\S]*?)<\/p>/i.exec(html);
  // Footnote references are numbers in superscript: not part of the sentence.
  return match?.[1] ? plainText(match[1].replace(/<sup><a [^>]*data-footnote-ref[^>]*>[\s\S]*?<\/a><\/sup>/g, '')) : undefined;
}

function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max / 2)).trimEnd()}…`;
}

/** Front matter values as YAML gives them, with dates turned back into ISO text. */
function normalise(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(normalise);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalise(v)]));
  }
  return value;
}

/** Titles compared as a reader sees them: case and runs of spaces do not count. */
function sameTitle(a: string, b: string): boolean {
  const key = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();
  return key(a) === key(b);
}

function parseJson(text: string): PostFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new PostFileError(`The file is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof parsed === 'string' && /^\s*\{/.test(parsed)) {
    throw new PostFileError('The file holds a JSON string with the post inside: it was serialised twice. Save the JSON object itself.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new PostFileError('A JSON post file must hold one object with the post fields (title, content, ...).');
  }
  const spans = jsonSpans(text);
  return { kind: 'json', payload: parsed as Record<string, unknown>, notes: [], warnings: [], source: { fields: spans.values, keys: spans.keys } };
}

export function parsePostFile(text: string, options: ParsePostFileOptions = {}): PostFile {
  const kind = options.kind ?? detectPostFileKind(options.fileName, text);
  if (kind === 'json') return parseJson(text);

  let file: matter.GrayMatterFile<string>;
  try {
    file = readFrontMatter(text);
  } catch (error) {
    if (error instanceof PostFileError) throw error;
    throw new PostFileError(`The front matter is not valid YAML: ${(error as Error).message}`);
  }
  const data: unknown = file.data ?? {};
  if (typeof data !== 'object' || data === null || Array.isArray(data) || data instanceof Date) {
    throw new PostFileError('The front matter (between the --- lines at the top of the file) must be YAML keys and values, e.g. "title: My post". A file that starts with a --- rule needs a line of text before it.');
  }
  const fields = data as Record<string, unknown>;
  const rawMatter = hasFrontMatter(text) ? file.matter : '';
  const publication = options.withoutPublication ? { notes: [] } : publicationFrom(fields, rawMatter, options.now ?? new Date());
  const id = idFrom(fields.id);
  const revision = revisionFrom(fields.revision);
  const known = withoutUnknownKeys(normalise(fields) as Record<string, unknown>);
  const { id: _id, revision: _revision, publish_at: _publishAt, publishAt: _camel, publishedAt: _published, compliance: rawCompliance, ...front } = withCoverAliases(known.front);
  const compliance = complianceFrom(rawCompliance, rawMatter);
  if (compliance.value) front.compliance = compliance.value;
  const notes: string[] = [...publication.notes];
  // gray-matter's content is the end of the text: where it starts in the file, for source positions.
  const matterStart = rawMatter ? text.indexOf(rawMatter, 3) : 0;
  const { keys, values } = frontMatterSpans(rawMatter, matterStart);
  const sourceFields: PostFileSource['fields'] = { ...(values.title ? { title: values.title } : {}), ...(values.excerpt ? { excerpt: values.excerpt } : {}) };
  let bodyStart = text.length - file.content.length + leadingSpace(file.content);
  let body = file.content.trim();

  // A leading "# Title" is the title when the front matter has none; when it repeats the title it
  // goes (the page shows the title above the post); a different heading stays.
  const heading = kind === 'markdown' ? /^#[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*(?:\r?\n|$)/.exec(body) : /^<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(body);
  if (heading?.[1]) {
    const headingText = kind === 'markdown' ? plainTextOfMarkdown(heading[1]) : plainText(heading[1]);
    const removed = () => {
      const rest = body.slice(heading[0].length);
      bodyStart += heading[0].length + leadingSpace(rest);
      body = rest.trim();
    };
    if (typeof front.title !== 'string' || front.title.trim() === '') {
      front.title = headingText;
      notes.push('title taken from the first heading');
      const textAt = heading[0].indexOf(heading[1]);
      sourceFields.title = { start: bodyStart + textAt, end: bodyStart + textAt + heading[1].length };
      removed();
    } else if (sameTitle(front.title, headingText)) {
      notes.push(`removed the leading heading "${headingText}": the title is shown above the post`);
      removed();
    }
  }
  sourceFields.content = { start: bodyStart, end: bodyStart + body.length };

  const content = kind === 'markdown' ? markdownToHtml(body) : body;
  if (typeof front.excerpt !== 'string' || front.excerpt.trim() === '') {
    const paragraph = firstParagraph(content);
    if (paragraph) {
      front.excerpt = shorten(paragraph, 240);
      notes.push('excerpt taken from the first paragraph');
      sourceFields.excerpt = sourceFields.content;
    }
  }

  const payload: Record<string, unknown> = { ...front, ...(content ? { content } : {}) };
  if (publication.status !== undefined) payload.status = publication.status;
  if (publication.publishAt !== undefined) payload.publish_at = publication.publishAt;
  return {
    kind,
    payload,
    ...(id !== undefined ? { id } : {}),
    ...(revision !== undefined ? { revision } : {}),
    ...(publication.publishedAt !== undefined ? { publishedAt: publication.publishedAt } : {}),
    notes,
    warnings: [...known.warnings, ...compliance.warnings],
    source: { body: { start: bodyStart, text: body }, fields: sourceFields, keys },
  };
}
