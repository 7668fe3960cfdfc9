/**
 * `blogpost seed`: loads the demo articles into the store the servers use (a data directory, or
 * PostgreSQL: see cli/data-dir.ts) when it has no posts yet (what `npm start` does by itself on a
 * fresh install). Never loads on top of existing posts.
 */
import { DemoContentError, seedDemoPosts, StoreError } from '../../api/operations';
import type { CommandContext } from '../context';
import { type LocationOptions, openCliStore, placeOf, storeLocationOf } from '../data-dir';
import { CliError, ExitCode } from '../exit-codes';

export interface SeedOptions extends LocationOptions {
  json?: boolean;
}

export async function seedCommand(options: SeedOptions, ctx: CommandContext): Promise<ExitCode> {
  const location = storeLocationOf(options, ctx);
  const store = await openCliStore(location);
  let outcome;
  try {
    try {
      outcome = await seedDemoPosts(store);
    } finally {
      await store.close();
    }
  } catch (error) {
    if (error instanceof StoreError || error instanceof DemoContentError) throw new CliError(error.message, ExitCode.Local);
    throw error;
  }
  const where = placeOf(location);
  if (options.json) ctx.out.json({ success: outcome.seeded, ...(location.kind === 'sqlite' ? { dataDir: where } : { database: where }), ...outcome });
  // Running servers notice the change to the posts at their next read (SQLite) or at once (PostgreSQL).
  else if (outcome.seeded) ctx.out.success(`Loaded ${outcome.count} demo articles into ${where}. Running servers show them at once.`);
  else ctx.out.error(`Nothing loaded: ${outcome.reason}.`);
  return outcome.seeded ? ExitCode.Ok : ExitCode.Failed;
}
