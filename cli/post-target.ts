/**
 * The post a command names: `<id|slug|file>` is a post file that was published before (its front
 * matter holds the post's `id`), or the post's id or slug. Fetching it gives the current version and
 * its ETag, which every change sends back as If-Match.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { BlogPost } from '../contract/blog-reader';
import type { FieldChange, GetPostByIdResponse } from '../contract/post-lifecycle';
import { parsePostFile, PostFileError } from '../api/operations';
import { type ApiClient, refusal } from './api-client';
import { type CommandContext, readInput } from './context';
import { CliError, ExitCode } from './exit-codes';

/** A file name a post file has (Markdown, HTML or JSON). */
export const POST_FILE = /\.(?:md|markdown|html?|json)$/i;

/** The id or slug `target` names: the id in a post file's front matter, or `target` itself. */
export async function postRef(target: string, ctx: CommandContext): Promise<string> {
  const full = path.resolve(ctx.io.cwd, target);
  const isFile = POST_FILE.test(target) || (existsSync(full) && statSync(full).isFile());
  if (!isFile) return target;
  const input = await readInput(target, ctx.io);
  let id: string | undefined;
  try {
    id = parsePostFile(input.text, { fileName: full }).id;
  } catch (error) {
    if (error instanceof PostFileError) throw new CliError(`${target}: ${error.message}`, ExitCode.Failed);
    throw error;
  }
  if (!id) throw new CliError(`${target} has no id in its front matter, so it names no post yet: publish it first (blogpost publish ${target}), or pass the post's id or slug.`, ExitCode.Failed);
  return id;
}

export interface FetchedPost {
  post: BlogPost;
  etag: string;
}

/** GET /api/blog/:idOrSlug with the key (drafts, scheduled and trashed posts of its owner too); follows a moved slug once. */
export async function fetchPost(client: ApiClient, ref: string): Promise<FetchedPost> {
  let answer = await client.send('GET', `/api/blog/${encodeURIComponent(ref)}`, { label: `Reading ${ref}` });
  if (answer.status === 301) {
    const moved = (answer.json as { location?: string } | undefined)?.location ?? answer.headers.location ?? '';
    const slug = moved.split('/').filter(Boolean).pop();
    if (slug) answer = await client.send('GET', `/api/blog/${encodeURIComponent(slug)}`, { label: `Reading ${slug}` });
  }
  if (answer.status !== 200) throw refusal(answer, `Could not read the post "${ref}"`);
  const body = answer.json as GetPostByIdResponse;
  return { post: body.post, etag: answer.headers.etag ?? body.etag };
}

function shown(value: unknown): string {
  if (value === null || value === undefined) return '(none)';
  const text = JSON.stringify(value);
  return text.length > 72 ? `${text.slice(0, 70)}…` : text;
}

/**
 * The changes an author reads: a changed Markdown source goes without saying beside a changed content
 * (the HTML is rendered from it), so it is named only on its own.
 */
export function shownChanges(changes: readonly FieldChange[]): FieldChange[] {
  return changes.some((change) => change.field === 'content') ? changes.filter((change) => change.field !== 'source') : [...changes];
}

/** One line per changed field: `title: "old" → "new"`; the content only as "changed" with its lengths. */
export function describeChanges(changes: readonly FieldChange[]): string[] {
  return shownChanges(changes).map((change) => {
    if (change.field === 'content' || change.field === 'source') {
      const before = typeof change.before === 'string' ? change.before.length : 0;
      const after = typeof change.after === 'string' ? change.after.length : 0;
      if (change.field === 'source' && change.after === null) return '  source: the Markdown the post was written as is no longer its text (it was changed another way)';
      return `  ${change.field}: changed (${before} → ${after} characters)`;
    }
    return `  ${change.field}: ${shown(change.before)} → ${shown(change.after)}`;
  });
}
