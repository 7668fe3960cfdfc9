/**
 * /admin/posts/:id/edit: the staff Markdown editor (issue 40). A plain form (no JavaScript needed):
 * title, excerpt, category, tags and the Markdown body, prefilled from the post's stored Markdown
 * source (decision 0022; a post sent as HTML only gets Markdown made from its HTML, as `blogpost pull`
 * makes it, with a note saying so), and the revision it was opened at in a hidden field. "Preview"
 * answers the same page with the post as its public page will show it (the post page's own component,
 * rendered by the post service's cleaning) and the compliance findings beside the text, each at its
 * line; nothing is saved. "Save" goes through the post service as the API does (revision check,
 * compliance gate, audit with the staff member): a 303 back here with "Saved: revision N"; a post
 * changed meanwhile is a 409 page that keeps the typed text and links to the newer revision; a refusal
 * keeps everything typed and shows why.
 *
 * With JavaScript, the same action is asked for a preview (a fetcher, so nothing navigates) 400 ms
 * after the typing stops: the findings beside the text and the preview below follow the text. The
 * fields are never controlled or re-rendered from an answer, so nothing typed is overwritten.
 */
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Form, Link, type ShouldRevalidateFunctionArgs, data, redirect, useFetcher } from 'react-router';
import type { Route } from './+types/post-edit';
import { BLOG_CATEGORIES } from '../../../contract/categories';
import type { EditorFields, EditorFinding, EditorPost, EditorPreview, EditorSaveOutcome } from '../../../contract/post-editor';
import type { StaffViewer } from '../../../contract/staff-area';
import { configFromMatches, pageMeta } from '../../seo/meta';
import { PostPage } from '../blog/post';
import { AdminShell, CsrfField } from './AdminShell';
import { adminHeaders, field, requireViewer } from './admin-route';
import { when } from './lead-format';
import { useHydrated } from '../../components/ui/hydrated';

export const meta: Route.MetaFunction = ({ matches, params }) =>
  pageMeta(configFromMatches(matches), { title: 'Edit a post', description: 'A post in Markdown, with its preview and findings.', path: `/admin/posts/${params.id}/edit`, noindex: true });

export const headers = adminHeaders;

/** How long typing must pause before the live preview is asked for. */
const LIVE_DELAY_MS = 400;

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const viewer = requireViewer(context, request);
  const post = await context.staff.editor.open(params.id);
  if (!post) return data({ viewer, id: params.id, post: null, saved: null }, { status: 404 });
  const saved = Number(new URL(request.url).searchParams.get('saved'));
  return { viewer, id: params.id, post, saved: Number.isInteger(saved) && saved > 0 ? saved : null };
}

/**
 * Every answer carries the fields as typed and the revision the form was opened at (`opened`): the page
 * shown with the answer keeps that revision in its hidden field, whatever the post's is now, so a save
 * from it can never overwrite a change made meanwhile.
 */
export type ActionAnswer = { fields: EditorFields; opened: string } & (
  | { intent: 'preview'; preview: EditorPreview }
  | { intent: 'save'; outcome: Exclude<EditorSaveOutcome, { kind: 'saved' }> }
  | { intent: 'unknown'; message: string }
);

/** A textarea's text as typed: browsers send every line break as CRLF; nothing else is touched. */
function typed(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value.replace(/\r\n?/g, '\n') : '';
}

export function fieldsOf(form: FormData): EditorFields {
  return { title: field(form, 'title'), excerpt: typed(form, 'excerpt').trim(), category: field(form, 'category'), tags: field(form, 'tags'), body: typed(form, 'body') };
}

const SAVE_STATUS = { conflict: 409, refused: 422, missing: 404 } as const;

