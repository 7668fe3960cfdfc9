/**
 * The commands that read and change posts already on the server, each over the blog API with the
 * key's permissions (its owner's posts with blog:write, any with blog:admin):
 *
 *   list [--mine] [--status S] ...      GET /api/blog (a table, CSV or JSON)
 *   get <post> [--markdown]             GET /api/blog/:idOrSlug (a summary, JSON, or a Markdown file
 *                                       that `publish` takes back unchanged)
 *   unpublish <post>                    PATCH status draft
 *   delete <post>                       DELETE: to the trash for 30 days, its page answers 410
 *   restore <post>                      POST /:id/restore
 *   history <post>                      GET /:id/revisions
 *   revert <post> <revision>            POST /:id/revisions/:n/revert
 *   schedule <file|post> --at <time>    publish a file as scheduled, or PATCH status scheduled
 *   review list | approve <post> | return <post> --note <text>
 *                                       the compliance review queue (blog:admin): GET ?status=in_review,
 *                                       POST /:id/review
 *
 * `<post>` is an id, a slug, or a post file published before (its front matter holds the id). Every
 * change sends the ETag it just read as If-Match, so it never overwrites a change it has not seen.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parsePublishAt } from '../../contract/blog';
import type { PostReview } from '../../contract/blog';
import { LIST_LIMITS, type BlogPostSummary, type ListPostsResponse } from '../../contract/blog-reader';
import type { PostWriteResponse, RevisionsResponse } from '../../contract/post-lifecycle';
import { loadPostMarkdown, postSourceFile, setFrontMatterFields } from '../../api/operations';
import { ApiClient, type ClientOptions, refusal } from '../api-client';
import type { CommandContext } from '../context';
import { printable, table } from '../output';
import { CliError, ExitCode } from '../exit-codes';
import { describeChanges, fetchPost, POST_FILE, postRef } from '../post-target';
import { publishCommand, type PublishOptions } from './publish';

interface JsonOption {
  json?: boolean;
}

export type ChangeOptions = ClientOptions & JsonOption;

export interface ListOptions extends ClientOptions, JsonOption {
  mine?: boolean;
  status?: string;
  author?: string;
  category?: string;
  tag?: string;
  page?: number;
  limit?: number;
  all?: boolean;
  format?: 'table' | 'csv';
}

export interface GetOptions extends ClientOptions, JsonOption {
  markdown?: boolean;
  output?: string;
  force?: boolean;
}

function when(iso: string | null | undefined): string {
  return iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : '';
}

/** The date a list shows for a post: when it went or goes live, or when it was deleted or last changed. */
function listDate(post: BlogPostSummary): string {
  if (post.deleted_at) return `deleted ${when(post.deleted_at)}`;
  if (post.status === 'in_review') return `held ${when(post.review?.submitted_at ?? post.updated_at)}`;
  if (post.review?.state === 'returned') return `sent back ${when(post.review.decided_at ?? post.updated_at)}`;
  if (post.status === 'scheduled') return `goes live ${when(post.publish_at)}`;
  if (post.status === 'published') return when(post.published_at);
  return `changed ${when(post.updated_at)}`;
}


/** One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

const CSV_COLUMNS = ['id', 'status', 'title', 'slug', 'category', 'tags', 'author', 'created_at', 'updated_at', 'published_at', 'publish_at', 'deleted_at', 'revision', 'url'] as const;

function csvRow(post: BlogPostSummary, origin: string): string {
  const cells: Record<(typeof CSV_COLUMNS)[number], string> = {
    id: post.id,
    status: post.deleted_at ? 'trashed' : post.status,
    title: post.title,
    slug: post.slug,
    category: post.category.slug,
    tags: post.tags.join('; '),
    author: post.author.name,
    created_at: post.created_at,
    updated_at: post.updated_at,
    published_at: post.published_at ?? '',
    publish_at: post.publish_at ?? '',
    deleted_at: post.deleted_at ?? '',
    revision: String(post.revision),
    url: `${origin}/blog/${post.slug}`,
  };
  return CSV_COLUMNS.map((column) => csvField(cells[column])).join(',');
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A post's status as a list shows it: a draft the compliance review sent back says so. */
function listStatus(post: BlogPostSummary): string {
  if (post.deleted_at) return 'trashed';
  if (post.status === 'draft' && post.review?.state === 'returned') return 'draft (sent back)';
  return post.status;
}

