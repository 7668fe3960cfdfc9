/**
 * /admin/archive.zip: the advertising archive's export for an examination (decision 0028), a plain GET
 * a link downloads without JavaScript: `?post=<id or path>` for one post or page, `?from=&to=` (dates)
 * for what was live between them, nothing for everything. Never cached.
 */
import type { Route } from './+types/archive-zip';
import { requireViewer } from './admin-route';

/** A date of the query (YYYY-MM-DD: the start of that day for `from`, its end for `to`), or undefined when absent or unreadable. */
function bound(value: string | null, end: boolean): string | undefined {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const ms = Date.parse(`${value}T${end ? '23:59:59.999' : '00:00:00.000'}Z`);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

export async function loader({ context, request }: Route.LoaderArgs) {
  requireViewer(context, request);
  const params = new URL(request.url).searchParams;
  const post = params.get('post')?.trim() || undefined;
  const from = bound(params.get('from'), false);
  const to = bound(params.get('to'), true);
  const zip = await context.staff.archive.exportZip({ ...(post ? { post } : {}), ...(from ? { from } : {}), ...(to ? { to } : {}) });
  const day = new Date().toISOString().slice(0, 10);
  const name = post ? `advertising-archive-${post.replace(/[^a-zA-Z0-9-]+/g, '-').slice(0, 60)}-${day}.zip` : `advertising-archive-${day}.zip`;
  return new Response(new Uint8Array(zip), {
    headers: {
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="${name}"`,
      'Cache-Control': 'no-store',
    },
  });
}
