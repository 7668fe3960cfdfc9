/**
 * /admin/leads/:id: one quote request: every answer, the agents' notes, where its notifications stand,
 * and the consent record (the exact text the visitor saw, its hash, time, address, browser, page, GPC,
 * and how the agency may contact them). A staff member moves it along (new, in progress, closed), adds
 * a note, or deletes the person's data on request (with a confirmation; the audit keeps only that it
 * happened). Every form carries the CSRF token and works without JavaScript.
 */
import { Form, data, redirect } from 'react-router';
import type { Route } from './+types/lead';
import { HEALTH_RATING_LABELS, LEAD_STATUSES, type LeadStatus } from '../../../contract/quote-request';
import { configFromMatches, pageMeta } from '../../seo/meta';
import { AdminFacts, AdminShell, CsrfField } from './AdminShell';
import { adminHeaders, field, requireViewer } from './admin-route';
import { dollars, notificationLine, when } from './lead-format';

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(configFromMatches(matches), { title: 'Quote request', description: 'One quote request and its consent record.', path: '/admin/leads', noindex: true });

export const headers = adminHeaders;

const NOTE_LIMIT = 4000;

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const viewer = requireViewer(context, request);
  const detail = await context.staff.leads.get(params.id);
  if (!detail) throw data(`There is no quote request ${params.id}: it may have been deleted. The list is at /admin/leads.`, { status: 404 });
  return { viewer, ...detail };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  requireViewer(context, request);
  const form = await request.formData();
  const intent = field(form, 'intent');
  if (intent === 'status') {
    const status = field(form, 'status');
    if (!(LEAD_STATUSES as readonly string[]).includes(status)) return data({ message: `Choose one of: ${LEAD_STATUSES.join(', ')}.` }, { status: 400 });
    if (!(await context.staff.leads.setStatus(params.id, status as LeadStatus))) throw data('That quote request no longer exists.', { status: 404 });
    return { message: `Status set to ${status}.` };
  }
  if (intent === 'note') {
    const text = field(form, 'note');
    if (!text) return data({ message: 'Write the note first, then add it.' }, { status: 400 });
    if (text.length > NOTE_LIMIT) return data({ message: `A note can be at most ${NOTE_LIMIT} characters; split it into two.` }, { status: 400 });
    if (!(await context.staff.leads.addNote(params.id, text))) throw data('That quote request no longer exists.', { status: 404 });
    return { message: 'Note added.' };
  }
  if (intent === 'delete') {
    if (field(form, 'confirm') !== 'yes') return data({ message: 'Tick the box to confirm that the person asked for their data to be deleted.' }, { status: 400 });
    await context.staff.leads.delete(params.id);
    throw redirect(`/admin/leads?deleted=${encodeURIComponent(params.id)}`, 303);
  }
  return data({ message: 'Unknown action: use the buttons on this page.' }, { status: 400 });
}

function yesNo(value: boolean | null): string {
  return value === null ? 'not given' : value ? 'yes' : 'no';
}