/** What an author reads under the table about posts in the compliance review: who releases them, and the reviewer's notes. */
function reviewLines(posts: readonly BlogPostSummary[]): string[] {
  const held = posts.filter((post) => post.status === 'in_review' && !post.deleted_at);
  const returned = posts.filter((post): post is BlogPostSummary & { review: PostReview } => post.status === 'draft' && post.review?.state === 'returned' && !post.deleted_at);
  const lines: string[] = [];
  if (held.length > 0) {
    const one = held.length === 1;
    lines.push(`${held.length} post${one ? ' is' : 's are'} held for compliance review: a staff member approves ${one ? 'it' : 'them'} at /admin/review; ${one ? 'it is' : 'they are'} not public until then.`);
    for (const post of held) lines.push(`  ${post.id}: waits to be ${post.review?.requested_status ?? 'published'}${post.review?.rules.length ? ` (held for ${post.review.rules.join(', ')})` : ''}`);
  }
  if (returned.length > 0) {
    lines.push(`${returned.length} post${returned.length === 1 ? ' was' : 's were'} sent back by the compliance review (a draft again): edit as the note says and publish again.`);
    for (const post of returned) lines.push(`  ${post.id} "${shorten(printable(post.title), 60)}": ${post.review.note ? printable(post.review.note) : '(no note)'}`);
  }
  return lines;
}

export async function listCommand(options: ListOptions, ctx: CommandContext): Promise<ExitCode> {
  if (options.json && options.format) throw new CliError('Pass either --json or --format, not both.', ExitCode.Usage);
  const client = new ApiClient(options, ctx, { keyRequired: options.mine === true || (options.status !== undefined && options.status !== 'published') });
  const limit = options.all ? LIST_LIMITS.maxLimit : (options.limit ?? LIST_LIMITS.defaultLimit);
  const posts: BlogPostSummary[] = [];
  let page = options.all ? 1 : (options.page ?? 1);
  let last: ListPostsResponse;
  for (;;) {
    const query = new URLSearchParams({ page: String(page), limit: String(limit) });
    if (options.mine) query.set('mine', '1');
    for (const name of ['status', 'author', 'category', 'tag'] as const) {
      const value = options[name];
      if (value !== undefined) query.set(name, value);
    }
    const answer = await client.send('GET', `/api/blog?${query}`, { label: 'Listing posts' });
    if (answer.status !== 200) throw refusal(answer, 'Could not list the posts');
    last = answer.json as ListPostsResponse;
    posts.push(...last.posts);
    if (!options.all || page * limit >= last.total || last.posts.length === 0) break;
    page += 1;
  }

  if (options.json) {
    ctx.out.json(options.all ? { success: true, posts, total: last.total } : last);
    return ExitCode.Ok;
  }
  if (options.format === 'csv') {
    ctx.out.data([CSV_COLUMNS.join(','), ...posts.map((post) => csvRow(post, client.origin))].join('\n'));
    return ExitCode.Ok;
  }
  if (posts.length === 0) {
    ctx.out.info(options.mine ? 'You have no posts here yet (blogpost publish post.md creates one).' : 'No posts match.');
    return ExitCode.Ok;
  }
  ctx.out.data(
    table([
      ['ID', 'STATUS', 'DATE', 'TITLE'],
      ...posts.map((post) => [post.id, listStatus(post), listDate(post), shorten(post.title, 60)]),
    ]),
  );
  for (const line of reviewLines(posts)) ctx.out.info(line);
  if (!options.all) {
    const first = (last.page - 1) * last.limit + 1;
    const pages = Math.max(1, Math.ceil(last.total / last.limit));
    const more = last.page < pages ? `: --page ${last.page + 1} for more, or --all` : '';
    ctx.out.info(ctx.out.dim(`Posts ${first}-${first + posts.length - 1} of ${last.total} (page ${last.page} of ${pages})${more}.`));
  }
  return ExitCode.Ok;
}

