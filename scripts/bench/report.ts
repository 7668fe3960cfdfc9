/**
 * What a benchmark group reports (a section: a table, its budgets, notes) and the Markdown of the whole
 * report, printed by every run and written to docs/benchmarks.md by a full one.
 */
import os from 'node:os';
import type { Measure } from './load';

export interface Budget {
  name: string;
  ok: boolean;
  /** The measured figure, e.g. "72.4%, p99 31 ms". */
  detail: string;
}

export interface Section {
  heading: string;
  /** Markdown table lines. */
  table: string[];
  budgets: Budget[];
  /** Lines after the table (rounds, sizes, what was skipped). */
  notes: string[];
}

export const fmt = (n: number, digits = 0): string => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
export const percent = (ratio: number): string => `${fmt(ratio * 100, 1)}%`;
export const mb = (bytes: number): string => `${fmt(bytes / 2 ** 20, 0)} MB`;
export const kb = (bytes: number): string => `${fmt(bytes / 1024, 1)} KB`;
export const seconds = (ms: number): string => `${fmt(ms / 1000, 2)} s`;

export function markdownTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string[] {
  // Text columns (the first) left, figures right.
  const align = header.map((_, i) => (i === 0 ? '---' : '---:'));
  return [`| ${header.join(' | ')} |`, `| ${align.join(' | ')} |`, ...rows.map((row) => `| ${row.join(' | ')} |`)];
}

export const verdict = (ok: boolean): string => (ok ? 'PASS' : 'FAIL');

/** The cells of a measurement: req/s, p50, p99. */
export function measureCells(measure: Measure): string[] {
  return [fmt(measure.rps), fmt(measure.p50, 1), fmt(measure.p99, 1)];
}

export function machine(): string {
  const cpus = os.cpus();
  return `${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${fmt(os.totalmem() / 2 ** 30, 0)} GiB, ${os.platform()} ${os.release()}, Node ${process.version}`;
}

export interface Report {
  startedAt: Date;
  minutes: number;
  how: string[];
  sections: Section[];
}

/** One section: its heading (at `level`), its table and its notes, ending in a blank line. */
export function sectionMarkdown(section: Section, level = '##'): string {
  const lines = [`${level} ${section.heading}`, '', ...section.table, ''];
  if (section.notes.length > 0) lines.push(...section.notes.map((note) => `- ${note}`), '');
  return lines.join('\n');
}

export function reportMarkdown({ startedAt, minutes, how, sections }: Report): string {
  const budgets = sections.flatMap((section) => section.budgets);
  const lines = [
    '# Benchmarks',
    '',
    `Measured ${startedAt.toISOString()} on ${machine()} with \`npm run bench\` (${fmt(minutes, 1)} minutes).`,
    '',
    '## Budgets',
    '',
    ...budgets.map((b) => `- ${verdict(b.ok)}: ${b.name} (${b.detail})`),
    '',
  ];
  lines.push(...sections.map((section) => sectionMarkdown(section)));
  lines.push('## How measured', '', ...how.map((line) => `- ${line}`), '');
  return lines.join('\n');
}

/**
 * `document` with the part between `<!-- name -->` and `<!-- /name -->` replaced by `section` (appended,
 * with its markers, when the document has none): the sections other scripts own in docs/benchmarks.md.
 */
export function replaceMarkedSection(document: string, name: string, section: string): string {
  const open = `<!-- ${name} -->`;
  const close = `<!-- /${name} -->`;
  const block = `${open}\n${section.trimEnd()}\n${close}`;
  const start = document.indexOf(open);
  const end = document.indexOf(close);
  if (start === -1 || end < start) return `${document.trimEnd()}\n\n${block}\n`;
  return `${document.slice(0, start)}${block}${document.slice(end + close.length)}`;
}

/** The marked sections (see replaceMarkedSection) of `document`, in order, markers included. */
export function markedSections(document: string): string[] {
  return [...document.matchAll(/<!-- ([\w:-]+) -->[\s\S]*?<!-- \/\1 -->/g)].map((match) => match[0]);
}
