/**
 * /admin/posts/:id/archive: a post's advertising archive timeline (decision 0028), every version the
 * public saw, oldest first, with the times it was live, who made and approved it and under which code,
 * its findings at that moment and its hashes; and a plain GET link to the export ZIP for this post
 * (index.csv, index.html, each version's HTML), which works without JavaScript. A purged post's records
 * stay, so the page works for it too. Staff pages are never cached (adminHeaders).
 */
import { Link, data } from 'react-router';
import type { Route } from './+types/post-archive';
import { configFromMatches, pageMeta } from '../../seo/meta';
import { AdminShell } from './AdminShell';
import { adminHeaders, requireViewer } from './admin-route';
import { when } from './lead-format';

export const meta: Route.MetaFunction = ({ matches, params }) =>
  pageMeta(configFromMatches(matches), { title: 'Advertising archive of a post', description: 'Every version of a post the public saw.', path: `/admin/posts/${params.id}/archive`, noindex: true });

export const headers = adminHeaders;

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const viewer = requireViewer(context, request);
  const timeline = await context.staff.archive.timeline(params.id);
  if (!timeline) return data({ viewer, id: params.id, timeline: null }, { status: 404 });
  return { viewer, id: params.id, timeline };
}

const EVENTS: Record<string, string> = {
  published: 'Went live',
  updated: 'Changed while live',
  unpublished: 'Taken off the site',
  deleted: 'Deleted',
  page_changed: 'Page changed',
};

export default function AdminPostArchive({ loaderData }: Route.ComponentProps) {
  const { viewer, id, timeline } = loaderData;
  if (!timeline) {
    return (
      <AdminShell viewer={viewer} title="No archive for this post">
        <p>The advertising archive holds no version of post {id}: it has never been public. Back to the <Link to="/admin/posts">posts list</Link>.</p>
      </AdminShell>
    );
  }
  return (
    <AdminShell viewer={viewer} title={`Archive: ${timeline.title}`}>
      <p>
        Every version of this post the public saw, as recorded when it went live; records are chained by hash and never changed or removed with the post.{' '}
        <a href={`/admin/archive.zip?post=${encodeURIComponent(id)}`} download>
          Download the export (ZIP: index.csv, index.html and each version)
        </a>
      </p>
      <ol className="admin-list archive-timeline" data-testid="archive-timeline">
        {timeline.entries.map((entry) => (
          <li key={entry.seq} data-seq={entry.seq}>
            <strong>{EVENTS[entry.event] ?? entry.event}</strong> · #{entry.seq} · {entry.title} ({entry.path})
            <br />
            Live from {when(entry.liveFrom)}
            {entry.event === 'published' || entry.event === 'updated' ? <> to {entry.liveTo ? when(entry.liveTo) : 'now'}</> : null}
            {entry.madeBy ? <> · by {entry.madeBy}</> : null}
            {entry.approvalCode ? (
              <>
                {' '}
                · approved by {entry.approver ?? 'unknown'} under <code>{entry.approvalCode}</code>
              </>
            ) : null}
            {entry.findings.length > 0 ? <> · findings: {entry.findings.map((finding) => `${finding.rule} (${finding.severity})`).join(', ')}</> : null}
            <br />
            <small>
              content SHA-256 <code>{entry.contentHash.slice(0, 16)}…</code> · record hash <code>{entry.hash.slice(0, 16)}…</code>
            </small>
          </li>
        ))}
      </ol>
    </AdminShell>
  );
}
