/**
 * Compliance findings at their place in the author's file: `blogpost lint`, `validate` and `publish`
 * run the contract's rules (contract/compliance.ts) on a post file offline and show each finding as
 * `file:line:column severity rule message`, the line and column being in the file the author edits,
 * not in the HTML it becomes. The Markdown (or HTML) body is checked as it stands in the file, so a
 * content finding's place is exact; a title or excerpt is found on its front-matter line (YAML gives
 * values without positions), and a finding the server reports is placed the same way.
 */
import path from 'node:path';
import { blockingFindings, checkCompliance, type ComplianceFinding, type ComplianceSeverity, type ComplianceSubject, COMPLIANCE_SEVERITIES, lineColumn } from '../contract/compliance';
import type { PostFile } from '../api/operations';
import type { CommandContext } from './context';
import { printable } from './output';

/** What the rules need of a parsed post file, and its text for positions. */
export interface PostText {
  kind: PostFile['kind'];
  payload: Record<string, unknown>;
  source: PostFile['source'];
  text: string;
}

/** A finding with its line and column (from 1) in the file; null when it cannot be placed there. */
export interface SourceFinding extends ComplianceFinding {
  line: number | null;
  column: number | null;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** The accepts of a payload's `compliance`, the well-formed entries only (the schema reports the others). */
function acceptsOf(payload: Record<string, unknown>): ComplianceSubject['accept'] {
  const accept = record(payload.compliance)?.accept;
  if (!Array.isArray(accept)) return [];
  return accept.flatMap((entry: unknown) => {
    const rule = text(record(entry)?.rule);
    const reason = text(record(entry)?.reason);
    return rule && reason ? [{ rule: rule.trim(), reason: reason.trim() }] : [];
  });
}

/**
 * The post as the rules read it. A Markdown or HTML file's body is read as written (the rules mask
 * Markdown and HTML markup), so a finding's offset is an offset into the file; the front matter is
 * never read as text, so the reasons of `compliance.accept` cannot be findings themselves.
 */
export function complianceSubject(post: PostText): ComplianceSubject {
  const { payload, source } = post;
  const author = record(payload.author);
  const trust = record(payload.trust);
  const factCheckedBy = record(trust?.factCheckedBy);
  const title = text(payload.title);
  const excerpt = text(payload.excerpt);
  const content = source.body ? source.body.text : text(payload.content);
  const credentials = text(author?.credentials);
  const checker = text(factCheckedBy?.name);
  return {
    ...(title !== undefined ? { title } : {}),
    ...(excerpt !== undefined ? { excerpt } : {}),
    ...(content !== undefined ? { content } : {}),
    format: source.body && post.kind === 'markdown' ? 'markdown' : 'html',
    isNewsArticle: payload.isNewsArticle === true || payload.is_news_article === true,
    author: credentials !== undefined ? { credentials } : {},
    trust: { ...(checker !== undefined ? { factCheckedBy: { name: checker } } : {}), sources: Array.isArray(trust?.sources) ? trust.sources : [] },
    accept: acceptsOf(payload),
  };
}

/** The file key a finding about the whole post is about: its line is where the author fixes it. */
const POST_RULE_KEYS: Readonly<Record<string, readonly string[]>> = {
  'news-without-fact-checker': ['isNewsArticle', 'is_news_article', 'trust'],
  'projections-without-credentials': ['author'],
};

/** Between two words of a match: anything but letters and digits, or a JSON escape (`\n`, `\u00a0`). */
const BETWEEN = String.raw`(?:\\(?:u[0-9a-fA-F]{4}|[nrtbf])|[^\p{L}\p{N}])+`;

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** A pattern for the matched text as it may be written in the file: any quoting, escaping, markup or line breaks between its words. */
function sourcePattern(matched: string): RegExp | undefined {
  const parts = matched.split(/([^\p{L}\p{N}]+)/u);
  const words = parts.filter((_, index) => index % 2 === 0);
  if (!words.some((word) => word !== '')) return undefined;
  const lead = parts[0] === '' && parts[1] ? `(?:${escapeRegExp(parts[1])})?` : '';
  const body = words.filter((word) => word !== '').map(escapeRegExp).join(BETWEEN);
  return new RegExp(`${lead}${body}`, 'giu');
}

/** The offset in the file of the matched text inside `span`: the occurrence nearest to where the field has it. */
function searchSpan(file: string, span: { start: number; end: number }, matched: string, near: number): number {
  const pattern = sourcePattern(matched);
  if (!pattern) return span.start;
  const inside = file.slice(span.start, span.end);
  let best: number | undefined;
  for (const match of inside.matchAll(pattern)) {
    if (best === undefined || Math.abs(match.index - near) < Math.abs(best - near)) best = match.index;
  }
  return span.start + (best ?? 0);
}

/** Where a finding sits in the file (an offset), or undefined when the file does not hold its field. */
function offsetOf(finding: ComplianceFinding, post: PostText, exact: boolean): number | undefined {
  const { location } = finding;
  const { source } = post;
  if (!location) {
    const key = (POST_RULE_KEYS[finding.rule] ?? []).find((name) => source.keys[name] !== undefined);
    return key ? source.keys[key] : 0;
  }
  // The rules read the body as it stands in the file: the offset is exact (the server's is into its HTML).
  if (exact && location.field === 'content' && source.body) return source.body.start + location.start;
  const span = source.fields[location.field];
  return span ? searchSpan(post.text, span, location.text, location.start) : undefined;
}

/** The finding with its line and column in the file. `exact`: found offline on this very file text. */
export function placeFinding(finding: ComplianceFinding, post: PostText, exact = false): SourceFinding {
  const offset = offsetOf(finding, post, exact);
  if (offset === undefined) return { ...finding, line: null, column: null };
  const { line, column } = lineColumn(post.text, offset);
  // Editors do not count a byte-order mark as a column.
  const bom = line === 1 && post.text.startsWith('\uFEFF') ? 1 : 0;
  return { ...finding, line, column: Math.max(1, column - bom) };
}

/** A finding's identity for comparing two runs of the rules: the rule and where it sits in the file. */
function placeKey(finding: SourceFinding): string {
  return `${finding.rule}@${finding.line ?? '-'}:${finding.column ?? '-'}@${finding.location ? '' : 'post'}`;
}

/**
 * Every finding of the post file, placed, in file order. An excerpt taken from the first paragraph
 * repeats the body's words: a finding there is the content's finding, shown once.
 */
export function offlineFindings(post: PostText): SourceFinding[] {
  const placed = checkCompliance(complianceSubject(post)).map((finding) => placeFinding(finding, post, true));
  const byPlace = new Map<string, SourceFinding>();
  for (const finding of placed) {
    const key = placeKey(finding);
    const kept = byPlace.get(key);
    if (!kept || (finding.location?.field === 'content' && kept.location?.field !== 'content')) byPlace.set(key, finding);
  }
  return [...byPlace.values()].sort((a, b) => (a.line ?? Infinity) - (b.line ?? Infinity) || (a.column ?? 0) - (b.column ?? 0));
}

/** The server's findings placed in the file, and those not already among the offline ones (by rule and place). */
export function serverFindings(findings: readonly ComplianceFinding[], post: PostText, offline: readonly SourceFinding[]): { all: SourceFinding[]; unseen: SourceFinding[] } {
  const seen = new Set(offline.map(placeKey));
  const all = findings.map((finding) => placeFinding(finding, post));
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
