/**
 * `blogpost seed`: loads the demo articles into a data directory that has no posts yet (what
 * `npm start` does by itself on a fresh install). Never loads on top of existing posts.
 */
import type { Command } from 'commander';
import { DemoContentError, openFileStore, seedDemoPosts, StoreError } from '../../api/operations';
import type { CommandContext } from '../context';
import { dataDirOf } from '../data-dir';
import { CliError, ExitCode } from '../exit-codes';

interface SeedOptions {
  dataDir?: string;
  json?: boolean;
}

export async function seedCommand(options: SeedOptions, ctx: CommandContext): Promise<ExitCode> {
  const dataDir = dataDirOf(options, ctx, 'seed');
  let outcome;
  try {
    const store = await openFileStore(dataDir);
    try {
      outcome = await seedDemoPosts(store);
    } finally {
      await store.close();
    }
  } catch (error) {
    if (error instanceof StoreError || error instanceof DemoContentError) throw new CliError(error.message, ExitCode.Local);
    throw error;
  }
  if (options.json) ctx.out.json({ success: outcome.seeded, dataDir, ...outcome });
  else if (outcome.seeded) ctx.out.success(`Loaded ${outcome.count} demo articles into ${dataDir}. Restart a running server to show them.`);
  else ctx.out.error(`Nothing loaded: ${outcome.reason}.`);
  return outcome.seeded ? ExitCode.Ok : ExitCode.Failed;
}

export function registerSeed(program: Command, ctx: CommandContext): void {
  program
    .command('seed')
    .description('Load the demo articles into a data directory without posts (never on top of existing posts).')
    .option('--data-dir <dir>', 'the data directory (default: $DATA_DIR or ./data)')
    .option('--json', 'print the outcome as JSON on stdout')
    .addHelpText('before', 'Examples:\n  $ blogpost seed\n  $ blogpost seed --data-dir /var/lib/iul-site\n')
    .action(async (options: SeedOptions) => ctx.exit(await seedCommand(options, ctx)));
}
