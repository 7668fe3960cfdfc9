/** /admin/analytics.csv: the staff view's figures (decision 0032) as a spreadsheet, never cached. */
import type { Route } from './+types/analytics-csv';
import { requireViewer } from './admin-route';

export async function loader({ context, request }: Route.LoaderArgs) {
  requireViewer(context, request);
  const csv = await context.staff.analyticsCsv();
  const day = new Date().toISOString().slice(0, 10);
  return new Response(csv, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="analytics-${day}.csv"`,
      'Cache-Control': 'no-store',
    },
  });
}
