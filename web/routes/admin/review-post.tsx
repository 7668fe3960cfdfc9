/**
 * /admin/review/:id: one post held for compliance review, as a reviewer needs it: who wrote it (and
 * their credentials), who checked it and against what sources, every finding of the rules on the post
 * as it reads now (accepted ones with the author's reason), and the post itself with the findings
 * marked. The decision comes first, under a summary of the findings by severity: approve (it goes live
 * as its author asked; while high findings the author did not accept remain, only with a written
 * reason, which the audit log and the post's history keep), send back with a note (a draft again; the
 * author reads the note through the API), or edit (a link to the wording form at the end; the post
 * keeps waiting). Each is a plain form with the CSRF token and the revision the page showed (a post
 * changed since is refused). Approving and sending back return to the queue, which says what was done.
 */
import type { ReactNode } from 'react';
import { Form, Link, type ShouldRevalidateFunctionArgs, data, redirect } from 'react-router';
import type { Route } from './+types/review-post';
import type { ComplianceField, ComplianceFinding, ComplianceSeverity } from '../../../contract/compliance';
import { type ReviewDetail, REVIEW_EDIT_FORM_BYTES, STAFF_REASON_MAX, type StaffViewer } from '../../../contract/staff-area';
import { configFromMatches, pageMeta } from '../../seo/meta';
import { AdminFacts, AdminShell, CsrfField } from './AdminShell';
import { adminHeaders, field, requireViewer } from './admin-route';
import { when } from './lead-format';
import { findingCounts, requestedLine } from './review';
import { wrapPostTables } from '../blog/post-tables';

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(configFromMatches(matches), { title: 'Review a post', description: 'One post held for compliance review.', path: '/admin/review', noindex: true });

export const headers = adminHeaders;

const NOTE_MIN = 10;
const NOTE_MAX = 2000;
type Intent = 'approve' | 'return' | 'edit';
interface FormValues {
  note?: string;
  reason?: string;
  code?: string;
  expires?: string;
  title?: string;
  excerpt?: string;
  content?: string;
}
interface ActionAnswer {
  ok: boolean;
  intent: Intent | null;
  message: string;
  /** What the staff member sent, shown again in the form when it was refused. */
  values: FormValues | null;
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const viewer = requireViewer(context, request);
  const detail = await context.staff.reviews.get(params.id);
  // Decided meanwhile (or never held): a page that says so and leads back to the queue, answered 404.
  if (!detail) return data({ viewer, id: params.id, detail: null, editable: false }, { status: 404 });
  // A post whose edit form would be bigger than the staff guard takes (a 413) is not offered for editing here.
  return { viewer, id: params.id, detail, editable: editFormBytes(detail) <= REVIEW_EDIT_FORM_BYTES };
}

/** About how big the edit form is when sent: browsers send a textarea's line breaks as CRLF. */
function editFormBytes(detail: ReviewDetail): number {
  const fields = { title: detail.post.title, excerpt: detail.excerpt, content: detail.content };
  const sent = Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, value.replace(/\n/g, '\r\n')]));
  // The CSRF token, id, revision and intent, with room to spare.
  return new URLSearchParams(sent).toString().length + 1024;
}

/** A textarea's text as the author wrote it: browsers turn every line break into CRLF on the way. */
function textareaText(form: FormData, name: string): string {
  return field(form, name).replace(/\r\n?/g, '\n');
}

function refused(intent: Intent | null, status: 400 | 409, message: string, values: FormValues | null = null) {
  return data<ActionAnswer>({ ok: false, intent, message, values }, { status });
}

