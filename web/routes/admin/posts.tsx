/**
 * /admin/posts: every post in every status (or the trash), a page at a time (25, newest first), with a
 * GET filter form (title search, status, author, category, whether the compliance rules find anything)
 * and page links that work without JavaScript. Bulk unpublish, trash and restore: tick posts, pick the
 * action, and a confirmation page (a GET, so it works without JavaScript) lists exactly what will change;
 * its POST runs each post's change through the post service as any single change (revision, audit,
 * a post changed since the confirmation is refused) and the list then says what happened to each.
 */
import type { ReactNode } from 'react';
import { Form, Link, data } from 'react-router';
import type { Route } from './+types/posts';
import { BLOG_CATEGORIES } from '../../../contract/categories';
import type { BulkOutcome, FindingTally, StaffPost, StaffPostListQuery, StaffViewer } from '../../../contract/staff-area';
import { configFromMatches, pageMeta } from '../../seo/meta';
import { AdminShell, CsrfField, FilterSelect } from './AdminShell';
import { adminHeaders, field, requireViewer } from './admin-route';
import { when } from './lead-format';

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(configFromMatches(matches), { title: 'Posts', description: 'Every blog post, in every status.', path: '/admin/posts', noindex: true });

export const headers = adminHeaders;

const STATUSES = ['published', 'draft', 'scheduled', 'in_review', 'trashed'] as const;
type Status = (typeof STATUSES)[number];
const STATUS_LABELS: Record<Status, string> = { published: 'published', draft: 'draft', scheduled: 'scheduled', in_review: 'in review', trashed: 'in the trash' };
const BULK_ACTIONS = ['unpublish', 'trash', 'restore'] as const;
type BulkAction = (typeof BULK_ACTIONS)[number];
const posts = (count: number) => `${count} post${count === 1 ? '' : 's'}`;
const BULK_VERBS: Record<BulkAction, { button: string; done: string; confirm: (count: number) => string }> = {
  unpublish: { button: 'Unpublish', done: 'unpublished', confirm: (count) => `Unpublish ${posts(count)}` },
  trash: { button: 'Move to the trash', done: 'moved to the trash', confirm: (count) => `Move ${posts(count)} to the trash` },
  restore: { button: 'Restore', done: 'restored', confirm: (count) => `Restore ${posts(count)}` },
};
/** The most posts one bulk change takes (a page holds 25; the limit keeps one request short). */
const BULK_MAX = 200;

/** The list's filters from the address (unknown values are ignored, never an error). */
export function listQuery(params: URLSearchParams): StaffPostListQuery {
  const status = params.get('status') ?? '';
  const q = (params.get('q') ?? '').trim().slice(0, 200);
  const author = (params.get('author') ?? '').slice(0, 200);
  const category = params.get('category') ?? '';
  const findings = params.get('findings');
  const page = Number.parseInt(params.get('page') ?? '', 10);
  return {
    ...((STATUSES as readonly string[]).includes(status) ? { status: status as Status } : {}),
    ...(q ? { q } : {}),
    ...(author ? { author } : {}),
    ...(BLOG_CATEGORIES.some((known) => known.slug === category) ? { category } : {}),
    ...(findings === 'yes' || findings === 'no' ? { findings } : {}),
    ...(Number.isSafeInteger(page) && page > 1 ? { page } : {}),
  };
}

/** The list's address for these filters (and page). */
export function listHref(query: StaffPostListQuery, page?: number): string {
  const params = new URLSearchParams();
  if (query.status) params.set('status', query.status);
  if (query.q) params.set('q', query.q);
  if (query.author) params.set('author', query.author);
  if (query.category) params.set('category', query.category);
  if (query.findings) params.set('findings', query.findings);
  const at = page ?? query.page;
  if (at && at > 1) params.set('page', String(at));
  const search = params.toString();
  return search ? `/admin/posts?${search}` : '/admin/posts';
}

