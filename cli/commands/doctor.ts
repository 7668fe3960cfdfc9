/**
 * `blogpost doctor`: checks a data directory without the server (and while it runs): whether blog.json
 * is sound and the directory writable, which damaged post files the server moved to quarantine (why,
 * when, and the command that puts one back once repaired), and which temporary files a crash left.
 * Exit codes: 0 healthy, 1 something needs attention, 4 no data directory there.
 */
import path from 'node:path';
import type { Command } from 'commander';
import { checkDataDir, type DataDirCheck, resolveDataDir, restoreCommand } from '../../api/operations';
import type { CommandContext } from '../context';
import { ExitCode } from '../exit-codes';

interface DoctorOptions {
  dataDir?: string;
  json?: boolean;
}

/** What needs the operator, one line each (none when healthy). */
function problemsOf(check: DataDirCheck): string[] {
  const problems: string[] = [];
  if (check.keyFile.state === 'damaged') problems.push(check.keyFile.problem);
  if (check.notWritable) problems.push(`Not writable: ${check.notWritable}. New posts fail (503) until this is fixed.`);
  if (check.quarantined.length > 0) problems.push(`${check.quarantined.length} damaged file(s) in quarantine, not served.`);
  if (check.leftoverTemps.length > 0) problems.push(`${check.leftoverTemps.length} temporary file(s) left by an interrupted write (removed at the next server start).`);
  return problems;
}

function printText(check: DataDirCheck, problems: readonly string[], ctx: CommandContext): void {
  const out = ctx.out;
  out.data(`Data directory: ${check.dataDir}`);
  out.data(`  blog.json: ${check.keyFile.state}`);
  out.data(`  post files: ${check.postFiles}`);
  out.data(`  writable: ${check.notWritable ? 'no' : 'yes'}`);
  if (check.quarantined.length > 0) {
    out.data('Quarantined (moved aside at start-up; repair the file, run the command, restart the server):');
    for (const entry of check.quarantined) {
      out.data(`  ${entry.file}`);
      out.data(`    was ${entry.originalFile}, moved ${entry.movedAt}: ${entry.reason}`);
      out.data(`    restore: ${restoreCommand(entry)}`);
    }
  }
  if (check.leftoverTemps.length > 0) {
    out.data('Leftover temporary files (never a stored post; the next start removes them):');
    for (const file of check.leftoverTemps) out.data(`  ${file}`);
  }
  if (problems.length === 0) out.success('The data directory is healthy.');
  else for (const problem of problems) out.warn(problem);
}

export async function doctorCommand(options: DoctorOptions, ctx: CommandContext): Promise<ExitCode> {
  const dataDir = options.dataDir ? path.resolve(ctx.io.cwd, options.dataDir) : resolveDataDir(ctx.io.env);
  const check = await checkDataDir(dataDir);
  if (!check.exists) {
    if (options.json) ctx.out.json({ success: false, healthy: false, dataDir, problems: [`There is no data directory at ${dataDir}.`] });
    else ctx.out.error(`There is no data directory at ${dataDir} (set --data-dir or DATA_DIR).`);
    return ExitCode.Local;
  }
  const problems = problemsOf(check);
  if (options.json) {
    ctx.out.json({
      success: true,
      healthy: problems.length === 0,
      ...check,
      quarantined: check.quarantined.map((entry) => ({ ...entry, restore: restoreCommand(entry) })),
      problems,
    });
  } else {
    printText(check, problems, ctx);
  }
  return problems.length === 0 ? ExitCode.Ok : ExitCode.Failed;
}

export function registerDoctor(program: Command, ctx: CommandContext): void {
  program
    .command('doctor')
    .description("Check a data directory without the server: quarantined posts and how to restore them, leftovers, whether it is writable.")
    .option('--data-dir <dir>', 'the data directory (default: $DATA_DIR or ./data)')
    .option('--json', 'print the report as JSON on stdout')
    .addHelpText(
      'after',
      '\nExit codes: 0 healthy, 1 something needs attention (listed), 4 no data directory there.\n\nExamples:\n  $ blogpost doctor\n  $ blogpost doctor --data-dir /var/lib/iul-site --json\n',
    )
    .action(async (options: DoctorOptions) => ctx.exit(await doctorCommand(options, ctx)));
}