export async function action({ context, request, params }: Route.ActionArgs) {
  requireViewer(context, request);
  const form = await request.formData();
  const intent = field(form, 'intent');
  const revision = Number(field(form, 'revision'));
  const formId = field(form, 'id');
  if (intent !== 'approve' && intent !== 'return' && intent !== 'edit') return refused(null, 400, 'Unknown action: use the buttons on this page.');
  if (formId && formId !== params.id) return refused(intent, 400, 'This form belongs to another post: open that post from the queue.');
  if (!Number.isInteger(revision) || revision < 1) return refused(intent, 400, 'The form does not say which version of the post you read: load the page again, then decide.');
  const reviews = context.staff.reviews;

  if (intent === 'approve') {
    const reason = textareaText(form, 'reason');
    // The approval's code and expiry (decision 0028): empty for a generated code and the default validity.
    const approval = { code: field(form, 'approval_code').trim(), expires: field(form, 'approval_expires').trim() };
    if (reason.length > STAFF_REASON_MAX) return refused(intent, 400, `A reason can be at most ${STAFF_REASON_MAX} characters: shorten it.`, { reason, ...approval });
    const detail = await reviews.get(params.id);
    const high = detail ? unacceptedHigh(detail.findings) : 0;
    if (detail && detail.post.revision === revision && high > 0 && !reason) {
      return refused(intent, 400, `This post still has ${high} high finding${high === 1 ? '' : 's'} the author did not accept. To approve it anyway, write why in "Reason for approving"; it is kept in the audit log and the post's history. Or send it back, or edit the wording.`, { reason, ...approval });
    }
    const outcome = await reviews.approve(params.id, revision, reason, approval);
    if (!outcome.ok) return refused(intent, 409, outcome.message, { reason, ...approval });
    throw redirect(`/admin/review?approved=${encodeURIComponent(params.id)}`, 303);
  }
  if (intent === 'return') {
    const note = textareaText(form, 'note');
    if (note.length < NOTE_MIN) return refused(intent, 400, `Write the author a note of at least ${NOTE_MIN} characters: what to change, and why.`, { note });
    if (note.length > NOTE_MAX) return refused(intent, 400, `A note can be at most ${NOTE_MAX} characters.`, { note });
    const outcome = await reviews.sendBack(params.id, revision, note);
    if (!outcome.ok) return refused(intent, 409, outcome.message, { note });
    throw redirect(`/admin/review?returned=${encodeURIComponent(params.id)}`, 303);
  }
  const edit = { title: field(form, 'title'), excerpt: textareaText(form, 'excerpt'), content: textareaText(form, 'content') };
  if (!edit.title || !edit.excerpt || !edit.content) return refused(intent, 400, 'The title, the excerpt and the content are all needed: fill in the empty one.', edit);
  const outcome = await reviews.edit(params.id, revision, edit);
  if (!outcome.ok) return refused(intent, 409, outcome.message, edit);
  return { ok: true, intent, message: outcome.message, values: null } satisfies ActionAnswer;
}

