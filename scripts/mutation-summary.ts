/**
 * `npm run mutate:summary`: the mutation score of each module from Stryker's JSON reports, as the
 * Markdown table docs/quality.md keeps, then every surviving (or uncovered) mutant with its place and
 * change, so each can be killed by a test or explained in one line.
 *
 * Reads reports/mutation/mutation.json and every report kept in reports/mutation/runs/ (a run of one
 * module, `npm run mutate -- --mutate <file>`, writes only that module's results; scripts keep a copy
 * per module there). For each module the newest report that has it wins. Reports of runs over some
 * lines only (`--mutate file:from-to`) are kept in reports/mutation/runs/ranges/: they never stand for
 * a whole module, and are shown in a table of their own, one row per report and module, with the
 * lines their mutants span. Paths on the command line read those reports instead.
 *
 * Then issue 22's budgets (scripts/mutation-budgets.ts) over the whole-module results, with the exit
 * code 1 when one measured is not met (a budget whose module is in no report is listed as not measured). `npm run mutate` prints all of this after its run.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { allBudgets, budgetFailed, budgetReport, checkBudget } from './mutation-budgets';

type Status = 'Killed' | 'Survived' | 'NoCoverage' | 'Timeout' | 'CompileError' | 'RuntimeError' | 'Ignored' | 'Pending';

interface Mutant {
  id: string;
  mutatorName: string;
  replacement?: string;
  status: Status;
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
  /** The code the mutant replaced (filled in from the report's source). */
  original?: string;
}

interface Report {
  files: Record<string, { source: string; mutants: Mutant[] }>;
}

/** The source text between two 1-based positions (end column exclusive, as Stryker reports them). */
function sourceBetween(lines: readonly string[], start: { line: number; column: number }, end: { line: number; column: number }): string {
  if (start.line === end.line) return (lines[start.line - 1] ?? '').slice(start.column - 1, end.column - 1);
  const first = (lines[start.line - 1] ?? '').slice(start.column - 1);
  const last = (lines[end.line - 1] ?? '').slice(0, end.column - 1);
  return [first, ...lines.slice(start.line, end.line - 1), last].join('\n');
}

/** A module's counts; the score counts timeouts as detected and leaves out mutants that do not compile. */
export interface ModuleScore {
  file: string;
  mutants: number;
  killed: number;
  survived: number;
  timeout: number;
  noCoverage: number;
  score: number | null;
  undetected: Mutant[];
}

/** The score of one module's mutants: (killed + timeout) / (killed + timeout + survived + no coverage). */
export function scoreOf(file: string, mutants: readonly Mutant[]): ModuleScore {
  const count = (status: Status) => mutants.filter((mutant) => mutant.status === status).length;
  const killed = count('Killed');
  const timeout = count('Timeout');
  const survived = count('Survived');
  const noCoverage = count('NoCoverage');
  const valid = killed + timeout + survived + noCoverage;
  return {
    file,
    mutants: valid,
    killed,
    survived,
    timeout,
    noCoverage,
    score: valid === 0 ? null : (100 * (killed + timeout)) / valid,
    undetected: mutants.filter((mutant) => mutant.status === 'Survived' || mutant.status === 'NoCoverage'),
  };
}

/** The report files to read: the arguments, else the main report and the kept runs, oldest first. */
function reportFiles(args: readonly string[]): string[] {
  if (args.length > 0) return [...args];
  const dir = path.join('reports', 'mutation');
  const runs = path.join(dir, 'runs');
  const kept = existsSync(runs) ? readdirSync(runs).filter((name) => name.endsWith('.json') && !name.endsWith('.incremental.json')).map((name) => path.join(runs, name)) : [];
  const main = path.join(dir, 'mutation.json');
  return [...kept, ...(existsSync(main) ? [main] : [])].sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs);
}

interface ModuleReport {
  source: string;
  mutants: Mutant[];
}

