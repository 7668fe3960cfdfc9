/**
 * /admin/leads: the inbox of quote requests, newest first, filtered by status, by a search over name,
 * e-mail, phone and id, or showing the requests kept aside as spam; each links to its detail page, and
 * the same filter exports as CSV. Speed to lead's filters: the leads waiting for a first contact
 * (`waiting=1`), and those received this week or last (`week=this|last`), where the dashboard's figures
 * lead. Works without JavaScript (the filter is a GET form).
 */
import { Form, Link } from 'react-router';
import type { Route } from './+types/leads';
import { LEAD_STATUSES, type LeadStatus } from '../../../contract/quote-request';
import type { LeadListQuery } from '../../../contract/staff-area';
import { configFromMatches, pageMeta } from '../../seo/meta';
import { AdminShell, FilterSelect } from './AdminShell';
import { adminHeaders, requireViewer } from './admin-route';
import { contactLine, dollars, when } from './lead-format';

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(configFromMatches(matches), { title: 'Quote requests', description: 'The quote requests visitors sent.', path: '/admin/leads', noindex: true });

export const headers = adminHeaders;

/** The filter a leads URL names (unknown values are ignored). */
export function leadQuery(params: URLSearchParams): LeadListQuery {
  const status = params.get('status') ?? '';
  const q = (params.get('q') ?? '').trim().slice(0, 200);
  const week = params.get('week');
  return {
    ...((LEAD_STATUSES as readonly string[]).includes(status) ? { status: status as LeadStatus } : {}),
    ...(q ? { q } : {}),
    spam: params.get('spam') === '1',
    ...(params.get('waiting') === '1' ? { waiting: true } : {}),
    ...(week === 'this' || week === 'last' ? { week } : {}),
  };
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const viewer = requireViewer(context, request);
  const url = new URL(request.url);
  const query = leadQuery(url.searchParams);
  return { viewer, query, leads: await context.staff.leads.list(query), deleted: url.searchParams.get('deleted'), search: url.search };
}

export default function AdminLeads({ loaderData }: Route.ComponentProps) {
  const { viewer, query, leads, deleted, search } = loaderData;
  return (
    <AdminShell viewer={viewer} title="Quote requests">
      {deleted ? (
        <p role="status" className="admin-notice">
          Deleted the request {deleted} and its notifications. The audit log records that it was deleted, not what it held.
        </p>
      ) : null}
      <Form method="get" className="admin-filter" role="search" aria-label="Filter quote requests">
        <FilterSelect id="lead-status" label="Status" name="status" value={query.status} any="Any" options={LEAD_STATUSES.map((status) => [status, status] as const)} />
        <div className="form-field">
          <label htmlFor="lead-q">Search</label>
          <input id="lead-q" name="q" type="search" defaultValue={query.q ?? ''} placeholder="Name, e-mail, phone or id" />
        </div>
        <label className="choice" htmlFor="lead-spam">
          <input id="lead-spam" type="checkbox" name="spam" value="1" defaultChecked={query.spam} /> Kept aside as spam
        </label>
        <label className="choice" htmlFor="lead-waiting">
          <input id="lead-waiting" type="checkbox" name="waiting" value="1" defaultChecked={query.waiting ?? false} /> Waiting for a first contact
        </label>
        {query.week ? <input type="hidden" name="week" value={query.week} /> : null}
        <button type="submit" className="button button-outline">
          Filter
        </button>
      </Form>
      <p data-testid="leads-count">
        {leads.length} request{leads.length === 1 ? '' : 's'}
        {query.week ? ` received ${query.week === 'this' ? 'this' : 'last'} week` : ''}
        {query.waiting ? ' waiting for a first contact' : ''}.{' '}
        <a href={`/admin/leads.csv${search}`} download>
          Export these as CSV
        </a>
      </p>
      {leads.length > 0 ? (
        <div className="table-scroll">
          <table className="admin-table" data-testid="leads-table">
            <thead>
              <tr>
                <th scope="col">Received</th>
                <th scope="col">Name</th>
                <th scope="col">Contact</th>
                <th scope="col">Age</th>
                <th scope="col">Yearly</th>
                <th scope="col">Status</th>
                <th scope="col">Assigned to</th>
              </tr>
            </thead>
            <tbody>
              {leads.map((lead) => (
                <tr key={lead.id}>
                  <td>{when(lead.createdAt)}</td>
                  <td>
                    <Link to={`/admin/leads/${lead.id}`}>{lead.name}</Link>
                  </td>
                  <td>{contactLine(lead)}</td>
                  <td>{lead.age}</td>
                  <td>{dollars(lead.annualContribution)}</td>
                  <td>
                    {lead.spam ? `spam (${lead.spam})` : lead.status}
                    {lead.optOut ? ' · asked not to be contacted' : ''}
                    {lead.escalatedAt ? ' · escalated' : ''}
                  </td>
                  <td>{lead.assignee?.name ?? 'nobody'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p>No requests match. They arrive from the form on /get-quote.</p>
      )}
    </AdminShell>
  );
}
