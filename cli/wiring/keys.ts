/**
 * The wiring of `blogpost keys create|list|revoke`: its arguments, options and help. The command's code
 * (commands/keys.ts) is loaded when it runs, never for help or completion (decision 0035).
 */
import { type Command, Option } from 'commander';
import { API_PERMISSIONS } from '../../contract/choices';
import type { CommandContext } from '../context';
import type { CreateOptions, DataDirOptions, RevokeOptions } from '../commands/keys';
import { DATA_DIR_HELP, DATABASE_URL_HELP } from './values';

const implementation = () => import('../commands/keys');

export function registerKeys(program: Command, ctx: CommandContext): void {
  const keys = program
    .command('keys')
    .description('Manage API keys in the store the servers use: DATABASE_URL (PostgreSQL), else the data directory (DATA_DIR, default ./data).')
    .addHelpText(
      'after',
      '\nExamples:\n  $ blogpost keys create --name "Jane Author" --permission blog:write\n  $ blogpost keys create --name "Jane laptop" --owner "Jane Author"\n  $ blogpost keys create --name "Editor" --permission blog:write blog:admin\n  $ blogpost keys create --name "Jane iA Writer" --owner "Jane Author" --ghost\n  $ blogpost keys list --json\n  $ blogpost keys revoke Ab12Cd34Ef --reason "left the agency"\n  $ DATABASE_URL=postgres://app@db/iul blogpost keys list\n',
    );
  const dataDirOption = () => new Option('--data-dir <dir>', DATA_DIR_HELP);
  const databaseUrlOption = () => new Option('--database-url <url>', DATABASE_URL_HELP);

  keys
    .command('create')
    .description('Create a key; its secret is printed once on stdout.')
    .requiredOption('--name <name>', 'what or who the key is for (1-60 characters)')
    .option('--owner <owner>', 'whose posts the key may change: keys of one owner share their posts (default: the name)')
    .addOption(new Option('--permission <permission...>', 'what the key may do (default: blog:write)').choices(API_PERMISSIONS))
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .option('--ghost', "a Ghost Admin API key (id:secret) for writing apps that publish to Ghost (decision 0033)")
    .option('--json', 'print { key, secret } as JSON on stdout')
    .action(async (options: CreateOptions) => ctx.exit(await (await implementation()).createKeyCommand(options, ctx)));

  keys
    .command('list')
    .description('List keys: id, name, owner, permissions, created, last used, last failure, status and revocation, kind (api, indieauth, ghost; never secrets).')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .option('--json', 'print the keys as JSON on stdout')
    .action(async (options: DataDirOptions) => ctx.exit(await (await implementation()).listKeysCommand(options, ctx)));

  keys
    .command('revoke')
    .description('Revoke a key by id (or by name when one key has it); revoking twice is harmless.')
    .argument('<id-or-name>', 'the key id shown by keys list, or its name')
    .option('--reason <text>', 'why it is revoked (shown by keys list and diagnose <request-id>)')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .option('--json', 'print the revoked key as JSON on stdout')
    .action(async (idOrName: string, options: RevokeOptions) => ctx.exit(await (await implementation()).revokeKeyCommand(idOrName, options, ctx)));
}
