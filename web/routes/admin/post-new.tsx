/**
 * /admin/posts/new: a new post in the staff Markdown editor (post-edit.tsx's form, findings and preview).
 * Preview renders and checks it through the post service's validation (nothing stored); Save creates it
 * through the post service as a draft written in Markdown by the signed-in staff member (audited
 * post.created) and answers 303 to its editor with "Saved: revision 1". A refusal keeps everything typed.
 */
import { data, redirect } from 'react-router';
import type { Route } from './+types/post-new';
import type { EditorPost } from '../../../contract/post-editor';
import { configFromMatches, pageMeta } from '../../seo/meta';
import { adminHeaders, field, requireViewer } from './admin-route';
import { type ActionAnswer, Editor, fieldsOf } from './post-edit';

export { shouldRevalidate } from './post-edit';

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(configFromMatches(matches), { title: 'New post', description: 'A new post in Markdown, with its preview and findings.', path: '/admin/posts/new', noindex: true });

export const headers = adminHeaders;

export function loader({ context, request }: Route.LoaderArgs) {
  const viewer = requireViewer(context, request);
  const post: EditorPost = { id: '', revision: 0, status: 'draft', updatedAt: '', fields: context.staff.editor.blank(), fromHtml: false, findings: [] };
  return { viewer, post };
}

export async function action({ context, request }: Route.ActionArgs) {
  requireViewer(context, request);
  const form = await request.formData();
  const fields = fieldsOf(form);
  const intent = field(form, 'intent');
  if (intent === 'preview') return { intent: 'preview', fields, opened: '', preview: await context.staff.editor.previewNew(fields) } satisfies ActionAnswer;
  if (intent === 'save') {
    const outcome = await context.staff.editor.create(fields);
    if (outcome.kind === 'created') throw redirect(`/admin/posts/${encodeURIComponent(outcome.id)}/edit?saved=${outcome.revision}`, 303);
    return data<ActionAnswer>({ intent: 'save', fields, opened: '', outcome }, { status: 422 });
  }
  return data<ActionAnswer>({ intent: 'unknown', fields, opened: '', message: 'Unknown action: use the Preview or Save button.' }, { status: 400 });
}

export default function AdminPostNew({ loaderData, actionData }: Route.ComponentProps) {
  const { viewer, post } = loaderData;
  return <Editor key="new" viewer={viewer} id="" post={post} saved={null} answer={actionData as ActionAnswer | undefined} isNew />;
}
