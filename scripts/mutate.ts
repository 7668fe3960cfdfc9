/**
 * `npm run mutate [-- Stryker options]`: Stryker (stryker.config.mjs) with the options given, then the
 * score table and issue 22's budgets from the reports (scripts/mutation-summary.ts). Exits non-zero
 * when Stryker fails or a budget measured is not met.
 */
import { spawnSync } from 'node:child_process';

function run(command: string, args: readonly string[]): number {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

// npm puts node_modules/.bin on the PATH of its scripts.
const stryker = run('stryker', ['run', ...process.argv.slice(2)]);
process.exitCode = stryker !== 0 ? stryker : run('tsx', ['scripts/mutation-summary.ts']);
