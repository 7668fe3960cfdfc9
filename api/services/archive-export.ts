/**
 * The advertising archive for an examination (decision 0028): a ZIP with `index.csv` and `index.html`
 * (every record asked for: subject, event, where it was shown, live from and to, who made and approved
 * it, the approval code, the hashes) and each version's HTML snapshot as its own file under
 * `versions/`, plus the chain's verdict at the time of the export. `blogpost archive export` writes it;
 * the staff area offers it as a download.
 */
import { strToU8, zipSync } from 'fflate';
import { type ArchiveQuery, type ArchiveRecord, VERSION_EVENTS, verifyChain } from '../store/archive';
import type { ArchiveRepository } from '../store/store';

export interface ArchiveExportQuery extends ArchiveQuery {
  /** A post's id, or a path (`/faq`, `/blog/<slug>`), or a post's slug. */
  post?: string;
}

export const CSV_COLUMNS = ['seq', 'subject', 'kind', 'event', 'path', 'title', 'live_from', 'live_to', 'made_by', 'approver', 'approval_code', 'findings', 'content_hash', 'prev_hash', 'hash', 'file'] as const;

/** The snapshot file of a version record (closing records have none). */
export function snapshotFile(record: ArchiveRecord): string | null {
  if (!VERSION_EVENTS.has(record.event)) return null;
  const name = record.path.replace(/^\/+/, '').replace(/[^a-zA-Z0-9-]+/g, '-').replace(/^-+|-+$/g, '') || 'home';
  return `versions/${String(record.seq).padStart(6, '0')}-${name.slice(0, 80)}.html`;
}

/** A spreadsheet runs a cell that starts with = + - @ tab or CR as a formula: a leading ' keeps it text. */
function csvCell(value: string): string {
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(record: ArchiveRecord): string[] {
  return [
    String(record.seq),
    record.subject,
    record.kind,
    record.event,
    record.path,
    record.title,
    record.liveFrom,
    record.liveTo ?? '',
    record.madeBy ?? '',
    record.approver ?? '',
    record.approvalCode ?? '',
    record.findings.map((finding) => `${finding.rule} (${finding.severity})`).join('; '),
    record.contentHash,
    record.prevHash,
    record.hash,
    snapshotFile(record) ?? '',
  ];
}

export function indexCsv(records: readonly ArchiveRecord[]): string {
  return [[...CSV_COLUMNS], ...records.map(csvRow)].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function indexHtml(records: readonly ArchiveRecord[], heading: { title: string; chain: string; madeAt: string }): string {
  const rows = records
    .map((record) => {
      const file = snapshotFile(record);
      const cells = csvRow(record).slice(0, -1).map((cell) => `<td>${escapeHtml(cell)}</td>`);
      return `<tr>${cells.join('')}<td>${file ? `<a href="${escapeHtml(file)}">${escapeHtml(file)}</a>` : ''}</td></tr>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(heading.title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:1rem}table{border-collapse:collapse;font-size:.8rem}th,td{border:1px solid #999;padding:.25rem;vertical-align:top;text-align:left}td{max-width:24rem;overflow-wrap:anywhere}</style>
</head>
<body>
<h1>${escapeHtml(heading.title)}</h1>
<p>Made ${escapeHtml(heading.madeAt)}. ${records.length} record(s). Chain check: ${escapeHtml(heading.chain)}</p>
<table>
<thead><tr>${CSV_COLUMNS.map((column) => `<th scope="col">${column}</th>`).join('')}</tr></thead>
<tbody>
${rows}
</tbody>
</table>
</body>
</html>
`;
}

/** The records an export asks for. */
export async function exportRecords(archive: ArchiveRepository, query: ArchiveExportQuery): Promise<ArchiveRecord[]> {
  const records = await archive.list({ ...(query.from ? { from: query.from } : {}), ...(query.to ? { to: query.to } : {}) });
  const post = query.post;
  if (!post) return records;
  return records.filter((record) => record.subject === post || record.path === post || record.path === `/blog/${post}`);
}

/** The ZIP of the records asked for, and how many it holds. */
export async function archiveExportZip(archive: ArchiveRepository, query: ArchiveExportQuery, now: Date): Promise<{ zip: Uint8Array; records: ArchiveRecord[]; chainOk: boolean }> {
  const records = await exportRecords(archive, query);
  const verdict = verifyChain(await archive.list(), await archive.base());
  const chain = verdict.ok ? `whole (${verdict.records} record(s), head ${verdict.head})` : `BROKEN at record ${verdict.seq} (${verdict.subject}): ${verdict.problem}`;
  const range = [query.from ? `from ${query.from}` : '', query.to ? `to ${query.to}` : '', query.post ? `for ${query.post}` : ''].filter(Boolean).join(' ');
  const files: Record<string, Uint8Array> = {
    'index.csv': strToU8(indexCsv(records)),
    'index.html': strToU8(indexHtml(records, { title: `Advertising archive${range ? ` ${range}` : ''}`, chain, madeAt: now.toISOString() })),
  };
  for (const record of records) {
    const file = snapshotFile(record);
    if (file) files[file] = strToU8(record.html);
  }
  return { zip: zipSync(files, { level: 6, mtime: now }), records, chainOk: verdict.ok };
}