export async function getCommand(target: string, options: GetOptions, ctx: CommandContext): Promise<ExitCode> {
  if (options.output && !options.markdown) throw new CliError('--output writes the Markdown file: add --markdown.', ExitCode.Usage);
  const client = new ApiClient(options, ctx, { keyRequired: false });
  const { post, etag } = await fetchPost(client, await postRef(target, ctx));
  if (options.markdown) {
    // A post written in Markdown comes back as its author's file (decision 0022); one written as HTML is converted.
    const markdown = post.source ? postSourceFile({ ...post, source: post.source }) : setFrontMatterFields((await loadPostMarkdown()).postToMarkdown(post), { id: post.id, revision: post.revision });
    if (!options.output || options.output === '-') {
      ctx.out.data(markdown);
      return ExitCode.Ok;
    }
    const file = path.resolve(ctx.io.cwd, options.output);
    if (existsSync(file) && !options.force) throw new CliError(`${options.output} exists: pass --force to overwrite it, or another --output.`, ExitCode.Failed);
    try {
      writeFileSync(file, markdown);
    } catch (error) {
      throw new CliError(`Cannot write ${options.output}: ${(error as Error).message}`, ExitCode.Local);
    }
    ctx.out.success(`Wrote "${post.title}" (revision ${post.revision}) to ${options.output}: edit it, then blogpost publish ${options.output} updates the post.`);
    return ExitCode.Ok;
  }
  if (options.json) {
    ctx.out.json({ success: true, post, etag });
    return ExitCode.Ok;
  }
  const lines: Array<[string, string]> = [
    ['title', post.title],
    ['id', post.id],
    ['status', post.deleted_at ? `in the trash since ${when(post.deleted_at)} (purged ${when(post.purge_at)})` : post.status],
    ['url', `${client.origin}/blog/${post.slug}`],
    ['revision', `${post.revision} (ETag ${etag})`],
    ['category', post.category.name],
    ['tags', post.tags.join(', ') || '(none)'],
    ['author', post.author.name],
    ['created', when(post.created_at)],
    ['updated', when(post.updated_at)],
  ];
  if (post.published_at) lines.push(['published', when(post.published_at)]);
  if (post.publish_at) lines.push(['goes live', when(post.publish_at)]);
  if (post.review?.state === 'pending') lines.push(['review', `held for compliance review since ${when(post.review.submitted_at)} (${post.review.rules.join(', ')}): a staff member approves it at /admin/review`]);
  if (post.review?.state === 'returned') lines.push(['review', `sent back ${when(post.review.decided_at)}: ${post.review.note ? printable(post.review.note) : '(no note)'}`]);
  const width = Math.max(...lines.map(([name]) => name.length));
  ctx.out.data(lines.map(([name, value]) => `${name.padEnd(width)}  ${value}`).join('\n'));
  return ExitCode.Ok;
}

/** Reads the post, then sends one change with its ETag as If-Match; prints the outcome. */
async function change(
  target: string,
  options: ChangeOptions,
  ctx: CommandContext,
  what: string,
  request: (id: string) => { method: string; path: string; body?: unknown },
  describe: (answer: PostWriteResponse, origin: string) => string,
): Promise<ExitCode> {
  const client = new ApiClient(options, ctx, { keyRequired: true });
  const { post, etag } = await fetchPost(client, await postRef(target, ctx));
  const { method, path: apiPath, body } = request(post.id);
  const answer = await client.send(method, apiPath, { ...(body !== undefined ? { body } : {}), headers: { 'If-Match': etag }, label: `${what} "${post.title}"` });
  if (answer.status !== 200) throw refusal(answer, `Not ${what.toLowerCase()}`);
  const written = answer.json as PostWriteResponse;
  if (options.json) ctx.out.json(written);
  else {
    ctx.out.success(describe(written, client.origin));
    for (const line of describeChanges(written.changed)) ctx.out.info(line);
    for (const warning of written.warnings) ctx.out.warn(warning);
  }
  return ExitCode.Ok;
}

