/**
 * A post's Markdown source (decision 0022): the file its author wrote, sent by `blogpost publish` as
 * `source` beside the post's fields, kept by the server, and given back by `blogpost get --markdown`
 * byte for byte, with only the front matter's `id`, `revision`, `status` (and publish time) set to what
 * the post is now. The server renders the post's HTML from it here, with the pictures the CLI uploaded
 * in place of the author's local paths, and finds its compliance findings in it with the very code the
 * CLI runs on the file (file-findings.ts), so both report the same line and column.
 */
import type { BlogPost } from '../../contract/blog-reader';
import type { ComplianceFinding } from '../../contract/compliance';
import { offlineFindings } from './file-findings';
import { hasFrontMatter, publishKeyOf, readFrontMatter, setFrontMatterFields } from './front-matter';
import { parsePostFile, type PostFile, withoutPublishTime } from './post-file';

/** The front-matter keys the CLI and the server write themselves: not the author's text. */
const BOOKKEEPING_KEYS = ['id', 'revision', 'status', 'publish_at', 'publishAt', 'publishedAt'];

/**
 * The source without the front-matter lines the CLI and the server write (`id`, `revision`, `status`
 * and the publish time): two files that differ only there hold the same text, so publishing a pulled
 * file unchanged changes nothing.
 */
export function sourceKey(text: string): string {
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = text.slice(bom.length);
  if (!hasFrontMatter(body)) return text;
  const openEnd = body.indexOf('\n');
  const closeAt = body.indexOf('\n---', openEnd);
  if (openEnd === -1 || closeAt === -1) return text;
  const block = body.slice(openEnd + 1, closeAt + 1);
  // Each key's top-level line, with any indented lines that continue its value.
  const kept = block.replace(new RegExp(`^(?:${BOOKKEEPING_KEYS.join('|')})[ \\t]*:[^\\n]*\\n(?:[ \\t]+[^\\n]*\\n)*`, 'gm'), '');
  return `${bom}${body.slice(0, openEnd + 1)}${kept}${body.slice(closeAt + 1)}`;
}

/**
 * The body of a source: the Markdown after its front matter, as written. Two versions whose bodies are
 * the same have the same text, whatever their front matter says (its fields are compared one by one).
 */
export function sourceBody(text: string): string {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (!hasFrontMatter(body)) return body;
  const openEnd = body.indexOf('\n');
  const closeAt = body.indexOf('\n---', openEnd);
  if (openEnd === -1 || closeAt === -1) return body;
  const lineEnd = body.indexOf('\n', closeAt + 1);
  return lineEnd === -1 ? '' : body.slice(lineEnd + 1);
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };

/** An attribute value of rendered HTML, its entities read. */
function decoded(value: string): string {
  return value.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ENTITIES[name] ?? '');
}

/**
 * The HTML of a rendered source with each `<img>` whose `src` (as rendered, its entities read) the CLI
 * uploaded pointing at that upload (its media id, which the server resolves to the picture's variants).
 */
function withUploads(html: string, images: Readonly<Record<string, string>>): string {
  // An `<img>` written as HTML in the Markdown may quote its src either way, or not at all.
  return html.replace(/<img\b[^>]*>/gi, (tag) =>
    tag.replace(/(\ssrc\s*=\s*)(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i, (whole, before: string, double?: string, single?: string, bare?: string) => {
      const src = decoded(double ?? single ?? bare ?? '');
      const id = Object.hasOwn(images, src) ? images[src] : undefined;
      return id === undefined ? whole : `${before}"${id}"`;
    }),
  );
}

/** A source read as the CLI reads the file: its parts, the HTML its body renders to (pictures as their uploads). */
export function renderSource(text: string, images: Readonly<Record<string, string>>, now: Date): { file: PostFile; content: string } {
  const file = parsePostFile(text, { kind: 'markdown', now, withoutPublication: true });
  const html = typeof file.payload.content === 'string' ? file.payload.content : '';
  return { file, content: withUploads(html, images) };
}

/**
 * The compliance findings of a source, each with its line and column in the file as sent (`source`):
 * what `blogpost lint` reports on that file. Null when the text no longer reads as a post file.
 */
export function sourceFindings(text: string, now: Date = new Date()): ComplianceFinding[] | null {
  let file: PostFile;
  try {
    file = parsePostFile(text, { kind: 'markdown', now, withoutPublication: true });
  } catch {
    return null;
  }
  return offlineFindings({ kind: 'markdown', payload: file.payload, source: file.source, text }).map(({ line, column, ...finding }) =>
    line !== null ? { ...finding, source: { line, column: column ?? 1 } } : finding,
  );
}

/** The status a file says for a post: one held for review stands for the status its author asked for. */
function fileStatus(post: Pick<BlogPost, 'status' | 'publish_at' | 'review'>): { status: string; publishAt: string | null } {
  if (post.status === 'in_review') return { status: post.review?.requested_status ?? 'published', publishAt: post.review?.requested_publish_at ?? null };
  return { status: post.status, publishAt: post.status === 'scheduled' ? post.publish_at : null };
}

/** The status the source's front matter names, if it reads. */
function writtenStatus(text: string): unknown {
  try {
    return (readFrontMatter(text.startsWith('\uFEFF') ? text.slice(1) : text).data as Record<string, unknown>).status;
  } catch {
    return undefined;
  }
}

/**
 * The post's source as `blogpost get --markdown` writes it: the author's file exactly, with `id`,
 * `revision` and `status` (and, for a scheduled post, the publish time) set to the post's, each in place
 * of its line or added at the top of the front matter as `blogpost publish` adds them; a publish time
 * that would schedule a post no longer scheduled is taken out.
 */
export function postSourceFile(post: Pick<BlogPost, 'id' | 'revision' | 'status' | 'publish_at' | 'review'> & { source: { text: string } }): string {
  const { status, publishAt } = fileStatus(post);
  let text = post.source.text;
  if (status !== 'scheduled' && writtenStatus(text) === 'scheduled') text = withoutPublishTime(text);
  const time = status === 'scheduled' && publishAt ? { [publishKeyOf(text)]: publishAt } : {};
  return setFrontMatterFields(text, { id: post.id, revision: post.revision, status, ...time }, { fileName: 'post.md' });
}
