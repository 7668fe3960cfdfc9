/**
 * The front matter's `compliance:` block: the compliance findings an author accepts, each with the
 * reason a reviewer reads.
 *
 *   compliance:
 *     accept:
 *       - rule: unqualified-projection
 *         reason: The 6% is the illustrated rate of the carrier's own illustration, labelled as such.
 *
 * It becomes the payload's `compliance: { accept: [...] }`, checked with the contract's own schema. A
 * bad entry is an error naming its line in the file (YAML gives values without positions, so the lines
 * are found on the raw front matter); an entry naming no rule of this version of the rules is a
 * warning listing the rules there are, since the server would accept it and it would accept nothing.
 */
import { closest, distance } from 'fastest-levenshtein';
import { type ComplianceAcceptance, complianceInputSchema, COMPLIANCE_RULES, unknownAcceptances } from '../../contract/compliance';
import { PostFileError } from './front-matter';

/** The lines (of the file, from 1) of the block, its `accept:` key and each entry with its keys. */
interface ComplianceLines {
  block: number;
  accept?: number;
  entries: Array<{ line: number; keys: Record<string, number> }>;
}

const ENTRY_KEYS = ['rule', 'reason'] as const;

function indentOf(line: string): number {
  return /^[ \t]*/.exec(line)?.[0].length ?? 0;
}

/**
 * Finds the block's lines in the raw front matter (whose first line is the rest of the opening `---`
 * line, so line i of it is line i + 1 of the file). Flow style (`accept: [{ rule: x, ... }]`) keeps
 * every entry on the `accept:` line.
 */
function complianceLines(rawMatter: string): ComplianceLines | undefined {
  const lines = rawMatter.split('\n');
  const blockIndex = lines.findIndex((line) => /^compliance[ \t]*:/.test(line));
  if (blockIndex === -1) return undefined;
  const found: ComplianceLines = { block: blockIndex + 1, entries: [] };
  let entryIndent: number | undefined;
  for (let i = blockIndex + 1; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (/^[^\s#]/.test(line)) break;
    if (/^\s*accept[ \t]*:/.test(line) && found.accept === undefined) {
      found.accept = i + 1;
      continue;
    }
    const dash = /^([ \t]*)-(?:[ \t]+|$)/.exec(line);
    if (dash && (entryIndent === undefined || (dash[1] ?? '').length === entryIndent)) {
      entryIndent = (dash[1] ?? '').length;
      found.entries.push({ line: i + 1, keys: {} });
    }
    const entry = found.entries.at(-1);
    const key = /^[ \t]*(?:-[ \t]+)?([A-Za-z_][\w-]*)[ \t]*:/.exec(line);
    if (entry && key?.[1] && !(key[1] in entry.keys) && (entryIndent === undefined || indentOf(line) >= entryIndent)) entry.keys[key[1]] = i + 1;
  }
  return found;
}

/** The line of the file an issue at `path` (inside the block) is on. */
function lineOf(lines: ComplianceLines | undefined, path: readonly PropertyKey[]): number | undefined {
  if (!lines) return undefined;
  const [top, index, key] = path;
  if (top !== 'accept') return lines.block;
  if (typeof index !== 'number') return lines.accept ?? lines.block;
  const entry = lines.entries[index];
  if (!entry) return lines.accept ?? lines.block;
  return (typeof key === 'string' ? entry.keys[key] : undefined) ?? entry.line;
}

const RULE_IDS = COMPLIANCE_RULES.map((rule) => rule.id);

/** What an issue of the schema means to an author writing the block by hand. */
function issueText(path: readonly PropertyKey[], code: string, message: string): string {
  const [top, index, key] = path;
  if (top === undefined) return 'must be a block with an accept: list, e.g. "compliance:" then "  accept:" then "    - rule: risk-free" and "      reason: ..."';
  if (top === 'accept' && index === undefined) return 'accept must be a list of entries, each with a rule and a reason ("- rule: ..." then "reason: ...")';
  if (key === undefined) return code === 'too_big' ? message : 'each entry of accept must be a rule and a reason ("- rule: ..." then "reason: ...")';
  if (key === 'rule' && code === 'invalid_type') return `needs the id of the rule it accepts (${RULE_IDS.join(', ')})`;
  if (key === 'reason' && code === 'invalid_type') return 'needs a reason: why the finding is acceptable, in a sentence (the reviewer reads it)';
  return message;
}

function pathText(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, part) => (typeof part === 'number' ? `${text}[${part}]` : `${text}.${String(part)}`), 'compliance');
}

/** Entry keys other than rule and reason: the schema drops them silently, so the author is told. */
function unknownEntryKeys(value: unknown, lines: ComplianceLines | undefined): string[] {
  const accept = (value as { accept?: unknown } | null)?.accept;
  if (!Array.isArray(accept)) return [];
  return accept.flatMap((entry: unknown, index) => {
    if (!entry || typeof entry !== 'object') return [];
    return Object.keys(entry)
      .filter((name) => !(ENTRY_KEYS as readonly string[]).includes(name))
      .map((name) => {
        const guess = closest(name, [...ENTRY_KEYS]);
        const hint = distance(name, guess) <= 2 ? ` (did you mean ${guess}?)` : '';
        const line = lineOf(lines, ['accept', index, name]);
        return `front matter key "compliance.accept[${index}].${name}"${line ? ` (line ${line})` : ''} is not read: an entry has a rule and a reason${hint}`;
      });
  });
}

export interface ComplianceFrontMatter {
  /** The payload's `compliance`, or undefined when the front matter has none. */
  value?: { accept: ComplianceAcceptance[] };
  warnings: string[];
}

/**
 * The front matter's `compliance` value, checked; `rawMatter` is the front matter's text (the rest of
 * the opening `---` line first). Throws PostFileError naming each bad entry and its line.
 */
export function complianceFrom(value: unknown, rawMatter: string): ComplianceFrontMatter {
  if (value === undefined || value === null) return { warnings: [] };
  const lines = complianceLines(rawMatter);
  const parsed = complianceInputSchema.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const line = lineOf(lines, issue.path);
      return `${pathText(issue.path)}${line ? ` (line ${line})` : ''}: ${issueText(issue.path, issue.code, issue.message)}`;
    });
    throw new PostFileError(`The front matter's compliance block is not valid: ${problems.join('; ')}.`);
  }
  const warnings = unknownEntryKeys(value, lines);
  const unknown = new Set(unknownAcceptances(parsed.data.accept));
  parsed.data.accept.forEach((acceptance, index) => {
    if (!unknown.has(acceptance.rule)) return;
    const line = lineOf(lines, ['accept', index, 'rule']);
    const guess = closest(acceptance.rule, RULE_IDS);
    const hint = distance(acceptance.rule, guess) <= 3 ? ` Did you mean ${guess}?` : '';
    warnings.push(`compliance.accept[${index}]${line ? ` (line ${line})` : ''} names the rule "${acceptance.rule}", which is not a rule, so it accepts nothing.${hint} The rules are: ${RULE_IDS.join(', ')}.`);
  });
  return { value: parsed.data, warnings };
}
