/**
 * Compliance findings at their place in the author's file, found by one piece of code wherever the
 * file is read: `blogpost lint`, `validate` and `publish` on the author's machine, and the server on
 * the Markdown source a post was sent with (decision 0022), so both report the same rules at the same
 * line and column. The contract's rules (contract/compliance.ts) read the Markdown (or HTML) body as it
 * stands in the file, so a content finding's place is exact; a title or excerpt is found on its
 * front-matter line (YAML gives values without positions); a finding the server made from HTML
 * (a post sent without its source) is placed the same way.
 */
import { checkCompliance, type ComplianceFinding, type ComplianceSubject, lineColumn } from '../../contract/compliance';
import type { PostFile } from './post-file';

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
export function placeKey(finding: SourceFinding): string {
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

