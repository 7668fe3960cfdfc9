/**
 * Compliance findings as the CLI prints them: `file:line:column severity rule message`, the line and
 * column being in the file the author edits, not in the HTML it becomes. They are found by
 * api/authoring/file-findings.ts, the code the server runs on a post's Markdown source too; a finding
 * the server reports with its place in the file as sent (`source`) is shown there as it is.
 */
import path from 'node:path';
import { blockingFindings, type ComplianceFinding, type ComplianceSeverity, COMPLIANCE_SEVERITIES } from '../contract/compliance';
import { placeFinding, placeKey, type PostText, type SourceFinding } from '../api/operations';
import type { CommandContext } from './context';
import { printable } from './output';

export { complianceSubject, offlineFindings, placeFinding, type PostText, type SourceFinding } from '../api/operations';

/** The server's findings placed in the file, and those not already among the offline ones (by rule and place). */
export function serverFindings(findings: readonly ComplianceFinding[], post: PostText, offline: readonly SourceFinding[]): { all: SourceFinding[]; unseen: SourceFinding[] } {
  const seen = new Set(offline.map(placeKey));
  // The server found it in this very text (the file as sent) when it says where; else it is looked for.
  const all = findings.map((finding): SourceFinding => (finding.source ? { ...finding, line: finding.source.line, column: finding.source.column } : placeFinding(finding, post)));
  const unseen: SourceFinding[] = [];
  for (const finding of all) {
    const key = placeKey(finding);
    if (seen.has(key)) continue;
    seen.add(key);
    unseen.push(finding);
  }
  return { all, unseen };
}

/** How a file is named in a finding's line: relative to the working folder, `<stdin>` for standard input. */
export function displayPath(file: string | undefined, cwd: string): string {
  if (!file) return '<stdin>';
  const relative = path.relative(cwd, file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

const SEVERITY_STYLE: Record<ComplianceSeverity, 'red' | 'yellow' | 'cyan'> = { high: 'red', medium: 'yellow', info: 'cyan' };

/** The lines of one finding: `file:line:column severity rule message`, then the suggestion (or the acceptance's reason). */
export function findingLines(finding: SourceFinding, file: string, paint: (style: 'red' | 'yellow' | 'cyan' | 'dim', value: string) => string = (_, value) => value): string[] {
  const place = finding.line !== null ? `${file}:${finding.line}:${finding.column ?? 1}` : `${file}: (${finding.location ? `${finding.location.field} ${finding.location.line}:${finding.location.column} as sent` : 'the post'})`;
  const severity = paint(finding.accepted ? 'dim' : SEVERITY_STYLE[finding.severity], finding.severity);
  const accepted = finding.accepted ? ` ${paint('dim', '(accepted)')}` : '';
  // A finding the server sent quotes text from the post: no control character reaches the terminal.
  const head = `${place} ${severity}${accepted} ${finding.rule} ${printable(finding.message)}`;
  return [head, finding.accepted ? `    accepted: ${printable(finding.accepted.reason)}` : `    → ${printable(finding.suggestion)}`];
}

/** Prints findings to stderr (validate, publish: they are messages there, the post is the data). */
export function printFindings(findings: readonly SourceFinding[], file: string, ctx: CommandContext): void {
  const paint = (style: 'red' | 'yellow' | 'cyan' | 'dim', value: string) => ctx.out.paint(ctx.io.stderr, style, value);
  for (const finding of findings) for (const line of findingLines(finding, file, paint)) ctx.out.info(line);
}

export interface FindingCounts {
  high: number;
  medium: number;
  info: number;
  accepted: number;
}

/** Unaccepted findings by severity, and the accepted ones apart. */
export function countFindings(findings: readonly ComplianceFinding[]): FindingCounts {
  const counts: FindingCounts = { high: 0, medium: 0, info: 0, accepted: 0 };
  for (const finding of findings) {
    if (finding.accepted) counts.accepted += 1;
    else counts[finding.severity] += 1;
  }
  return counts;
}

/** "2 high, 1 medium (1 accepted)"; "no findings" when there are none. */
export function describeCounts(counts: FindingCounts): string {
  const parts = COMPLIANCE_SEVERITIES.filter((severity) => counts[severity] > 0).map((severity) => `${counts[severity]} ${severity}`);
  const accepted = counts.accepted > 0 ? ` (${counts.accepted} accepted)` : '';
  return `${parts.length > 0 ? parts.join(', ') : counts.accepted > 0 ? 'no open findings' : 'no findings'}${accepted}`;
}

/** High findings not accepted: what a site in review mode holds and in block mode refuses. */
export function unacceptedHigh(findings: readonly ComplianceFinding[]): number {
  return blockingFindings(findings).length;
}
