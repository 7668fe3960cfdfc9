/**
 * Turns an author's file into a create-post payload: Markdown or HTML with YAML front matter, or a
 * JSON payload. Used by `blogpost publish` / `validate` and by the demo-content loader, so a file
 * that validates offline is exactly what gets sent.
 */
import matter from 'gray-matter';
import { marked } from 'marked';

export type PostFileKind = 'markdown' | 'html' | 'json';

export interface PostFile {
  kind: PostFileKind;
  /** The JSON body to send (checked by the contract's checkCreatePostBody before sending). */
  payload: Record<string, unknown>;
  /** `publishedAt` from the front matter, when given (demo content keeps its dates). */
  publishedAt?: string;
  /** What the conversion inferred, for the author to see. */
  notes: string[];
}

export class PostFileError extends Error {
  override name = 'PostFileError';
}

export function detectPostFileKind(fileName: string | undefined, text: string): PostFileKind {
  const ext = fileName?.toLowerCase().match(/\.([a-z]+)$/)?.[1];
  if (ext === 'json') return 'json';
  if (ext === 'html' || ext === 'htm') return 'html';
  if (ext === 'md' || ext === 'markdown') return 'markdown';
  const start = text.trimStart();
  if (start.startsWith('{') || start.startsWith('"')) return 'json';
  if (/^<(?:!doctype|html|article|section|h[1-6]|p|div)\b/i.test(start)) return 'html';
  return 'markdown';
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

function firstParagraph(html: string): string | undefined {
  const match = /<p>([\s\S]*?)<\/p>/i.exec(html);
  return match?.[1] ? plainText(match[1]) : undefined;
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

export function parsePostFile(text: string, options: { fileName?: string; kind?: PostFileKind } = {}): PostFile {
  const kind = options.kind ?? detectPostFileKind(options.fileName, text);
  if (kind === 'json') {
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
    return { kind, payload: parsed as Record<string, unknown>, notes: [] };
  }

  let file: matter.GrayMatterFile<string>;
  try {
    // Passing options turns off gray-matter's cache, which is keyed by the text itself (and so
    // answers inherited properties for texts such as "toString").
    file = matter(text, {});
  } catch (error) {
    throw new PostFileError(`The front matter is not valid YAML: ${(error as Error).message}`);
  }
  const front = normalise(file.data) as Record<string, unknown>;
  const notes: string[] = [];
  let body = file.content.trim();

  // A leading "# Title" is the title when the front matter has none; it never stays in the content.
  const heading = kind === 'markdown' ? /^#\s+(.+)\n?/.exec(body) : /^<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(body);
  if (heading?.[1]) {
    if (typeof front.title !== 'string' || front.title.trim() === '') {
      front.title = plainText(heading[1]);
      notes.push('title taken from the first heading');
    }
    body = body.slice(heading[0].length).trim();
  }

  const content = kind === 'markdown' ? (marked.parse(body, { async: false, gfm: true }) as string).trim() : body;
  if (typeof front.excerpt !== 'string' || front.excerpt.trim() === '') {
    const paragraph = firstParagraph(content);
    if (paragraph) {
      front.excerpt = shorten(paragraph, 240);
      notes.push('excerpt taken from the first paragraph');
    }
  }

  const { publishedAt, ...payload } = front;
  return {
    kind,
    payload: { ...payload, ...(content ? { content } : {}) },
    ...(typeof publishedAt === 'string' ? { publishedAt } : {}),
    notes,
  };
}
