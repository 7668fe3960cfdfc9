/**
 * `blogpost lint <files or folders...>`: the compliance rules (contract/compliance.ts, the ones the
 * server runs) over many post files, offline. Each finding is a line an editor can jump to,
 * `file:line:column severity rule message`, then its suggestion (or, when the front matter accepts
 * it, the reason). Exit 1 when a finding at --fail-on (default: high) is not accepted, or a file is
 * not a post file that can be read; medium and info findings are reported without failing.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { type ComplianceSeverity } from '../../contract/compliance';
import { parsePostFile, PostFileError } from '../../api/operations';
import { type CommandContext, readInput } from '../context';
import { CliError, ExitCode } from '../exit-codes';
import { countFindings, describeCounts, displayPath, type FindingCounts, findingLines, offlineFindings, type SourceFinding } from '../findings';

export interface LintOptions {
  json?: boolean;
  failOn: ComplianceSeverity;
}

/** The files a folder is walked for: the post files publish takes. */
const LINTED = /\.(?:md|markdown|html?|json)$/i;
/** Folders never walked: dependencies, builds and hidden folders hold no posts of the author's. */
const SKIPPED_FOLDERS = new Set(['node_modules', 'build', 'dist', 'coverage']);

interface Target {
  /** The full path; undefined for standard input. */
  full?: string;
  /** Found by walking a folder (a JSON file there that is no post is skipped, not an error). */
  walked: boolean;
}

function walk(folder: string): string[] {
  const entries = readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
  return entries.flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return entry.name.startsWith('.') || SKIPPED_FOLDERS.has(entry.name) ? [] : walk(full);
    return entry.isFile() && LINTED.test(entry.name) ? [full] : [];
  });
}

/** Every file to lint, in order, once; a path that does not exist is a usage error (exit 2) before anything is read. */
function targets(args: readonly string[], cwd: string): Target[] {
  const found: Target[] = [];
  const seen = new Set<string>();
  for (const arg of args) {
    if (arg === '-') {
      found.push({ walked: false });
      continue;
    }
    const full = path.resolve(cwd, arg);
    let isFolder: boolean;
    try {
      isFolder = statSync(full).isDirectory();
    } catch {
      throw new CliError(`Cannot lint ${arg}: no such file or folder.`, ExitCode.Usage);
    }
    const files = isFolder ? walk(full) : [full];
    if (isFolder && files.length === 0) throw new CliError(`Cannot lint ${arg}: the folder holds no post files (.md, .markdown, .html, .json).`, ExitCode.Usage);
    for (const file of files) {
      if (seen.has(file)) continue;
      seen.add(file);
      found.push({ full: file, walked: isFolder });
    }
  }
  return found;
}

interface FileResult {
  file: string;
  findings: SourceFinding[];
  warnings: string[];
  /** Why the file could not be checked. */
  error?: string;
  /** A JSON file found in a folder that holds no post. */
  skipped?: boolean;
}

async function readTarget(target: Target, ctx: CommandContext): Promise<string> {
  if (!target.full) return (await readInput('-', ctx.io)).text;
  try {
    return readFileSync(target.full, 'utf8');
  } catch (error) {
    throw new PostFileError(`cannot be read: ${(error as Error).message}`);
  }
}

async function lintFile(target: Target, ctx: CommandContext): Promise<FileResult> {
  const file = displayPath(target.full, ctx.io.cwd);
  try {
    const text = await readTarget(target, ctx);
    const parsed = parsePostFile(text, target.full ? { fileName: target.full } : {});
    const { payload } = parsed;
    if (target.walked && parsed.kind === 'json' && typeof payload.title !== 'string' && typeof payload.content !== 'string') {
      return { file, findings: [], warnings: [], skipped: true };
    }
    return { file, findings: offlineFindings({ kind: parsed.kind, payload, source: parsed.source, text }), warnings: parsed.warnings };
  } catch (error) {
    if (error instanceof PostFileError) return { file, findings: [], warnings: [], error: error.message };
    throw error;
  }
}

const RANK: Record<ComplianceSeverity, number> = { high: 0, medium: 1, info: 2 };

function failing(result: FileResult, failOn: ComplianceSeverity): boolean {
  return result.error !== undefined || result.findings.some((finding) => !finding.accepted && RANK[finding.severity] <= RANK[failOn]);
}

function total(results: readonly FileResult[]): FindingCounts {
  return countFindings(results.flatMap((result) => result.findings));
}

function printText(results: readonly FileResult[], options: LintOptions, ctx: CommandContext): void {
  const paint = (style: 'red' | 'yellow' | 'cyan' | 'dim', value: string) => ctx.out.paint(ctx.io.stdout, style, value);
  for (const result of results) {
    if (result.error) ctx.out.data(`${result.file}: ${paint('red', 'error')} ${result.error}`);
    for (const warning of result.warnings) ctx.out.data(`${result.file}: ${paint('yellow', 'warning')} ${warning}`);
    for (const finding of result.findings) ctx.out.data(findingLines(finding, result.file, paint).join('\n'));
  }
  const linted = results.filter((result) => !result.skipped);
  const skipped = results.length - linted.length;
  const errors = linted.filter((result) => result.error).length;
  const summary = [
    `${linted.length} file${linted.length === 1 ? '' : 's'}, ${describeCounts(total(linted))}`,
    errors > 0 ? `, ${errors} not readable as a post` : '',
    skipped > 0 ? `; skipped ${skipped} JSON file${skipped === 1 ? '' : 's'} holding no post` : '',
  ].join('');
  const open = linted.flatMap((result) => result.findings).filter((finding) => !finding.accepted && RANK[finding.severity] <= RANK[options.failOn]).length;
  const reasons = [
    open > 0 ? `${open} finding${open === 1 ? '' : 's'} ${options.failOn === 'high' ? 'of severity high' : `of ${options.failOn} or above`} not accepted` : '',
    errors > 0 ? `${errors} file${errors === 1 ? '' : 's'} not readable as a post` : '',
  ].filter(Boolean);
  ctx.out.info(`${summary}.${reasons.length > 0 ? ` Exit 1: ${reasons.join(', ')}.` : ''}`);
}

export async function lintCommand(args: readonly string[], options: LintOptions, ctx: CommandContext): Promise<ExitCode> {
  const results: FileResult[] = [];
  for (const target of targets(args, ctx.io.cwd)) results.push(await lintFile(target, ctx));
  const linted = results.filter((result) => !result.skipped);
  const failed = linted.some((result) => failing(result, options.failOn));
  if (options.json) {
    const files = linted.map(({ skipped: _skipped, ...result }) => result);
    ctx.out.json({ success: !failed, files, summary: { files: linted.length, ...total(linted) } });
  } else {
    printText(results, options, ctx);
  }
  return failed ? ExitCode.Failed : ExitCode.Ok;
}
