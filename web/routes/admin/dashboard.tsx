/**
 * /admin ("Admin Dashboard"): what needs a staff member's attention: new quote requests, the latest
 * posts, the API keys used in the last day, how many API requests failed in it, and how many posts
 * wait for a compliance review (/admin/review).
 */
import { Link } from 'react-router';
import type { Route } from './+types/dashboard';
import { configFromMatches, pageMeta } from '../../seo/meta';
import { AdminShell } from './AdminShell';
import { adminHeaders, requireViewer } from './admin-route';
import { contactLine, when } from './lead-format';

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(configFromMatches(matches), {
    title: 'Admin Dashboard',
    description: 'Administration area of the agency website for staff members only.',
    path: '/admin',
    noindex: true,
  });

export const headers = adminHeaders;

export async function loader({ context, request }: Route.LoaderArgs) {
  const viewer = requireViewer(context, request);
  return { viewer, summary: await context.staff.dashboard() };
}

export default function AdminDashboard({ loaderData }: Route.ComponentProps) {
  const { viewer, summary } = loaderData;
  return (
    <AdminShell viewer={viewer} title="Admin Dashboard">
      <ul className="admin-figures">
        <li>
          <strong data-testid="new-leads">{summary.newLeads}</strong> new quote request{summary.newLeads === 1 ? '' : 's'}
        </li>
        <li>
          <strong>{summary.keysUsedLastDay.length}</strong> API key{summary.keysUsedLastDay.length === 1 ? '' : 's'} used in the last day
        </li>
        <li>
          <strong>{summary.failedRequestsLastDay}</strong> failed API request{summary.failedRequestsLastDay === 1 ? '' : 's'} in the last day
        </li>
        <li data-testid="in-review">
          <strong>{summary.inReview}</strong> <Link to="/admin/review">post{summary.inReview === 1 ? '' : 's'} waiting for compliance review</Link>
        </li>
      </ul>
      <section aria-labelledby="dash-leads">
        <h2 id="dash-leads">New quote requests</h2>
        {summary.latestLeads.length === 0 ? (
          <p>No new requests. They arrive from the form on /get-quote.</p>
        ) : (
          <ul className="admin-list">
            {summary.latestLeads.map((lead) => (
              <li key={lead.id}>
                <Link to={`/admin/leads/${lead.id}`}>{lead.name}</Link> · {contactLine(lead)} · {when(lead.createdAt)}
              </li>
            ))}
          </ul>
        )}
        <p>
          <Link to="/admin/leads">All quote requests</Link>
        </p>
      </section>
      <section aria-labelledby="dash-posts">
        <h2 id="dash-posts">Latest posts</h2>
        <ul className="admin-list">
          {summary.recentPosts.map((post) => (
            <li key={post.id}>
              {post.status === 'published' ? <a href={`/blog/${post.slug}`}>{post.title}</a> : post.title} · {post.status} · {post.author} · {when(post.updatedAt)}
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="dash-keys">
        <h2 id="dash-keys">API keys used in the last day</h2>
        {summary.keysUsedLastDay.length === 0 ? (
          <p>None.</p>
        ) : (
          <ul className="admin-list">
            {summary.keysUsedLastDay.map((key) => (
              <li key={key.id}>
                {key.name} ({key.owner}) · {when(key.lastUsedAt)}
              </li>
            ))}
          </ul>
        )}
      </section>
    </AdminShell>
  );
}