export default function AdminLead({ loaderData, actionData }: Route.ComponentProps) {
  const { viewer, lead, notifications } = loaderData;
  const { consent } = lead;
  const facts: Array<[string, string]> = [
    ['Received', when(lead.createdAt)],
    ['Reference', lead.reference ?? 'none (sent before references)'],
    ['E-mail', lead.email ?? 'not given'],
    ['Phone', lead.phone ?? 'not given'],
    ['Preferred contact', lead.preferredContactMethod],
    ['Age', String(lead.age)],
    ['Yearly contribution', dollars(lead.annualContribution)],
    ['Retirement age', lead.retirementAge === null ? 'not given' : String(lead.retirementAge)],
    ['Retirement savings', dollars(lead.currentRetirementSavings)],
    ['Health', lead.healthRating ? HEALTH_RATING_LABELS[lead.healthRating] : 'not given'],
    ['Tobacco', yesNo(lead.tobaccoUser)],
    ['Notes from the visitor', lead.additionalNotes ?? 'none'],
    ['Spam', lead.spam ? `kept aside (${lead.spam}); never delivered` : 'no'],
  ];
  return (
    <AdminShell viewer={viewer} title={lead.name}>
      {actionData ? (
        <p role="status" className="admin-notice" data-testid="lead-message">
          {actionData.message}
        </p>
      ) : null}
      <p>
        Request <code>{lead.id}</code> · status <strong data-testid="lead-status">{lead.status}</strong> · last changed {when(lead.updatedAt)}
      </p>
      <AdminFacts facts={facts} />

      <Form method="post" className="admin-inline-form">
        <CsrfField viewer={viewer} />
        <input type="hidden" name="intent" value="status" />
        <label htmlFor="lead-new-status">Status</label>
        <select id="lead-new-status" name="status" defaultValue={lead.status}>
          {LEAD_STATUSES.map((status) => (
            <option key={status} value={status}>
              {status}
            </option>
          ))}
        </select>
        <button type="submit" className="button button-primary">
          Set status
        </button>
      </Form>

      <section aria-labelledby="lead-notes">
        <h2 id="lead-notes">Agent notes</h2>
        {lead.agentNotes.length === 0 ? (
          <p>No notes yet.</p>
        ) : (
          <ol className="admin-list" data-testid="lead-notes">
            {lead.agentNotes.map((note) => (
              <li key={`${note.at}-${note.by}`}>
                <strong>{note.by}</strong>, {when(note.at)}: {note.text}
              </li>
            ))}
          </ol>
        )}
        <Form method="post" className="admin-form">
          <CsrfField viewer={viewer} />
          <input type="hidden" name="intent" value="note" />
          <div className="form-field">
            <label htmlFor="lead-note">Add a note</label>
            <textarea id="lead-note" name="note" rows={3} maxLength={NOTE_LIMIT} required />
          </div>
          <button type="submit" className="button button-outline">
            Add note
          </button>
        </Form>
      </section>

      <section aria-labelledby="lead-notifications">
        <h2 id="lead-notifications">Notifications</h2>
        {notifications.length === 0 ? <p>None were sent for this request{lead.spam ? ' (spam is never delivered)' : ''}.</p> : null}
        <ul className="admin-list">
          {notifications.map((delivery) => (
            <li key={delivery.id}>{notificationLine(delivery)}</li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="lead-consent">
        <h2 id="lead-consent">Consent record</h2>
        <dl className="admin-facts" data-testid="consent-record">
          <div>
            <dt>Consent to calls and texts</dt>
            <dd>{consent.given ? 'given' : `not given: contact only by ${consent.contactOnlyBy ?? lead.preferredContactMethod}, about this request`}</dd>
          </div>
          <div>
            <dt>Global Privacy Control</dt>
            <dd>{consent.globalPrivacyControl ? 'sent: no marketing use' : 'not sent'}</dd>
          </div>
          <div>
            <dt>Text shown (version {consent.version})</dt>
            <dd>
              <blockquote>{consent.text}</blockquote>
              SHA-256 <code>{consent.textSha256}</code>
            </dd>
          </div>
          <div>
            <dt>When, from where</dt>
            <dd>
              {when(consent.at)} · {consent.ip} · {consent.page}
            </dd>
          </div>
          <div>
            <dt>Browser</dt>
            <dd>{consent.userAgent || 'not sent'}</dd>
          </div>
        </dl>
      </section>

      <section aria-labelledby="lead-delete" className="admin-danger">
        <h2 id="lead-delete">Delete this person's data</h2>
        <p>For a visitor who asked to be forgotten. This removes the request, its consent record and its notifications for good; the audit log keeps only that it was deleted, by whom and when.</p>
        <Form method="post">
          <CsrfField viewer={viewer} />
          <input type="hidden" name="intent" value="delete" />
          <label className="choice" htmlFor="lead-delete-confirm">
            <input id="lead-delete-confirm" type="checkbox" name="confirm" value="yes" /> The person asked for their data to be deleted
          </label>
          <button type="submit" className="button button-danger">
            Delete for good
          </button>
        </Form>
      </section>
    </AdminShell>
  );
}
