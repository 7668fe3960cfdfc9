/**
 * /admin/posts/:id/preview: any post (a draft, a scheduled post, one held for review) as its public
 * page will render it (the post page's own component), under a banner that says its status, with links
 * back to the posts list and, for a held post, to its review page. A button (a plain form with the CSRF
 * token) makes a signed link anyone can open for 7 days, /preview/<token>, and shows it; making one is
 * written to the audit log. Staff pages are never cached (adminHeaders).
 */
import { Form, Link, data } from 'react-router';
import type { Route } from './+types/post-preview';
import { PREVIEW_LINK_DAYS } from '../../../contract/post-preview';
import { PreviewBanner, StaffPreviewLinks, previewTime } from '../../components/blog/PreviewBanner';
import { configFromMatches, pageMeta } from '../../seo/meta';
import { PostPage } from '../blog/post';
import { AdminShell, CsrfField } from './AdminShell';
import { adminHeaders, field, requireViewer } from './admin-route';

export const meta: Route.MetaFunction = ({ matches, params }) =>
  pageMeta(configFromMatches(matches), { title: 'Preview a post', description: 'A post as readers will see it.', path: `/admin/posts/${params.id}/preview`, noindex: true });

export const headers = adminHeaders;

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const viewer = requireViewer(context, request);
  const preview = await context.staff.previews.get(params.id);
  if (!preview) return data({ viewer, id: params.id, preview: null }, { status: 404 });
  return { viewer, id: params.id, preview };
}

interface ActionAnswer {
  ok: boolean;
  message: string;
  link: { url: string; path: string; expiresAt: string } | null;
}

export async function action({ context, request, params }: Route.ActionArgs) {
  requireViewer(context, request);
  const form = await request.formData();
  if (field(form, 'intent') !== 'link') return data<ActionAnswer>({ ok: false, message: 'Unknown action: use the button on this page.', link: null }, { status: 400 });
  const made = await context.staff.previews.makeLink(params.id);
  if (!made) return data<ActionAnswer>({ ok: false, message: 'This post no longer exists: it was deleted for good. Back to the posts list.', link: null }, { status: 404 });
  return { ok: true, message: `Preview link made. Anyone with it can read this post until ${previewTime(made.expiresAt)}.`, link: { url: `${context.config.siteUrl}${made.path}`, path: made.path, expiresAt: made.expiresAt } } satisfies ActionAnswer;
}

export default function AdminPostPreview({ loaderData, actionData }: Route.ComponentProps) {
  const { viewer, id, preview } = loaderData;
  if (!preview) {
    return (
      <AdminShell viewer={viewer} title="No such post">
        <p data-testid="preview-missing">
          There is no post <code>{id}</code>: it was deleted for good, or the address is mistyped. <Link to="/admin/posts">Back to the posts</Link>.
        </p>
      </AdminShell>
    );
  }
  return (
    <>
      <AdminShell viewer={viewer} title="Preview">
        {actionData ? (
          <div role="status" className={actionData.ok ? 'admin-notice' : 'admin-notice admin-refusal'} data-testid="preview-message">
            <p>{actionData.message}</p>
            {actionData.link ? (
              <p>
                <label htmlFor="preview-link">Preview link</label>{' '}
                <input id="preview-link" type="text" readOnly value={actionData.link.url} size={60} data-testid="preview-link" />{' '}
                <a href={actionData.link.path}>Open it</a>
              </p>
            ) : null}
          </div>
        ) : null}
        <StaffPreviewLinks preview={preview} />
        {preview.deletedAt ? null : (
          <p>
            <Link to={`/admin/posts/${encodeURIComponent(id)}/edit`}>Edit this post</Link>
          </p>
        )}
        <Form method="post" className="admin-actions">
          <CsrfField viewer={viewer} />
          <input type="hidden" name="intent" value="link" />
          <button type="submit" className="button button-outline">
            Make a preview link to share
          </button>
          <span>Anyone with the link can read this post, signed in or not, for {PREVIEW_LINK_DAYS} days; search engines are told not to index it.</span>
        </Form>
      </AdminShell>
      <PreviewBanner heading="Preview." preview={preview} />
      <PostPage post={preview.post} />
    </>
  );
}
