/**
 * /admin/posts: every post in every status (or the trash), with its author, owner, the key that made
 * it and its dates; unpublish, move to the trash and restore with the API's own rules (a post changed
 * since the page was loaded is refused, like a stale If-Match), and a link to its page. Every change
 * is in the audit log. A post held for compliance review links to its review page (/admin/review/:id).
 */
import { Form, Link, data } from 'react-router';
import type { Route } from './+types/posts';
import type { StaffPostQuery } from '../../../contract/staff-area';
import { configFromMatches, pageMeta } from '../../seo/meta';
import { AdminShell, CsrfField } from './AdminShell';
import { adminHeaders, field, requireViewer } from './admin-route';
import { when } from './lead-format';

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(configFromMatches(matches), { title: 'Posts', description: 'Every blog post, in every status.', path: '/admin/posts', noindex: true });

export const headers = adminHeaders;

const STATUSES = ['published', 'draft', 'scheduled', 'in_review', 'trashed'] as const;

const STATUS_LABELS: Record<(typeof STATUSES)[number], string> = { published: 'published', draft: 'draft', scheduled: 'scheduled', in_review: 'in review', trashed: 'in the trash' };

function postQuery(params: URLSearchParams): StaffPostQuery {
  const status = params.get('status') ?? '';
  const q = (params.get('q') ?? '').trim().slice(0, 200);
  return { ...((STATUSES as readonly string[]).includes(status) ? { status: status as StaffPostQuery['status'] } : {}), ...(q ? { q } : {}) };
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const viewer = requireViewer(context, request);
  const query = postQuery(new URL(request.url).searchParams);
  return { viewer, query, posts: await context.staff.posts.list(query) };
}

export async function action({ context, request }: Route.ActionArgs) {
  requireViewer(context, request);
  const form = await request.formData();
  const id = field(form, 'id');
  const revision = Number(field(form, 'revision'));
  const intent = field(form, 'intent');
  const outcome =
    intent === 'unpublish'
      ? await context.staff.posts.unpublish(id, revision)
      : intent === 'trash'
        ? await context.staff.posts.trash(id, revision)
        : intent === 'restore'
          ? await context.staff.posts.restore(id)
          : { ok: false, message: 'Unknown action: use the buttons on this page.' };
  return outcome.ok ? { message: outcome.message } : data({ message: outcome.message }, { status: 409 });
}

export default function AdminPosts({ loaderData, actionData }: Route.ComponentProps) {
  const { viewer, query, posts } = loaderData;
  return (
    <AdminShell viewer={viewer} title="Posts">
      {actionData ? (
        <p role="status" className="admin-notice" data-testid="posts-message">
          {actionData.message}
        </p>
      ) : null}
      <Form method="get" className="admin-filter" role="search" aria-label="Filter posts">
        <div className="form-field">
          <label htmlFor="post-status">Status</label>
          <select id="post-status" name="status" defaultValue={query.status ?? ''}>
            <option value="">Any (not in the trash)</option>
            {STATUSES.map((status) => (
              <option key={status} value={status}>
                {STATUS_LABELS[status]}
              </option>
            ))}
          </select>
        </div>
        <div className="form-field">
          <label htmlFor="post-q">Search</label>
          <input id="post-q" name="q" type="search" defaultValue={query.q ?? ''} placeholder="Title, author, owner or id" />
        </div>
        <button type="submit" className="button button-outline">
          Filter
        </button>
      </Form>
      <p>
        {posts.length} post{posts.length === 1 ? '' : 's'}.
      </p>
      <div className="table-scroll">
        <table className="admin-table" data-testid="posts-table">
          <thead>
            <tr>
              <th scope="col">Title</th>
              <th scope="col">Status</th>
              <th scope="col">Author (owner, key)</th>
              <th scope="col">Dates</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {posts.map((post) => (
              <tr key={post.id}>
                <td>
                  {post.status === 'published' && !post.deletedAt ? <Link to={`/blog/${post.slug}`}>{post.title}</Link> : post.title}
                  {post.status === 'in_review' && !post.deletedAt ? (
                    <>
                      {' '}
                      (<Link to={`/admin/review/${post.id}`}>review it</Link>)
                    </>
                  ) : null}
                  <br />
                  <code>{post.id}</code>
                </td>
                <td>{post.deletedAt ? `in the trash since ${when(post.deletedAt)}` : post.status === 'in_review' ? 'in review' : post.status}</td>
                <td>
                  {post.author} ({post.owner ?? 'site content'}
                  {post.createdByKeyId ? `, key ${post.createdByKeyId}` : ''})
                </td>
                <td>
                  created {when(post.createdAt)}
                  <br />
                  changed {when(post.updatedAt)}
                  {post.publishedAt ? (
                    <>
                      <br />
                      published {when(post.publishedAt)}
                    </>
                  ) : null}
                </td>
                <td>
                  <div className="admin-actions">
                    {post.deletedAt ? (
                      <PostAction viewer={viewer} id={post.id} revision={post.revision} intent="restore" label={`Restore ${post.title}`} text="Restore" />
                    ) : (
                      <>
                        {post.status !== 'draft' ? <PostAction viewer={viewer} id={post.id} revision={post.revision} intent="unpublish" label={`Unpublish ${post.title}`} text="Unpublish" /> : null}
                        <PostAction viewer={viewer} id={post.id} revision={post.revision} intent="trash" label={`Move ${post.title} to the trash`} text="Move to trash" />
                      </>
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </AdminShell>
  );
}

function PostAction(props: { viewer: Route.ComponentProps['loaderData']['viewer']; id: string; revision: number; intent: string; label: string; text: string }) {
  return (
    <Form method="post">
      <CsrfField viewer={props.viewer} />
      <input type="hidden" name="id" value={props.id} />
      <input type="hidden" name="revision" value={props.revision} />
      <input type="hidden" name="intent" value={props.intent} />
      <button type="submit" className={`button ${props.intent === 'trash' ? 'button-danger' : 'button-outline'}`} aria-label={props.label}>
        {props.text}
      </button>
    </Form>
  );
}