export function unpublishCommand(target: string, options: ChangeOptions, ctx: CommandContext): Promise<ExitCode> {
  return change(
    target,
    options,
    ctx,
    'Unpublished',
    (id) => ({ method: 'PATCH', path: `/api/blog/${id}`, body: { status: 'draft', publish_at: null } }),
    (answer) =>
      answer.changed.length === 0
        ? `"${answer.post.title}" is already a draft: nothing changed.`
        : `"${answer.post.title}" is a draft again (revision ${answer.post.revision}): it is off the site, the lists, the feed and the sitemap. Publish it again with blogpost publish, or PATCH status published.`,
  );
}

export function deleteCommand(target: string, options: ChangeOptions, ctx: CommandContext): Promise<ExitCode> {
  return change(
    target,
    options,
    ctx,
    'Deleted',
    (id) => ({ method: 'DELETE', path: `/api/blog/${id}` }),
    (answer) =>
      `Moved "${answer.post.title}" to the trash: its page answers 410 Gone. Bring it back before ${when(answer.post.purge_at)} with: blogpost restore ${answer.post.id}`,
  );
}

export function restoreCommand(target: string, options: ChangeOptions, ctx: CommandContext): Promise<ExitCode> {
  return change(
    target,
    options,
    ctx,
    'Restored',
    (id) => ({ method: 'POST', path: `/api/blog/${id}/restore` }),
    (answer, origin) => `Restored "${answer.post.title}" as ${answer.post.status}${answer.post.status === 'published' ? `: ${origin}/blog/${answer.post.slug}` : ''}.`,
  );
}

export function revertCommand(target: string, revision: number, options: ChangeOptions, ctx: CommandContext): Promise<ExitCode> {
  return change(
    target,
    options,
    ctx,
    'Reverted',
    (id) => ({ method: 'POST', path: `/api/blog/${id}/revisions/${revision}/revert` }),
    (answer) =>
      answer.changed.length === 0
        ? `"${answer.post.title}" already has the content of revision ${revision}: nothing changed.`
        : `"${answer.post.title}" has the content of revision ${revision} again, as revision ${answer.post.revision} (the version it replaced is kept: blogpost history ${answer.post.id}).`,
  );
}

export async function historyCommand(target: string, options: ChangeOptions, ctx: CommandContext): Promise<ExitCode> {
  const client = new ApiClient(options, ctx, { keyRequired: true });
  const ref = await postRef(target, ctx);
  const answer = await client.send('GET', `/api/blog/${encodeURIComponent(ref)}/revisions`, { label: 'Reading the history' });
  if (answer.status !== 200) throw refusal(answer, 'Could not read the history');
  const history = answer.json as RevisionsResponse;
  if (options.json) {
    ctx.out.json(history);
    return ExitCode.Ok;
  }
  ctx.out.info(`Post ${history.post.id} (${history.post.slug}) is at revision ${history.post.revision}.`);
  // Every version, the current one first: when it was made, by whom, what it changed and why.
  const row = (version: RevisionsResponse['current'], mark: string) => [
    `${version.revision}${mark}`,
    when(version.made_at),
    version.made_by ?? '-',
    version.status,
    shorten(version.title, 40),
    version.fields.length > 0 ? version.fields.join(', ') : '-',
    version.why === null ? '-' : shorten(version.why, 60),
  ];
  ctx.out.data(table([['REVISION', 'MADE', 'BY', 'STATUS', 'TITLE', 'CHANGED', 'WHY'], row(history.current, ' (now)'), ...history.revisions.map((kept) => row(kept, ''))]));
  if (history.revisions.length === 0) ctx.out.info('No earlier versions: it has not been changed since it was created.');
  else ctx.out.info(ctx.out.dim(`Bring one back with: blogpost revert ${history.post.id} <revision>`));
  return ExitCode.Ok;
}