/** Each module's source and mutants from the newest report that has it. */
export function collect(files: readonly string[]): Map<string, ModuleReport> {
  const modules = new Map<string, ModuleReport>();
  for (const file of files) {
    const report = JSON.parse(readFileSync(file, 'utf8')) as Report;
    for (const [name, result] of Object.entries(report.files)) {
      const lines = result.source.split('\n');
      const mutants = result.mutants.map((mutant) => ({ ...mutant, original: sourceBetween(lines, mutant.location.start, mutant.location.end) }));
      modules.set(name.split(path.sep).join('/'), { source: result.source, mutants });
    }
  }
  return modules;
}

function percent(score: number | null): string {
  return score === null ? 'n/a' : `${(Math.floor(score * 100) / 100).toFixed(2)}%`;
}

/** The Markdown table and the list of undetected mutants. */
export function summary(modules: ReadonlyMap<string, ModuleReport>): string {
  const scores = [...modules].map(([file, { mutants }]) => scoreOf(file, mutants)).sort((a, b) => a.file.localeCompare(b.file));
  const lines = [
    '| Module | Mutants | Killed | Survived | Timeout | No coverage | Score |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...scores.map((s) => `| ${s.file} | ${s.mutants} | ${s.killed} | ${s.survived} | ${s.timeout} | ${s.noCoverage} | ${percent(s.score)} |`),
    '',
  ];
  for (const s of scores.filter((entry) => entry.undetected.length > 0)) {
    lines.push(`${s.file}:`);
    for (const mutant of s.undetected) {
      const short = (text: string) => text.replace(/\s+/g, ' ').slice(0, 70);
      const change = `\`${short(mutant.original ?? '')}\` → \`${short(mutant.replacement ?? '')}\``;
      lines.push(`- ${mutant.location.start.line}:${mutant.location.start.column} ${mutant.status} ${mutant.mutatorName}: ${change}`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

/** The reports of runs over some lines only, by name. */
function rangeReportFiles(): string[] {
  const dir = path.join('reports', 'mutation', 'runs', 'ranges');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json') && !name.endsWith('.incremental.json'))
    .sort()
    .map((name) => path.join(dir, name));
}

/** One row per report and module: the lines its mutants span, and their score. */
export function rangeSummary(files: readonly string[]): string {
  const lines = ['| Report | Module | Lines | Mutants | Killed | Survived | Timeout | No coverage | Score |', '| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |'];
  const undetected: string[] = [];
  for (const file of files) {
    for (const [module, { mutants }] of collect([file])) {
      const s = scoreOf(module, mutants);
      const numbers = mutants.map((mutant) => mutant.location.start.line);
      const span = numbers.length === 0 ? 'none' : `${Math.min(...numbers)}-${Math.max(...numbers)}`;
      lines.push(`| ${path.basename(file, '.json')} | ${module} | ${span} | ${s.mutants} | ${s.killed} | ${s.survived} | ${s.timeout} | ${s.noCoverage} | ${percent(s.score)} |`);
      for (const mutant of s.undetected) undetected.push(`- ${module} ${mutant.location.start.line}:${mutant.location.start.column} ${mutant.status} ${mutant.mutatorName}`);
    }
  }
  return [...lines, '', ...undetected].join('\n');
}

/** The modules stryker.config.mjs mutates. */
async function configuredModules(): Promise<string[]> {
  const config = (await import(pathToFileURL(path.resolve('stryker.config.mjs')).href)) as { default: { mutate: string[] } };
  return config.default.mutate;
}

const files = reportFiles(process.argv.slice(2));
if (files.length === 0) {
  console.error('No mutation report yet: run `npm run mutate` (or one module: `npm run mutate -- --mutate <file>`) first.');
  process.exitCode = 1;
} else {
  const modules = collect(files);
  console.log(summary(modules));
  const ranges = process.argv.length > 2 ? [] : rangeReportFiles();
  if (ranges.length > 0) console.log(`\nRuns over some lines only (reports/mutation/runs/ranges/):\n\n${rangeSummary(ranges)}`);
  const results = allBudgets(await configuredModules()).map((budget) => checkBudget(budget, modules.get(budget.file)));
  console.log(`\nBudgets (issue 22), from the whole-module reports above:\n\n${budgetReport(results)}`);
  if (results.some(budgetFailed)) process.exitCode = 1;
}