export async function action({ context, request, params }: Route.ActionArgs) {
  requireViewer(context, request);
  const form = await request.formData();
  const fields = fieldsOf(form);
  const intent = field(form, 'intent');
  const opened = field(form, 'revision');
  if (intent === 'preview') {
    const preview = await context.staff.editor.preview(params.id, fields);
    if (!preview) return data<ActionAnswer>({ intent: 'preview', fields, opened, preview: { ok: false, problems: ['This post no longer exists (or is in the trash).'], findings: [] } }, { status: 404 });
    return { intent: 'preview', fields, opened, preview } satisfies ActionAnswer;
  }
  if (intent === 'save') {
    const revision = Number(opened);
    if (!Number.isInteger(revision) || revision < 1) {
      return data<ActionAnswer>({ intent: 'unknown', fields, opened, message: 'The form does not say which revision you opened: open the post again from the posts list (copy your text first).' }, { status: 400 });
    }
    const outcome = await context.staff.editor.save(params.id, revision, fields);
    if (outcome.kind === 'saved') throw redirect(`/admin/posts/${encodeURIComponent(params.id)}/edit?saved=${outcome.revision}`, 303);
    return data<ActionAnswer>({ intent: 'save', fields, opened, outcome }, { status: SAVE_STATUS[outcome.kind] });
  }
  return data<ActionAnswer>({ intent: 'unknown', fields, opened, message: 'Unknown action: use the Preview or Save button.' }, { status: 400 });
}

/** A live preview asks the action for nothing but an answer: the page's data stays as it is. */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formData?.get('intent') === 'preview' ? false : defaultShouldRevalidate;
}

const SEVERITY_LABEL = { high: 'High', medium: 'Medium', info: 'Info' } as const;

function FindingText({ finding }: { finding: EditorFinding }) {
  return (
    <>
      <span className={`review-severity review-severity-${finding.severity}`}>{SEVERITY_LABEL[finding.severity]}</span> <code>{finding.rule}</code>: {finding.message}
      {finding.text ? (
        <>
          {' '}
          (<q>{finding.text}</q>)
        </>
      ) : null}{' '}
      <strong>Instead:</strong> {finding.suggestion}
      {finding.accepted ? <span className="review-accepted"> Accepted by the author: {finding.accepted}</span> : null}
    </>
  );
}

