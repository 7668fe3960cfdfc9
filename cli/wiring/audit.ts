/**
 * The wiring of `blogpost audit`: its arguments, options and help. The command's code
 * (commands/audit.ts) is loaded when it runs, never for help or completion (decision 0035).
 */
import { type Command, Option } from 'commander';
import { AUDIT_ACTIONS } from '../../contract/staff';
import type { CommandContext } from '../context';
import type { AuditOptions } from '../commands/audit';
import { DATA_DIR_HELP, DATABASE_URL_HELP } from './values';

const implementation = () => import('../commands/audit');

export function registerAudit(program: Command, ctx: CommandContext): void {
  program
    .command('audit')
    .description('Show the audit log of the store the servers use (who did what and when), oldest first.')
    .option('--since <when>', 'only entries since a duration ago (30m, 2h, 1d) or a time (2026-11-01, 2026-11-24T10:00:00Z)')
    .addOption(new Option('--action <action>', 'only entries of this action').choices(AUDIT_ACTIONS))
    .option('--json', 'print the entries as a JSON array on stdout')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .option('--database-url <url>', DATABASE_URL_HELP)
    .addHelpText('after', '\nExamples:\n  $ blogpost audit --since 2h\n  $ blogpost audit --since 2026-11-01 --action key.revoked\n  $ blogpost audit --json > audit.json\n')
    .action(async (options: AuditOptions) => ctx.exit(await (await implementation()).auditCommand(options, ctx)));
}
