/**
 * /admin/leads.csv: the quote requests of the inbox's filter as a spreadsheet (every field, the consent
 * record, the notifications), downloaded as it is made (any number of leads in bounded memory), never
 * cached; the export is written to the audit log when it ends.
 */
import type { Route } from './+types/leads-csv';
import { requireViewer } from './admin-route';
import { leadQuery } from './leads';

export async function loader({ context, request }: Route.LoaderArgs) {
  requireViewer(context, request);
  const csv = await context.staff.leads.csv(leadQuery(new URL(request.url).searchParams));
  const day = new Date().toISOString().slice(0, 10);
  return new Response(csv, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="quote-requests-${day}.csv"`,
      'Cache-Control': 'no-store',
    },
  });
}