export async function scheduleCommand(target: string, options: PublishOptions, ctx: CommandContext): Promise<ExitCode> {
  const at = options.at ?? '';
  const parsed = parsePublishAt(at);
  if (!parsed.ok) throw new CliError(`--at ${at}: ${parsed.message}`, ExitCode.Usage);
  if (parsed.at.getTime() <= Date.now()) throw new CliError(`--at ${at} is in the past: give a time to come, with its offset, e.g. 2026-12-01T09:00:00-05:00.`, ExitCode.Usage);
  if (target === '-' || (POST_FILE.test(target) && existsSync(path.resolve(ctx.io.cwd, target)))) {
    return publishCommand(target, { ...options, at }, ctx);
  }
  return change(
    target,
    options,
    ctx,
    'Scheduled',
    (id) => ({ method: 'PATCH', path: `/api/blog/${id}`, body: { status: 'scheduled', publish_at: at } }),
    (answer) => `"${answer.post.title}" goes live at ${answer.post.publish_at ?? at} (${when(answer.post.publish_at)}); until then it is not public.`,
  );
}

/** `blogpost review list`: the posts held for compliance review, the longest waiting first. */
export async function reviewListCommand(options: ChangeOptions, ctx: CommandContext): Promise<ExitCode> {
  const client = new ApiClient(options, ctx, { keyRequired: true });
  const answer = await client.send('GET', `/api/blog?status=in_review&limit=${LIST_LIMITS.maxLimit}`, { label: 'Reading the review queue' });
  if (answer.status !== 200) throw refusal(answer, 'Could not read the review queue');
  const held = [...(answer.json as ListPostsResponse).posts].sort((a, b) => ((a.review?.submitted_at ?? '') < (b.review?.submitted_at ?? '') ? -1 : 1));
  if (options.json) {
    ctx.out.json({ success: true, posts: held });
    return ExitCode.Ok;
  }
  if (held.length === 0) {
    ctx.out.info('No post is waiting for compliance review.');
    return ExitCode.Ok;
  }
  ctx.out.data(
    table([
      ['id', 'title', 'author', 'asks to be', 'held since', 'rules'],
      ...held.map((post) => [
        post.id,
        shorten(printable(post.title), 40),
        shorten(printable(post.author.name), 20),
        post.review?.requested_status === 'scheduled' ? `scheduled ${when(post.review.requested_publish_at)}` : 'published',
        when(post.review?.submitted_at),
        post.review?.rules.join(', ') ?? '',
      ]),
    ]),
  );
  ctx.out.info(`Read one with: blogpost get <id>; decide with: blogpost review approve <id>, or blogpost review return <id> --note "what to change".`);
  return ExitCode.Ok;
}

/** `blogpost review approve <post>`: the post goes live (or is scheduled) as its author asked. */
export function reviewApproveCommand(target: string, options: ChangeOptions & { code?: string; expires?: string; reason?: string }, ctx: CommandContext): Promise<ExitCode> {
  // The approval's code and expiry (decision 0028): the server generates a code and takes APPROVAL_VALID_MONTHS when they are left out.
  const approval = {
    ...(options.code !== undefined ? { approval_code: options.code } : {}),
    ...(options.expires !== undefined ? { approval_expires: options.expires } : {}),
    ...(options.reason !== undefined ? { reason: options.reason } : {}),
  };
  return change(target, options, ctx, 'Approved', (id) => ({ method: 'POST', path: `/api/blog/${id}/review`, body: { decision: 'approve', ...approval } }), (answer, origin) => {
    const under = /\(approval [^)]*\)/.exec(answer.message)?.[0];
    const approved = `Approved "${answer.post.title}"${under ? ` ${under}` : ''}`;
    return answer.post.status === 'scheduled' ? `${approved}: it goes live at ${when(answer.post.publish_at)}.` : `${approved}: it is on the site at ${origin}/blog/${answer.post.slug}.`;
  });
}

/** `blogpost review return <post> --note`: back to its author as a draft, with the note they read. */
export function reviewReturnCommand(target: string, options: ChangeOptions & { note: string }, ctx: CommandContext): Promise<ExitCode> {
  return change(target, options, ctx, 'Returned', (id) => ({ method: 'POST', path: `/api/blog/${id}/review`, body: { decision: 'return', note: options.note } }), (answer) =>
    `Returned "${answer.post.title}" to its author as a draft, with your note (they read it with blogpost list or blogpost get).`,
  );
}
