/**
 * /admin/audit: who did what and when, newest first: sign-ins and failed ones, keys made and revoked
 * (with the reason), posts unpublished, trashed and restored, leads worked and deleted, staff accounts
 * changed, from the staff area and the CLI alike. `blogpost audit` prints the same log.
 */
import type { Route } from './+types/audit';
import { configFromMatches, pageMeta } from '../../seo/meta';
import { AdminShell } from './AdminShell';
import { adminHeaders, requireViewer } from './admin-route';
import { when } from './lead-format';

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(configFromMatches(matches), { title: 'Audit log', description: 'Who did what in the staff area and the CLI.', path: '/admin/audit', noindex: true });

export const headers = adminHeaders;

const SHOWN = 500;

export async function loader({ context, request }: Route.LoaderArgs) {
  const viewer = requireViewer(context, request);
  return { viewer, entries: await context.staff.audit(SHOWN) };
}

export default function AdminAudit({ loaderData }: Route.ComponentProps) {
  const { viewer, entries } = loaderData;
  return (
    <AdminShell viewer={viewer} title="Audit log">
      <p>The latest {SHOWN} entries, newest first. The whole log: blogpost audit (with --since and --json).</p>
      <div className="table-scroll">
        <table className="admin-table" data-testid="audit-table">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">To what</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry, index) => (
              <tr key={`${entry.at}-${index}`}>
                <td>{when(entry.at)}</td>
                <td>{entry.actor}</td>
                <td>{entry.action}</td>
                <td>{entry.target ?? ''}</td>
                <td>
                  {Object.entries(entry.detail)
                    .map(([name, value]) => `${name}: ${String(value)}`)
                    .join(', ')}
                  {entry.ip ? ` (from ${entry.ip})` : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </AdminShell>
  );
}