interface PlannedChange {
  id: string;
  title: string;
  revision: number;
  from: string;
  /** What it becomes, or null when the action leaves it as it is (with why). */
  to: string | null;
  why: string | null;
}

function statusOf(post: StaffPost): string {
  return post.deletedAt ? 'in the trash' : (STATUS_LABELS[post.status as Status] ?? post.status);
}

/** What the action would do to this post, as the confirmation lists it. */
function plan(action: BulkAction, post: StaffPost): PlannedChange {
  const base = { id: post.id, title: post.title, revision: post.revision, from: statusOf(post) };
  if (action === 'restore') {
    // A restored post keeps the status it had: a published one is back on the site.
    const status = STATUS_LABELS[post.status as Status] ?? post.status;
    return post.deletedAt ? { ...base, to: `${status}, out of the trash${post.status === 'published' ? ' (back on the site)' : ''}`, why: null } : { ...base, to: null, why: 'not in the trash' };
  }
  if (post.deletedAt) return { ...base, to: null, why: 'already in the trash' };
  if (action === 'trash') return { ...base, to: 'in the trash (restorable)', why: null };
  return post.status === 'draft' ? { ...base, to: null, why: 'already a draft' } : { ...base, to: 'draft (off the site)', why: null };
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const viewer = requireViewer(context, request);
  const params = new URL(request.url).searchParams;
  const query = listQuery(params);
  const bulk = params.get('bulk');
  if ((BULK_ACTIONS as readonly string[]).includes(bulk ?? '')) {
    const action = bulk as BulkAction;
    const ids = params.getAll('id').slice(0, BULK_MAX);
    if (ids.length > 0) {
      const posts = await context.staff.posts.byIds(ids);
      return { viewer, query, confirm: { action, changes: posts.map((post) => plan(action, post)) }, list: null, notice: null };
    }
    const list = await context.staff.posts.page(query);
    return data({ viewer, query, confirm: null, list, notice: `Tick at least one post, then choose "${BULK_VERBS[action].button}".` }, { status: 400 });
  }
  return { viewer, query, confirm: null, list: await context.staff.posts.page(query), notice: null, tickAll: params.get('tick') === 'all' };
}

interface ActionAnswer {
  action: BulkAction | null;
  results: BulkOutcome[];
  message: string;
}

export async function action({ context, request }: Route.ActionArgs) {
  requireViewer(context, request);
  const form = await request.formData();
  const action = field(form, 'action');
  if (!(BULK_ACTIONS as readonly string[]).includes(action)) {
    return data<ActionAnswer>({ action: null, results: [], message: 'Unknown action: tick posts and use the buttons under the list.' }, { status: 400 });
  }
  const bulk = action as BulkAction;
  const items = form
    .getAll('post')
    .filter((value): value is string => typeof value === 'string')
    .slice(0, BULK_MAX)
    .map((value) => {
      const at = value.lastIndexOf(':');
      return { id: value.slice(0, at), revision: Number(value.slice(at + 1)) };
    })
    .filter((item) => item.id && Number.isInteger(item.revision) && item.revision > 0);
  if (items.length === 0) return data<ActionAnswer>({ action: bulk, results: [], message: 'No post was named: tick posts in the list, then confirm.' }, { status: 400 });
  const titles = new Map((await context.staff.posts.byIds(items.map((item) => item.id))).map((post) => [post.id, post.title]));
  const results: BulkOutcome[] = [];
  // One at a time, each a normal change of its own: one refused leaves the others done.
  for (const item of items) {
    const title = titles.get(item.id);
    if (title === undefined) {
      results.push({ id: item.id, title: item.id, ok: false, message: 'No such post: it was deleted for good.' });
      continue;
    }
    const outcome =
      bulk === 'unpublish' ? await context.staff.posts.unpublish(item.id, item.revision) : bulk === 'trash' ? await context.staff.posts.trash(item.id, item.revision) : await context.staff.posts.restore(item.id);
    results.push({ id: item.id, title, ok: outcome.ok, message: outcome.message });
  }
  const done = results.filter((result) => result.ok).length;
  const failed = results.length - done;
  const message = `${done} of ${results.length} post${results.length === 1 ? '' : 's'} ${BULK_VERBS[bulk].done}.${failed > 0 ? ` ${failed} could not be changed: see why below.` : ''}`;
  return data<ActionAnswer>({ action: bulk, results, message }, { status: done === 0 ? 409 : 200 });
}

