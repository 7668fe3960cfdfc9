/**
 * /admin ("Admin Dashboard"): what needs a staff member's attention: new quote requests, the latest
 * posts, the API keys used in the last day, how many API requests failed in it, and how many posts
 * wait for a compliance review (/admin/review), and speed to lead: the leads waiting for a first
 * contact and the time to first contact (median and 90th percentile, this week and last), each a link
 * to the leads it counts.
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

/** "4 min" or "1 h 12 min". */
export function minutesText(minutes: number | null): string {
  if (minutes === null) return '-';
  const whole = Math.round(minutes);
  if (whole < 60) return `${whole} min`;
  return `${Math.floor(whole / 60)} h ${whole % 60} min`;
}

type SpeedFigures = NonNullable<Route.ComponentProps['loaderData']['summary']['speedToLead']>;

function SpeedToLead({ figures }: { figures: SpeedFigures }) {
  const weeks = [
    { which: 'this', label: 'This week', week: figures.thisWeek },
    { which: 'last', label: 'Last week', week: figures.lastWeek },
  ] as const;
  return (
    <section aria-labelledby="dash-speed" data-testid="speed-to-lead">
      <h2 id="dash-speed">Speed to lead</h2>
      <p>
        Time from a quote request to its first contact attempt, counted in office hours; the aim is {figures.firstContactMinutes} minutes.
      </p>
      <ul className="admin-figures">
        <li data-testid="leads-waiting">
          <Link to="/admin/leads?waiting=1">
            <strong>{figures.waiting}</strong> lead{figures.waiting === 1 ? '' : 's'} waiting for a first contact
          </Link>
          {figures.overdue > 0 ? `, ${figures.overdue} past the aim` : ''}
        </li>
        {weeks.map(({ which, label, week }) => (
          <li key={which} className="admin-speed-week" data-testid={`first-contact-${which}-week`}>
            <Link to={`/admin/leads?week=${which}`}>
              {week.contacted === 0 ? (
                `${label}: no lead contacted yet`
              ) : (
                <>
                  {`${label}: median `}
                  <strong>{minutesText(week.medianMinutes)}</strong>
                  {', 90th percentile '}
                  <strong>{minutesText(week.p90Minutes)}</strong>
                </>
              )}
            </Link>
            {week.contacted === 0 ? null : ` (${week.contacted} lead${week.contacted === 1 ? '' : 's'} contacted)`}
          </li>
        ))}
      </ul>
    </section>
  );
}

export default function AdminDashboard({ loaderData }: Route.ComponentProps) {
  const { viewer, summary } = loaderData;
  return (
    <AdminShell viewer={viewer} title="Admin Dashboard">
      <ul className="admin-figures">
        <li>
          <Link to="/admin/leads?status=new">
            <strong data-testid="new-leads">{summary.newLeads}</strong> new quote request{summary.newLeads === 1 ? '' : 's'}
          </Link>
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
      {summary.speedToLead ? <SpeedToLead figures={summary.speedToLead} /> : null}
      {summary.expiringApprovals && summary.expiringApprovals.length > 0 ? (
        <section aria-labelledby="dash-approvals" data-testid="expiring-approvals">
          <h2 id="dash-approvals">Compliance approvals running out within 30 days</h2>
          <p>When an approval runs out, its post leaves the site and waits for review again. Approve a new version before then.</p>
          <ul className="admin-list">
            {summary.expiringApprovals.map((approval) => (
              <li key={approval.id}>
                <a href={`/blog/${approval.slug}`}>{approval.title}</a> · approval {approval.code} · runs out {when(approval.expiresAt)} · <Link to={`/admin/posts/${approval.id}/archive`}>archive timeline</Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
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
          <Link to="/admin/leads">All quote requests</Link> · <Link to="/admin/analytics">Analytics: which articles bring visitors and quote requests</Link>
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
