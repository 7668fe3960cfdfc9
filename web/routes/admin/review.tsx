/**
 * /admin/review: the compliance review queue. Under COMPLIANCE_MODE=review (or block, for findings the
 * author accepted) a post that asks to go public with a high finding waits here, on no public page,
 * list or feed, until a staff member approves it or sends it back (/admin/review/:id). The page says
 * which mode the server runs in, since under `warn` nothing is ever held and an empty queue means
 * nothing. Posts are listed the longest waiting first; each decision comes back here with its outcome.
 */
import { Link } from 'react-router';
import type { Route } from './+types/review';
import { COMPLIANCE_SEVERITIES, type ComplianceFinding, type ComplianceMode } from '../../../contract/compliance';
import type { PostReview } from '../../../contract/blog';
import type { StaffArea } from '../../../contract/staff-area';
import { configFromMatches, pageMeta } from '../../seo/meta';
import { AdminShell } from './AdminShell';
import { adminHeaders, requireViewer } from './admin-route';
import { when } from './lead-format';

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(configFromMatches(matches), { title: 'Compliance review', description: 'Posts waiting for a compliance review.', path: '/admin/review', noindex: true });

export const headers = adminHeaders;

/** What the server's mode means for this queue, in the words a staff member needs. */
const MODE_TEXT: Record<ComplianceMode, string> = {
  warn: 'The server runs with COMPLIANCE_MODE=warn: posts are never held, so this queue stays empty. Authors still see the findings in the API answers and the CLI. Start the server with COMPLIANCE_MODE=review (or block) to hold posts with a high finding here before they go public.',
  review:
    'The server runs with COMPLIANCE_MODE=review: a post from a key without blog:admin that asks to go public with a high finding waits here, on no public page, list or feed, until a staff member approves it or sends it back.',
  block:
    'The server runs with COMPLIANCE_MODE=block: a post with a high finding its author did not accept is refused outright (422); one whose high findings the author accepted, with a reason, waits here for a staff member.',
};

/** "published as soon as approved" or "scheduled for <time>": what approving does. */
export function requestedLine(review: PostReview): string {
  if (review.requested_status === 'scheduled' && review.requested_publish_at) return `scheduled for ${when(review.requested_publish_at)}`;
  return 'published as soon as approved';
}

/** "2 high, 1 medium; 1 accepted by the author": the findings at a glance. */
export function findingCounts(findings: readonly ComplianceFinding[]): string {
  if (findings.length === 0) return 'none now';
  const bySeverity = COMPLIANCE_SEVERITIES.map((severity) => [severity, findings.filter((finding) => finding.severity === severity).length] as const)
    .filter(([, count]) => count > 0)
    .map(([severity, count]) => `${count} ${severity}`)
    .join(', ');
  const accepted = findings.filter((finding) => finding.accepted).length;
  return accepted > 0 ? `${bySeverity}; ${accepted} accepted by the author` : bySeverity;
}

/** The decision a review page redirected here with (`?approved=<id>` or `?returned=<id>`), told in a sentence. */
async function decisionMessage(staff: StaffArea, params: URLSearchParams): Promise<string | null> {
  const approved = params.get('approved');
  const returned = params.get('returned');
  const id = (approved ?? returned ?? '').slice(0, 100);
  if (!id) return null;
  // The id came from the address bar: it only picks a post to name, so a made-up address shows nothing.
  const post = (await staff.posts.list({ q: id })).find((candidate) => candidate.id === id);
  if (!post) return null;
  const name = `"${post.title}"`;
  if (returned !== null) return `Sent ${name} back to its author as a draft, with your note. They read it in GET /api/blog/${post.id} and in blogpost list.`;
  if (post.status === 'scheduled') return `Approved ${name}: it is scheduled and goes live at its time.`;
  if (post.status === 'published') return `Approved ${name}: it is on the site at /blog/${post.slug}.`;
  return `Approved ${name}.`;
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const viewer = requireViewer(context, request);
  const [items, decided] = await Promise.all([context.staff.reviews.list(), decisionMessage(context.staff, new URL(request.url).searchParams)]);
  return { viewer, mode: context.staff.reviews.mode, items, decided };
}

export default function AdminReview({ loaderData }: Route.ComponentProps) {
  const { viewer, mode, items, decided } = loaderData;
  return (
    <AdminShell viewer={viewer} title="Compliance review">
      {decided ? (
        <p role="status" className="admin-notice" data-testid="review-message">
          {decided}
        </p>
      ) : null}
      <p className={mode === 'warn' ? 'admin-caution' : undefined} data-testid="review-mode">
        {MODE_TEXT[mode]}
      </p>
      {items.length === 0 ? (
        <p data-testid="review-empty">
          No posts are waiting for review.
          {mode === 'warn' ? '' : ' A post held by the rules appears here, and on the dashboard, as soon as its author sends it.'}
        </p>
      ) : (
        <>
          <p>
            {items.length} post{items.length === 1 ? '' : 's'} waiting, the longest waiting first.
          </p>
          <div className="table-scroll">
            <table className="admin-table" data-testid="review-queue">
              <thead>
                <tr>
                  <th scope="col">Post</th>
                  <th scope="col">From (owner, key)</th>
                  <th scope="col">Asks to be</th>
                  <th scope="col">Waiting since</th>
                  <th scope="col">Held by</th>
                  <th scope="col">Findings</th>
                </tr>
              </thead>
              <tbody>
                {items.map(({ post, review, findings }) => (
                  <tr key={post.id}>
                    <td>
                      <Link to={`/admin/review/${post.id}`}>{post.title}</Link>
                      <br />
                      by {post.author}
                    </td>
                    <td>
                      {post.owner ?? 'site content'}
                      {post.createdByKeyId ? (
                        <>
                          , key <code>{post.createdByKeyId}</code>
                        </>
                      ) : null}
                    </td>
                    <td>{requestedLine(review)}</td>
                    <td>{when(review.submitted_at)}</td>
                    <td>{review.rules.length > 0 ? review.rules.join(', ') : 'no rule named'}</td>
                    <td>{findingCounts(findings)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </AdminShell>
  );
}
