/**
 * The data directory a command works on: `--data-dir`, else DATA_DIR, else data/ in the project.
 *
 * The commands that change or read what the servers store (keys, staff, leads, audit, seed) work on
 * the file store. When DATABASE_URL is set, the servers keep all of that in PostgreSQL: such a command
 * without `--data-dir` refuses, rather than change a data directory no server reads. (`blogpost
 * export` and `import` work on either.)
 */
import path from 'node:path';
import { resolveDataDir } from '../api/operations';
import type { CommandContext } from './context';
import { CliError, ExitCode } from './exit-codes';

export function dataDirOf(options: { dataDir?: string }, ctx: CommandContext, command?: string): string {
  if (options.dataDir) return path.resolve(ctx.io.cwd, options.dataDir);
  if (command && ctx.io.env.DATABASE_URL?.trim()) {
    throw new CliError(
      `DATABASE_URL is set, so the servers keep their data in PostgreSQL, which \`blogpost ${command}\` cannot work on yet (it works on a data directory). ` +
        'Pass --data-dir to work on a file store. To give a new PostgreSQL store its keys and staff accounts, make them in a data directory and move it with ' +
        '`blogpost export` and `blogpost import` before the servers first start.',
      ExitCode.Usage,
    );
  }
  return resolveDataDir(ctx.io.env);
}
