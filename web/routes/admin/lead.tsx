/**
 * /admin/leads/:id: one quote request: every answer, the agents' notes, where its notifications stand,
 * and the consent record (the exact text the visitor saw, its hash, time, address, browser, page, GPC,
 * and how the agency may contact them). A staff member moves it along (new, in progress, closed), adds
 * a note, or deletes the person's data on request (with a confirmation; the audit keeps only that it
 * happened). Speed to lead: who it is assigned to (and giving it to someone else), the contact attempts
 * with their outcome (recording one stops the escalation), and the visitor's "stop contacting me"
 * (shown when given, or recorded here from a phone call). Every form carries the CSRF token and works
 * without JavaScript.
 */
import { Form, data, redirect } from 'react-router';
import type { Route } from './+types/lead';
import { CONTACT_CHANNELS, CONTACT_OUTCOME_LABELS, CONTACT_OUTCOMES } from '../../../contract/leads';
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
  if (intent === 'attempt') {
    const outcome = await context.staff.leads.recordAttempt(params.id, { channel: field(form, 'channel'), outcome: field(form, 'outcome'), note: field(form, 'attempt-note') });
    if (!outcome.ok) return data({ message: outcome.message }, { status: outcome.status });
    return { message: 'Contact attempt recorded.' };
  }
  if (intent === 'assign') {
    const outcome = await context.staff.leads.assign(params.id, field(form, 'staff'));
    if (!outcome.ok) return data({ message: outcome.message }, { status: outcome.status });
    return { message: `Assigned to ${outcome.lead.assignee?.name ?? 'them'}; they get a notice by e-mail.` };
  }
  if (intent === 'opt-out') {
    if (field(form, 'confirm') !== 'yes') return data({ message: 'Tick the box to confirm that the visitor asked not to be contacted.' }, { status: 400 });
    const outcome = await context.staff.leads.recordOptOut(params.id);
    if (!outcome.ok) return data({ message: outcome.message }, { status: outcome.status });
    return { message: 'Recorded: the visitor asked not to be contacted. Automatic e-mails to them have stopped.' };
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
  const { viewer, lead, notifications, takers = [], firstContactDueAt = null, attribution = null } = loaderData;
  const attempts = lead.contactAttempts ?? [];
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

      <section aria-labelledby="lead-first-contact" data-testid="lead-first-contact">
        <h2 id="lead-first-contact">First contact</h2>
        <p data-testid="lead-assignee">
          Assigned to <strong>{lead.assignee ? `${lead.assignee.name} (${lead.assignee.email})` : 'nobody yet'}</strong>
          {lead.assignee ? `, ${lead.assignee.by === 'round-robin' ? 'in turn' : `by ${lead.assignee.by.replace(/^staff:/, '')}`}, ${when(lead.assignee.at)}` : ''}.
          {firstContactDueAt ? ` First contact due by ${when(firstContactDueAt)} (office hours).` : ''}
          {lead.escalatedAt ? ` Escalated ${when(lead.escalatedAt)}: nobody had made contact in time.` : ''}
        </p>
        {takers.length > 0 ? (
          <Form method="post" className="admin-inline-form">
            <CsrfField viewer={viewer} />
            <input type="hidden" name="intent" value="assign" />
            <label htmlFor="lead-assign">Give it to</label>
            <select id="lead-assign" name="staff" defaultValue={lead.assignee?.staffId ?? ''}>
              {takers.map((taker) => (
                <option key={taker.id} value={taker.id}>
                  {taker.name} ({taker.email})
                </option>
              ))}
            </select>
            <button type="submit" className="button button-outline">
              Assign
            </button>
          </Form>
        ) : null}
        <h3>Contact attempts</h3>
        {attempts.length === 0 ? (
          <p data-testid="lead-no-attempts">None yet.</p>
        ) : (
          <ol className="admin-list" data-testid="lead-attempts">
            {attempts.map((attempt) => (
              <li key={`${attempt.at}-${attempt.by}`}>
                {when(attempt.at)}, <strong>{attempt.by}</strong>: {`${attempt.channel}, ${CONTACT_OUTCOME_LABELS[attempt.outcome]}${attempt.note ? `: ${attempt.note}` : ''}`}
              </li>
            ))}
          </ol>
        )}
        <Form method="post" className="admin-form" aria-label="Record a contact attempt">
          <CsrfField viewer={viewer} />
          <input type="hidden" name="intent" value="attempt" />
          <fieldset className="form-field">
            <legend>How</legend>
            {CONTACT_CHANNELS.map((channel, index) => (
              <label key={channel} className="choice" htmlFor={`attempt-channel-${channel}`}>
                <input id={`attempt-channel-${channel}`} type="radio" name="channel" value={channel} defaultChecked={index === 0} /> {channel}
              </label>
            ))}
          </fieldset>
          <div className="form-field">
            <label htmlFor="attempt-outcome">Outcome</label>
            <select id="attempt-outcome" name="outcome" defaultValue="reached">
              {CONTACT_OUTCOMES.map((outcome) => (
                <option key={outcome} value={outcome}>
                  {CONTACT_OUTCOME_LABELS[outcome]}
                </option>
              ))}
            </select>
          </div>
          <div className="form-field">
            <label htmlFor="attempt-note">Note (optional)</label>
            <textarea id="attempt-note" name="attempt-note" rows={2} maxLength={1000} />
          </div>
          <button type="submit" className="button button-primary">
            Record attempt
          </button>
        </Form>
      </section>

      <section aria-labelledby="lead-contact-wish" data-testid="lead-opt-out">
        <h2 id="lead-contact-wish">Stop contacting me</h2>
        {lead.optOut ? (
          <p data-testid="lead-opt-out-status">
            <strong>The visitor asked not to be contacted</strong> on {when(lead.optOut.at)}, {lead.optOut.channel === 'phone' ? 'by phone' : "through the link in the agency's e-mail"}
            {lead.optOut.by.startsWith('staff:') ? ` (recorded by ${lead.optOut.by.slice(6)})` : ''}. No automatic e-mails go to them.
          </p>
        ) : (
          <Form method="post" className="admin-inline-form">
            <CsrfField viewer={viewer} />
            <input type="hidden" name="intent" value="opt-out" />
            <label className="choice" htmlFor="lead-opt-out-confirm">
              <input id="lead-opt-out-confirm" type="checkbox" name="confirm" value="yes" /> The visitor asked by phone not to be contacted
            </label>
            <button type="submit" className="button button-outline">
              Record it
            </button>
          </Form>
        )}
      </section>

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

      <section aria-labelledby="lead-attribution" data-testid="lead-attribution">
        <h2 id="lead-attribution">Where they came from</h2>
        {attribution ? (
          <AdminFacts
            facts={[
              ['First page of the visit', attribution.landing ?? '-'],
              ['Articles read before sending', attribution.articles.length > 0 ? attribution.articles.join(', ') : 'none'],
              ['Campaign (utm_source)', attribution.utmSource ?? 'none'],
            ]}
          />
        ) : (
          <p>Not known: the visitor sent Global Privacy Control or Do Not Track, or no page view of theirs was counted that day.</p>
        )}
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