/** A field's findings, next to the field and named by its aria-describedby. */
function FieldFindings({ id, findings }: { id: string; findings: readonly EditorFinding[] }) {
  return (
    <div id={id} data-testid={id}>
      {findings.length > 0 ? (
        <ul className="editor-field-findings">
          {findings.map((finding, index) => (
            <li key={`${finding.rule}-${index}`} className={`review-finding-${finding.severity}`}>
              <FindingText finding={finding} />
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** The offset in `text` where line `line` (from 1) starts. */
function lineStart(text: string, line: number): number {
  let at = 0;
  for (let current = 1; current < line; current++) {
    const next = text.indexOf('\n', at);
    if (next === -1) return text.length;
    at = next + 1;
  }
  return at;
}

/** The body's findings beside it, in line order, each saying its line; with JavaScript a button selects that line. */
function BodyFindings({ findings, live, onGoTo }: { findings: readonly EditorFinding[]; live: ReactNode; onGoTo: ((line: number) => void) | null }) {
  const body = findings.filter((finding) => finding.where === 'body' || finding.where === 'post');
  return (
    <section className="editor-findings" aria-labelledby="editor-findings-title" id="body-findings">
      <h2 id="editor-findings-title">Findings in the text ({body.length})</h2>
      <p className="editor-live" role="status" data-testid="editor-live">
        {live}
      </p>
      {body.length === 0 ? (
        <p>The compliance rules find nothing in the text.</p>
      ) : (
        <ol className="editor-finding-list" data-testid="body-findings">
          {body.map((finding, index) => (
            <li key={`${finding.rule}-${finding.line ?? 'post'}-${finding.column ?? index}`} className={`review-finding review-finding-${finding.severity}`} data-line={finding.line ?? undefined}>
              <p>
                <strong>{finding.line === null ? 'The whole post' : `Line ${finding.line}, column ${finding.column ?? 1}`}</strong>
                {finding.line !== null && onGoTo ? (
                  <>
                    {' '}
                    <button type="button" className="link-button" onClick={() => onGoTo(finding.line ?? 1)}>
                      Go to line {finding.line}
                    </button>
                  </>
                ) : null}
              </p>
              <p>
                <FindingText finding={finding} />
              </p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function Notice({ ok, children, testId }: { ok: boolean; children: ReactNode; testId: string }) {
  return (
    <div role={ok ? 'status' : 'alert'} className={ok ? 'admin-notice' : 'admin-notice admin-refusal'} data-testid={testId}>
      {children}
    </div>
  );
}

function SaveAnswer({ id, answer }: { id: string; answer: ActionAnswer | undefined }) {
  if (!answer || answer.intent === 'preview') return null;
  if (answer.intent === 'unknown') {
    return (
      <Notice ok={false} testId="editor-message">
        <p>{answer.message}</p>
      </Notice>
    );
  }
  const { outcome } = answer;
  if (outcome.kind === 'conflict') {
    return (
      <Notice ok={false} testId="editor-conflict">
        <p>
          <strong>Not saved: this post changed since you opened it.</strong> Revision {outcome.current.revision} was saved {when(outcome.current.updatedAt)}
          {outcome.current.by ? ` by ${outcome.current.by}` : ''}. Your text is still in the form below, exactly as you typed it.
        </p>
        <p>
          To keep both: <a href={`/admin/posts/${encodeURIComponent(id)}/edit`} target="_blank" rel="noopener">open revision {outcome.current.revision} in a new tab</a>, copy your changes into it
          there, and save it there. Saving this form again is refused for as long as it was opened at the older revision, so nothing is overwritten.
        </p>
      </Notice>
    );
  }
  return (
    <Notice ok={false} testId="editor-message">
      <p>{outcome.message}</p>
      {outcome.kind === 'refused' && outcome.problems.length > 0 ? (
        <ul>
          {outcome.problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      ) : null}
    </Notice>
  );
}

function PreviewProblems({ preview }: { preview: EditorPreview }) {
  if (preview.ok) return null;
  return (
    <Notice ok={false} testId="editor-problems">
      <p>The text does not make a post yet: nothing to preview until this is fixed.</p>
      <ul>
        {preview.problems.map((problem) => (
          <li key={problem}>{problem}</li>
        ))}
      </ul>
    </Notice>
  );
}

/** Text as HTML text content. */
function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

interface RawTextareaProps {
  id: string;
  name: string;
  rows: number;
  value: string;
  describedBy: string;
  testId?: string;
}

/**
 * A textarea React renders once as HTML and never touches again: React 19 sets a textarea's value back
 * to its default when it hydrates one (initTextarea), which would throw away what a staff member typed
 * before the app woke up (the page loads no app until the first interaction, decision 0007). Inside
 * dangerouslySetInnerHTML nothing is hydrated, and the HTML is kept as first rendered (the component is
 * keyed by post), so the box is never re-rendered or replaced while its text is being edited.
 * Decision 0027.
 */
function RawTextarea({ id, name, rows, value, describedBy, testId }: RawTextareaProps) {
  const [html] = useState(() => {
    // The HTML parser drops a newline right after <textarea>: one more keeps a text that starts with one.
    const text = value.startsWith('\n') ? `\n${value}` : value;
    return `<textarea id="${id}" name="${name}" rows="${rows}" required aria-describedby="${escapeHtml(describedBy)}"${testId ? ` data-testid="${testId}"` : ''}>${escapeHtml(text)}</textarea>`;
  });
  return <div className="editor-textarea" dangerouslySetInnerHTML={{ __html: html }} />;
}

export default function AdminPostEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { viewer, id, post, saved } = loaderData;
  if (!post) {
    return (
      <AdminShell viewer={viewer} title="No such post">
        <p data-testid="edit-missing">
          There is no post <code>{id}</code> to edit: it was deleted, is in the trash, or the address is mistyped. <Link to="/admin/posts">Back to the posts</Link>.
        </p>
      </AdminShell>
    );
  }
  // Keyed by post: another post's editor is a new form, never this one's text boxes.
  return <Editor key={post.id} viewer={viewer} id={id} post={post} saved={saved} answer={actionData as ActionAnswer | undefined} />;
}

/** The editor's form, findings and preview; `isNew`: a post not stored yet (/admin/posts/new), without a revision. */
export function Editor({ viewer, id, post, saved, answer, isNew = false }: { viewer: StaffViewer; id: string; post: EditorPost; saved: number | null; answer: ActionAnswer | undefined; isNew?: boolean }) {
  const fetcher = useFetcher<ActionAnswer>();
  const formRef = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const hydrated = useHydrated();
  const [waiting, setWaiting] = useState(false);
  // The latest submit, read when the timer fires: the listener below is set up once, for the form's life.
  const submit = useRef(fetcher.submit);
  useEffect(() => {
    submit.current = fetcher.submit;
  });
  const initialBody = useRef((answer?.fields ?? post.fields).body);

  // Typing anywhere in the form asks for a preview once it pauses (a native listener: the text boxes are not React's).
  useEffect(() => {
    const form = formRef.current;
    if (!form) return undefined;
    const askPreview = () => {
      const sent = new FormData(form);
      sent.set('intent', 'preview');
      setWaiting(false);
      void submit.current(sent, { method: 'post' });
    };
    const later = () => {
      if (timer.current) clearTimeout(timer.current);
      setWaiting(true);
      timer.current = setTimeout(askPreview, LIVE_DELAY_MS);
    };
    form.addEventListener('input', later);
    // Text typed before the app woke up is checked at once.
    const body = form.elements.namedItem('body');
    if (body instanceof HTMLTextAreaElement && body.value !== initialBody.current) later();
    return () => {
      form.removeEventListener('input', later);
      if (timer.current) clearTimeout(timer.current);
    };
  }, []);

  // A live preview's answer (with JavaScript) is newer than the page's; the page's is newer than the post as stored.
  const liveAnswer = fetcher.data?.intent === 'preview' ? fetcher.data : undefined;
  const pagePreview = answer?.intent === 'preview' ? answer.preview : undefined;
  const preview = liveAnswer?.preview ?? pagePreview;
  const refusedFindings = answer?.intent === 'save' && answer.outcome.kind === 'refused' ? answer.outcome.findings : undefined;
  const findings = liveAnswer?.preview.findings ?? preview?.findings ?? refusedFindings ?? post.findings;
  const values = answer?.fields ?? post.fields;
  const titleFindings = findings.filter((finding) => finding.where === 'title');
  const excerptFindings = findings.filter((finding) => finding.where === 'excerpt');

  const goTo = (line: number) => {
    const area = formRef.current?.elements.namedItem('body');
    if (!(area instanceof HTMLTextAreaElement)) return;
    const start = lineStart(area.value, line);
    const end = area.value.indexOf('\n', start);
    area.focus();
    area.setSelectionRange(start, end === -1 ? area.value.length : end);
  };

  let live: ReactNode = 'Press Preview to check the text and see it as readers will; nothing is saved until you press Save.';
  if (hydrated) live = 'The findings and the preview follow your typing; nothing is saved until you press Save.';
  if (waiting || fetcher.state !== 'idle') live = 'Checking your text…';
  else if (liveAnswer) live = 'Checked as you typed (not saved).';

  return (
    <>
      <AdminShell viewer={viewer} title={isNew ? 'New post' : `Edit: ${post.fields.title}`}>
        {saved !== null && !answer ? (
          <Notice ok testId="editor-saved">
            <p>Saved: revision {saved}.</p>
          </Notice>
        ) : null}
        <SaveAnswer id={id} answer={answer} />
        {preview ? <PreviewProblems preview={preview} /> : null}
        {isNew ? (
          <p>
            <Link to="/admin/posts">Back to the posts</Link>. Save makes a draft, written by you; publish it later from the API or <code>blogpost</code>.
          </p>
        ) : (
          <>
            <p>
              <Link to="/admin/posts">Back to the posts</Link> · <Link to={`/admin/posts/${encodeURIComponent(id)}/preview`}>Preview it as stored</Link>
              {post.status === 'in_review' ? (
                <>
                  {' · '}
                  <Link to={`/admin/review/${encodeURIComponent(id)}`}>Its review page</Link>
                </>
              ) : null}
            </p>
            <p data-testid="editor-facts">
              Revision {post.revision}, {post.status}, last saved {when(post.updatedAt)}.
              {post.status === 'in_review' ? ' It waits for compliance review: you can preview changes here, but decide (and correct its wording) on its review page.' : ''}
            </p>
          </>
        )}
        {post.fromHtml ? (
          <p className="field-hint" data-testid="editor-from-html">
            This post was sent as HTML, without Markdown: the text below is Markdown made from its HTML, as <code>blogpost pull</code> makes it. Saving stores this Markdown as the post&apos;s source from
            then on.
          </p>
        ) : null}
        <Form method="post" className="admin-form editor-form" ref={formRef} data-testid="editor-form">
          <CsrfField viewer={viewer} />
          {isNew ? null : <input type="hidden" name="revision" value={answer?.opened || post.revision} />}
          <div className="form-field">
            <label htmlFor="edit-title">Title</label>
            <input id="edit-title" name="title" type="text" required defaultValue={values.title} aria-describedby="title-findings" />
            <FieldFindings id="title-findings" findings={titleFindings} />
          </div>
          <div className="form-field">
            <label htmlFor="edit-excerpt">Excerpt</label>
            <RawTextarea id="edit-excerpt" name="excerpt" rows={3} value={values.excerpt} describedBy="excerpt-hint excerpt-findings" />
            <span id="excerpt-hint" className="field-hint">
              A sentence or two, shown on the blog list and in search results.
            </span>
            <FieldFindings id="excerpt-findings" findings={excerptFindings} />
          </div>
          <div className="editor-row">
            <div className="form-field">
              <label htmlFor="edit-category">Category</label>
              <select id="edit-category" name="category" defaultValue={values.category}>
                {BLOG_CATEGORIES.map((category) => (
                  <option key={category.slug} value={category.slug}>
                    {category.name}
                  </option>
                ))}
              </select>
            </div>
            <div className="form-field">
              <label htmlFor="edit-tags">Tags</label>
              <input id="edit-tags" name="tags" type="text" defaultValue={values.tags} aria-describedby="tags-hint" />
              <span id="tags-hint" className="field-hint">
                Separated by commas.
              </span>
            </div>
          </div>
          <div className="editor-columns">
            <div className="form-field editor-body">
              <label htmlFor="edit-body">Text (Markdown)</label>
              <RawTextarea id="edit-body" name="body" rows={28} value={values.body} describedBy="body-hint body-findings" testId="editor-body" />
              <span id="body-hint" className="field-hint">
                Markdown: a blank line between paragraphs, <code>## </code> for a heading, <code>- </code> for a list item, <code>[words](https://…)</code> for a link.
              </span>
            </div>
            <BodyFindings findings={findings} live={live} onGoTo={hydrated ? goTo : null} />
          </div>
          <div className="admin-actions">
            <button type="submit" name="intent" value="preview" className="button button-outline">
              Preview
            </button>
            <button type="submit" name="intent" value="save" className="button button-primary">
              Save
            </button>
            <span>Preview saves nothing. Save makes a new revision; the compliance rules check it as they check the API&apos;s changes.</span>
          </div>
        </Form>
      </AdminShell>
      {preview?.ok ? (
        <div data-testid="editor-preview">
          <aside className="preview-banner" aria-labelledby="editor-preview-title">
            <div className="narrow">
              <p id="editor-preview-title" className="preview-banner-title">
                <strong>Preview of your text:</strong> not saved.
              </p>
            </div>
          </aside>
          <PostPage post={preview.post} />
        </div>
      ) : null}
    </>
  );
}