/** After a refusal because the post changed, show the post as it reads now (the default skips revalidating after a 4xx). */
export function shouldRevalidate({ actionStatus, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return actionStatus === 409 ? true : defaultShouldRevalidate;
}

/** High findings the author did not accept: approving with any needs a written reason. */
function unacceptedHigh(findings: readonly ComplianceFinding[]): number {
  return findings.filter((finding) => finding.severity === 'high' && !finding.accepted).length;
}

interface Span {
  start: number;
  end: number;
  severity: ComplianceSeverity;
}

/** The class of a finding's mark: high findings stand out from the rest. */
function markClass(severity: ComplianceSeverity): string {
  return severity === 'high' ? 'review-mark review-mark-high' : 'review-mark';
}

/** The spans of a field's findings, in order, without overlaps (the first one wins). */
function spansOf(findings: readonly ComplianceFinding[], where: ComplianceField): Span[] {
  const spans = findings
    .flatMap((finding) => (finding.location?.field === where ? [{ start: finding.location.start, end: finding.location.end, severity: finding.severity }] : []))
    .sort((a, b) => a.start - b.start);
  const kept: Span[] = [];
  for (const span of spans) if (span.start >= (kept.at(-1)?.end ?? 0) && span.end > span.start) kept.push(span);
  return kept;
}

/** A plain-text field with its findings marked (React escapes every piece). */
function markText(text: string, findings: readonly ComplianceFinding[], where: ComplianceField): ReactNode[] {
  const nodes: ReactNode[] = [];
  let at = 0;
  for (const span of spansOf(findings, where)) {
    if (span.end > text.length) break;
    nodes.push(
      text.slice(at, span.start),
      <mark key={span.start} className={markClass(span.severity)}>
        {text.slice(span.start, span.end)}
      </mark>,
    );
    at = span.end;
  }
  nodes.push(text.slice(at));
  return nodes;
}

/** Whether `offset` of `html` falls inside a tag (between its `<` and `>`). */
function insideTag(html: string, offset: number): boolean {
  return html.lastIndexOf('<', offset - 1) > html.lastIndexOf('>', offset - 1);
}

/**
 * The sanitised content with each finding's matched text in a `<mark>`. The offsets are the rules' own,
 * into this very HTML; a match is marked only when it is text alone (no tag or entity in it, not inside
 * a tag), so the markup around it is never cut; any other match is listed, just not marked.
 */
function markContent(html: string, findings: readonly ComplianceFinding[]): string {
  let out = '';
  let at = 0;
  for (const span of spansOf(findings, 'content')) {
    const text = html.slice(span.start, span.end);
    if (span.end > html.length || /[<>&]/.test(text) || insideTag(html, span.start)) continue;
    out += `${html.slice(at, span.start)}<mark class="${markClass(span.severity)}">${text}</mark>`;
    at = span.end;
  }
  return out + html.slice(at);
}

function FindingItem({ finding }: { finding: ComplianceFinding }) {
  const { location } = finding;
  return (
    <li className={`review-finding review-finding-${finding.severity}`}>
      <p>
        <span className={`review-severity review-severity-${finding.severity}`}>{finding.severity}</span> <code>{finding.rule}</code>{' '}
        {location ? (
          <>
            in the {location.field} at {location.line}:{location.column}: <q>{location.text}</q>
          </>
        ) : (
          <>about the whole post: {finding.message}</>
        )}
      </p>
      <p>
        <strong>Why it matters:</strong> {finding.why}
      </p>
      <p>
        <strong>Instead:</strong> {finding.suggestion}
      </p>
      {finding.accepted ? (
        <p className="review-accepted">
          <strong>Accepted by the author:</strong> {finding.accepted.reason}
        </p>
      ) : null}
    </li>
  );
}

function PostFacts({ detail }: { detail: ReviewDetail }) {
  const { post, review, author, trust } = detail;
  const facts: Array<[string, ReactNode]> = [
    ['Author', `${author.name}${author.credentials ? `, ${author.credentials}` : ' (no credentials given)'}`],
    ['From (owner, key)', `${post.owner ?? 'site content'}${post.createdByKeyId ? `, key ${post.createdByKeyId}` : ''}`],
    ['Asks to be', requestedLine(review)],
    ['Waiting since', when(review.submitted_at)],
    ['Held by', review.rules.length > 0 ? review.rules.join(', ') : 'no rule named'],
    ['Fact-checked by', trust?.factCheckedBy ? `${trust.factCheckedBy.name}${trust.factCheckedBy.credentials ? `, ${trust.factCheckedBy.credentials}` : ''}` : 'nobody named'],
    ['News article', detail.isNewsArticle ? 'yes' : 'no'],
    ['Post', `${post.id}, revision ${post.revision}`],
  ];
  return (
    <section aria-labelledby="review-about">
      <h2 id="review-about">Who wrote and checked it</h2>
      <AdminFacts facts={facts} testId="review-facts" />
      {author.bio ? <p>About the author: {author.bio}</p> : null}
      <h3>Sources</h3>
      {trust && trust.sources.length > 0 ? (
        <ul className="admin-list" data-testid="review-sources">
          {trust.sources.map((source, index) => (
            <li key={`${index}-${source.url}`}>
              <a href={source.url} rel="noreferrer">
                {source.name}
              </a>
            </li>
          ))}
        </ul>
      ) : (
        <p>None cited.</p>
      )}
    </section>
  );
}

function Findings({ detail }: { detail: ReviewDetail }) {
  const { findings, acceptances } = detail;
  const unused = acceptances.filter((acceptance) => !findings.some((finding) => finding.rule === acceptance.rule));
  return (
    <section aria-labelledby="review-findings-title">
      <h2 id="review-findings-title">Findings ({findingCounts(findings)})</h2>
      {findings.length === 0 ? (
        <p>The rules find nothing in the post as it reads now.</p>
      ) : (
        <ol className="review-findings" data-testid="review-findings">
          {findings.map((finding, index) => (
            <FindingItem key={`${finding.rule}-${finding.location?.field ?? 'post'}-${finding.location?.start ?? index}`} finding={finding} />
          ))}
        </ol>
      )}
      {unused.length > 0 ? <p>The author also accepted, with no finding in the post now: {unused.map((acceptance) => `${acceptance.rule} (${acceptance.reason})`).join('; ')}.</p> : null}
    </section>
  );
}

function Hidden({ viewer, detail, intent }: { viewer: StaffViewer; detail: ReviewDetail; intent: Intent }) {
  return (
    <>
      <CsrfField viewer={viewer} />
      <input type="hidden" name="id" value={detail.post.id} />
      <input type="hidden" name="revision" value={detail.post.revision} />
      <input type="hidden" name="intent" value={intent} />
    </>
  );
}

/** The findings at a glance, by severity, above the decision; the details follow further down. */
function FindingSummary({ detail }: { detail: ReviewDetail }) {
  const { findings } = detail;
  const rows = (['high', 'medium', 'info'] as const).map((severity) => {
    const of = findings.filter((finding) => finding.severity === severity);
    return { severity, count: of.length, accepted: of.filter((finding) => finding.accepted).length };
  });
  const shown = rows.filter((row) => row.count > 0);
  return (
    <p className="review-summary" data-testid="review-summary">
      <strong>Findings:</strong>{' '}
      {findings.length === 0 ? (
        'the rules find nothing in the post as it reads now.'
      ) : (
        <>
          {shown.map((row) => (
            <span key={row.severity} className="review-summary-item">
              <span className={`review-severity review-severity-${row.severity}`}>{row.severity}</span> {row.count}
              {row.accepted > 0 ? ` (${row.accepted} accepted by the author)` : ''}
            </span>
          ))}{' '}
          <a href="#review-findings-title">Read every finding</a>
        </>
      )}
    </p>
  );
}

function Decisions({ viewer, detail, answer }: { viewer: StaffViewer; detail: ReviewDetail; answer: ActionAnswer | undefined }) {
  const kept = answer?.values ?? {};
  const high = unacceptedHigh(detail.findings);
  const reasonRefused = answer?.intent === 'approve' && !answer.ok;
  return (
    <section aria-labelledby="review-decide" className="review-decide">
      <h2 id="review-decide">Decide</h2>
      <FindingSummary detail={detail} />
      <div className="review-decisions">
        <Form method="post" className="admin-form review-decision" aria-labelledby="review-approve">
          <h3 id="review-approve">Approve</h3>
          <p>It goes live as its author asked: {requestedLine(detail.review)}.</p>
          <Hidden viewer={viewer} detail={detail} intent="approve" />
          {high > 0 ? (
            <div className="form-field">
              <label htmlFor="review-reason">Reason for approving</label>
              <textarea
                id="review-reason"
                name="reason"
                rows={3}
                maxLength={STAFF_REASON_MAX}
                aria-describedby="review-reason-hint"
                defaultValue={answer?.intent === 'approve' ? kept.reason : undefined}
                {...(reasonRefused ? { 'aria-invalid': true } : {})}
              />
              <span id="review-reason-hint" className="field-hint">
                Required: {high} high finding{high === 1 ? '' : 's'} the author did not accept remain{high === 1 ? 's' : ''}. Say why the post may go live as it is; the audit log and the post&apos;s history keep it.
              </span>
            </div>
          ) : null}
          <div className="form-field">
            <label htmlFor="review-approval-code">Approval code</label>
            <input id="review-approval-code" name="approval_code" type="text" maxLength={64} aria-describedby="review-approval-code-hint" defaultValue={answer?.intent === 'approve' ? kept.code : undefined} {...(reasonRefused ? { 'aria-invalid': true } : {})} />
            <span id="review-approval-code-hint" className="field-hint">
              A carrier&apos;s compliance code, or leave empty for one like ADV-2026-0042. The advertising archive keeps it with this version.
            </span>
          </div>
          <div className="form-field">
            <label htmlFor="review-approval-expires">Approval valid until</label>
            <input id="review-approval-expires" name="approval_expires" type="date" aria-describedby="review-approval-expires-hint" defaultValue={answer?.intent === 'approve' ? kept.expires : undefined} {...(reasonRefused ? { 'aria-invalid': true } : {})} />
            <span id="review-approval-expires-hint" className="field-hint">
              Empty: the site&apos;s default (APPROVAL_VALID_MONTHS, 12 months). When it runs out, the post leaves the site and comes back here for review.
            </span>
          </div>
          <button type="submit" className="button button-primary">
            Approve
          </button>
        </Form>
        <Form method="post" className="admin-form review-decision" aria-labelledby="review-return">
          <h3 id="review-return">Send back</h3>
          <p>It becomes a draft again; the author reads your note in the API and in blogpost list.</p>
          <Hidden viewer={viewer} detail={detail} intent="return" />
          <div className="form-field">
            <label htmlFor="review-note">Note to the author (what to change, and why)</label>
            <textarea id="review-note" name="note" rows={4} required minLength={NOTE_MIN} maxLength={NOTE_MAX} defaultValue={answer?.intent === 'return' ? kept.note : undefined} />
          </div>
          <button type="submit" className="button button-outline">
            Send back
          </button>
        </Form>
        <div className="admin-form review-decision">
          <h3>Edit</h3>
          <p>Correct the wording yourself; the post keeps waiting for review and the rules check it again.</p>
          <a href="#review-edit" className="button button-outline">
            Edit the wording
          </a>
          <p>
            Or <Link to={`/admin/posts/${encodeURIComponent(detail.post.id)}/edit`}>open it in the Markdown editor</Link> to correct it with a live preview and the findings beside the text; it keeps waiting for review.
          </p>
        </div>
      </div>
    </section>
  );
}

function EditWording({ viewer, detail, editable, answer }: { viewer: StaffViewer; detail: ReviewDetail; editable: boolean; answer: ActionAnswer | undefined }) {
  const kept = answer?.values ?? {};
  return (
    <section aria-labelledby="review-edit">
      <h2 id="review-edit">Edit the wording</h2>
      {editable ? (
        <Form method="post" className="admin-form review-edit" aria-labelledby="review-edit">
          <p>Saving keeps the post waiting for review; the rules check it again and the findings above follow.</p>
          <Hidden viewer={viewer} detail={detail} intent="edit" />
          <div className="form-field">
            <label htmlFor="review-title">Title</label>
            <input id="review-title" name="title" type="text" required defaultValue={answer?.intent === 'edit' ? kept.title : detail.post.title} />
          </div>
          <div className="form-field">
            <label htmlFor="review-excerpt">Excerpt</label>
            <textarea id="review-excerpt" name="excerpt" rows={3} required defaultValue={answer?.intent === 'edit' ? kept.excerpt : detail.excerpt} />
          </div>
          <div className="form-field">
            <label htmlFor="review-content">Content (HTML)</label>
            <textarea id="review-content" name="content" rows={16} required className="review-html" defaultValue={answer?.intent === 'edit' ? kept.content : detail.content} />
          </div>
          <button type="submit" className="button button-outline">
            Save the wording
          </button>
        </Form>
      ) : (
        <p>This post is too long to edit here (a staff form takes at most {REVIEW_EDIT_FORM_BYTES / 1_048_576} MB): send it back with a note, and its author changes it through the API.</p>
      )}
    </section>
  );
}

export default function AdminReviewPost({ loaderData, actionData }: Route.ComponentProps) {
  const { viewer, id, detail, editable } = loaderData;
  if (!detail) {
    return (
      <AdminShell viewer={viewer} title="Not waiting for review">
        <p data-testid="review-gone">
          The post <code>{id}</code> is not waiting for review: it was approved, sent back or deleted, or was never held. <Link to="/admin/review">Back to the review queue</Link>.
        </p>
      </AdminShell>
    );
  }
  return (
    <AdminShell viewer={viewer} title={`Review: ${detail.post.title}`}>
      {actionData ? (
        <p role="status" className={actionData.ok ? 'admin-notice' : 'admin-notice admin-refusal'} data-testid="review-message">
          {actionData.message}
        </p>
      ) : null}
      <p>
        <Link to="/admin/review">Back to the review queue</Link> · <Link to={`/admin/posts/${encodeURIComponent(id)}/preview`}>Preview it as readers will see it</Link>
      </p>
      <Decisions viewer={viewer} detail={detail} answer={actionData} />
      <PostFacts detail={detail} />
      <Findings detail={detail} />
      <section aria-labelledby="review-post-title">
        <h2 id="review-post-title">The post</h2>
        <article className="review-post" data-testid="review-post">
          <p className="review-post-title">{markText(detail.post.title, detail.findings, 'title')}</p>
          <p className="lead">{markText(detail.excerpt, detail.findings, 'excerpt')}</p>
          {/* Sanitised by the API on the way in, as on the post's public page; only <mark> is added, around text. */}
          <div className="post-content prose" dangerouslySetInnerHTML={{ __html: wrapPostTables(markContent(detail.content, detail.findings)) }} />
        </article>
      </section>
      <EditWording viewer={viewer} detail={detail} editable={editable} answer={actionData} />
    </AdminShell>
  );
}