function tallyText(tally: FindingTally): string {
  const parts = (['high', 'medium', 'info'] as const).filter((severity) => tally[severity] > 0).map((severity) => `${tally[severity]} ${severity}`);
  return parts.length > 0 ? parts.join(', ') : 'none';
}

/** The filters kept as hidden fields, so the confirmation and the list after it show the same posts. */
function KeptFilters({ query }: { query: StaffPostListQuery }) {
  const kept: Array<[string, string]> = [];
  if (query.status) kept.push(['status', query.status]);
  if (query.q) kept.push(['q', query.q]);
  if (query.author) kept.push(['author', query.author]);
  if (query.category) kept.push(['category', query.category]);
  if (query.findings) kept.push(['findings', query.findings]);
  if (query.page) kept.push(['page', String(query.page)]);
  return (
    <>
      {kept.map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
    </>
  );
}

function Confirmation({ viewer, query, action, changes }: { viewer: StaffViewer; query: StaffPostListQuery; action: BulkAction; changes: PlannedChange[] }) {
  const changing = changes.filter((change) => change.to !== null);
  const verb = BULK_VERBS[action].button;
  return (
    <section aria-labelledby="confirm-title" data-testid="bulk-confirm">
      <h2 id="confirm-title">
        {verb}: {changing.length} post{changing.length === 1 ? '' : 's'} will change
      </h2>
      <p>Each change is saved as a new revision of its post and written to the audit log. A post someone changes before you confirm is left as it is, and the result says so.</p>
      <div className="table-scroll">
        <table className="admin-table" data-testid="bulk-changes">
          <thead>
            <tr>
              <th scope="col">Post</th>
              <th scope="col">Now</th>
              <th scope="col">After</th>
            </tr>
          </thead>
          <tbody>
            {changes.map((change) => (
              <tr key={change.id}>
                <td>{change.title}</td>
                <td>{change.from}</td>
                <td>{change.to ?? `left as it is: ${change.why ?? ''}`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {changing.length === 0 ? (
        <p className="admin-notice admin-refusal" role="status">
          None of these posts can be changed this way. <Link to={listHref(query)}>Back to the posts</Link>.
        </p>
      ) : (
        <Form method="post" action={listHref(query)} className="admin-actions">
          <CsrfField viewer={viewer} />
          <input type="hidden" name="action" value={action} />
          {changing.map((change) => (
            <input key={change.id} type="hidden" name="post" value={`${change.id}:${change.revision}`} />
          ))}
          <button type="submit" className={`button ${action === 'trash' ? 'button-danger' : 'button-primary'}`}>
            {BULK_VERBS[action].confirm(changing.length)}
          </button>
          <Link to={listHref(query)} className="button button-outline">
            Cancel
          </Link>
        </Form>
      )}
    </section>
  );
}

function Filters({ query, list }: { query: StaffPostListQuery; list: NonNullable<Route.ComponentProps['loaderData']['list']> }) {
  const { counts } = list;
  const countOf: Record<Status, number> = { published: counts.published, draft: counts.drafts, scheduled: counts.scheduled, in_review: counts.inReview, trashed: counts.trashed };
  return (
    <Form method="get" action="/admin/posts" className="admin-filter" role="search" aria-label="Filter posts">
      <div className="form-field">
        <label htmlFor="post-q">Title</label>
        <input id="post-q" name="q" type="search" defaultValue={query.q ?? ''} placeholder="Words of the title, author or id" />
      </div>
      <FilterSelect id="post-status" label="Status" name="status" value={query.status} any="Any (not in the trash)" options={STATUSES.map((status) => [status, `${STATUS_LABELS[status]} (${countOf[status]})`] as const)} />
      <FilterSelect id="post-author" label="Author" name="author" value={query.author} any="Anyone" options={list.authors.map((author) => [author, author] as const)} />
      <FilterSelect id="post-category" label="Category" name="category" value={query.category} any="Any" options={BLOG_CATEGORIES.map((category) => [category.slug, category.name] as const)} />
      <FilterSelect id="post-findings" label="Compliance findings" name="findings" value={query.findings} any="With or without" options={[['yes', 'With findings'], ['no', 'Without findings']]} />
      <div className="admin-filter-buttons">
        <button type="submit" className="button button-outline">
          Filter
        </button>
        <Link to="/admin/posts">Clear</Link>
      </div>
    </Form>
  );
}

/** Page links: first, previous, a window around this page, next, last; each a plain link. */
function Pages({ query, page, pages }: { query: StaffPostListQuery; page: number; pages: number }) {
  if (pages <= 1) return null;
  const numbers = [...new Set([1, page - 2, page - 1, page, page + 1, page + 2, pages])].filter((n) => n >= 1 && n <= pages).sort((a, b) => a - b);
  const items: ReactNode[] = [];
  numbers.forEach((n, index) => {
    if (index > 0 && n - (numbers[index - 1] ?? n) > 1) items.push(<li key={`gap-${n}`} aria-hidden="true">…</li>);
    items.push(
      <li key={n}>
        {n === page ? (
          <span aria-current="page" className="admin-page-current">
            <span className="visually-hidden">Page </span>
            {n}
          </span>
        ) : (
          <Link to={listHref(query, n)} aria-label={`Page ${n}`}>
            {n}
          </Link>
        )}
      </li>,
    );
  });
  return (
    <nav aria-label="Pages of posts" className="admin-pages">
      <ul>
        {page > 1 ? (
          <li>
            <Link to={listHref(query, page - 1)} rel="prev">
              Previous
            </Link>
          </li>
        ) : null}
        {items}
        {page < pages ? (
          <li>
            <Link to={listHref(query, page + 1)} rel="next">
              Next
            </Link>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}

function Results({ answer }: { answer: ActionAnswer }) {
  const failed = answer.results.filter((result) => !result.ok);
  return (
    <div className={failed.length > 0 ? 'admin-notice admin-refusal' : 'admin-notice'} role="status" data-testid="posts-message">
      <p>{answer.message}</p>
      {answer.results.length > 0 ? (
        <ul className="admin-list" data-testid="bulk-results">
          {answer.results.map((result) => (
            <li key={result.id}>
              <strong>{result.title}</strong>: {result.ok ? result.message : `not changed. ${result.message}`}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

export default function AdminPosts({ loaderData, actionData }: Route.ComponentProps) {
  const { viewer, query, confirm, list, notice } = loaderData;
  const tickAll = 'tickAll' in loaderData && loaderData.tickAll === true;
  if (confirm) {
    return (
      <AdminShell viewer={viewer} title="Confirm the change">
        <Confirmation viewer={viewer} query={query} action={confirm.action} changes={confirm.changes} />
      </AdminShell>
    );
  }
  if (!list) return null;
  const first = list.total === 0 ? 0 : (list.page - 1) * list.perPage + 1;
  const last = Math.min(list.total, list.page * list.perPage);
  return (
    <AdminShell viewer={viewer} title="Posts">
      {actionData ? <Results answer={actionData} /> : null}
      <p>
        <Link to="/admin/posts/new">Write a new post</Link> in Markdown, with its preview and the compliance findings beside the text.
      </p>
      {notice ? (
        <p role="alert" className="admin-notice admin-refusal" data-testid="posts-notice">
          {notice}
        </p>
      ) : null}
      <Filters query={query} list={list} />
      <p data-testid="posts-count">
        {list.total === 0 ? 'No post matches these filters.' : `Showing ${first}–${last} of ${list.total} post${list.total === 1 ? '' : 's'}.`}
      </p>
      <Form method="get" action="/admin/posts" aria-label="Change the ticked posts">
        <KeptFilters query={{ ...query, page: list.page > 1 ? list.page : undefined }} />
        <div className="table-scroll">
          <table className="admin-table admin-posts" data-testid="posts-table">
            <thead>
              <tr>
                <th scope="col">
                  <span className="visually-hidden">Ticked</span>
                </th>
                <th scope="col">Title</th>
                <th scope="col">Status</th>
                <th scope="col">Author (owner, key)</th>
                <th scope="col">Findings</th>
                <th scope="col">Dates</th>
              </tr>
            </thead>
            <tbody>
              {list.posts.map((post) => (
                <tr key={`${post.id}-${tickAll ? 'all' : 'none'}`}>
                  <td>
                    <input type="checkbox" name="id" value={post.id} id={`tick-${post.id}`} className="admin-tick" defaultChecked={tickAll} />
                    <label htmlFor={`tick-${post.id}`} className="visually-hidden">
                      Tick {post.title}
                    </label>
                  </td>
                  <td>
                    {post.status === 'published' && !post.deletedAt ? <Link to={`/blog/${post.slug}`}>{post.title}</Link> : post.title}
                    {post.status === 'in_review' && !post.deletedAt ? (
                      <>
                        {' '}
                        (<Link to={`/admin/review/${post.id}`}>review it</Link>)
                      </>
                    ) : null}
                    {' '}
                    (<Link to={`/admin/posts/${encodeURIComponent(post.id)}/preview`} aria-label={`Preview ${post.title}`}>preview</Link>
                    {post.deletedAt ? null : (
                      <>
                        {', '}
                        <Link to={`/admin/posts/${encodeURIComponent(post.id)}/edit`} aria-label={`Edit ${post.title}`}>
                          edit
                        </Link>
                      </>
                    )}
                    )
                    <br />
                    <code>{post.id}</code>
                  </td>
                  <td>{post.deletedAt ? `in the trash since ${when(post.deletedAt)}` : statusOf(post)}</td>
                  <td>
                    {post.author} ({post.owner ?? 'site content'}
                    {post.createdByKeyId ? `, key ${post.createdByKeyId}` : ''})
                  </td>
                  <td>{tallyText(post.findings)}</td>
                  <td>
                    changed {when(post.updatedAt)}
                    {post.publishedAt ? (
                      <>
                        <br />
                        published {when(post.publishedAt)}
                        <br />
                        <Link to={`/admin/posts/${encodeURIComponent(post.id)}/archive`} aria-label={`Archive timeline of ${post.title}`}>
                          archive timeline
                        </Link>
                      </>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {list.posts.length > 0 ? (
          <div className="admin-actions admin-bulk">
            {tickAll ? (
              <Link to={listHref(query, list.page)}>Untick all</Link>
            ) : (
              <Link to={`${listHref(query, list.page)}${listHref(query, list.page).includes('?') ? '&' : '?'}tick=all`}>Tick all {list.posts.length} on this page</Link>
            )}
            <span>With the ticked posts:</span>
            {BULK_ACTIONS.map((action) => (
              <button key={action} type="submit" name="bulk" value={action} className={`button ${action === 'trash' ? 'button-danger' : 'button-outline'}`}>
                {BULK_VERBS[action].button}…
              </button>
            ))}
          </div>
        ) : null}
      </Form>
      <Pages query={query} page={list.page} pages={list.pages} />
    </AdminShell>
  );
}
