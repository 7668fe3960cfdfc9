/**
 * The wiring of `blogpost staff add|list|disable|takes-leads|reset-password`: its arguments, options and help. The command's code
 * (commands/staff.ts) is loaded when it runs, never for help or completion (decision 0035).
 */
import { type Command, Option } from 'commander';
import type { CommandContext } from '../context';
import type { AddOptions, DataDirOptions, DisableOptions, ResetOptions } from '../commands/staff';
import { DATA_DIR_HELP, DATABASE_URL_HELP } from './values';

const implementation = () => import('../commands/staff');

export function registerStaff(program: Command, ctx: CommandContext): void {
  const staff = program
    .command('staff')
    .description('Manage staff accounts of the staff area in the store the servers use: DATABASE_URL (PostgreSQL), else the data directory (DATA_DIR, default ./data).')
    .addHelpText(
      'after',
      '\nExamples:\n  $ blogpost staff add --email jane@example.com --name "Jane Agent"      # asks for the password twice\n' +
        `  $ printf '%s' "$PASSWORD" | blogpost staff add --email jane@example.com --name "Jane Agent" --password-stdin\n` +
        '  $ blogpost staff list\n  $ blogpost staff disable jane@example.com --reason "left the agency"\n  $ blogpost staff reset-password jane@example.com\n',
    );
  const dataDirOption = () => new Option('--data-dir <dir>', DATA_DIR_HELP);
  const databaseUrlOption = () => new Option('--database-url <url>', DATABASE_URL_HELP);
  const passwordStdinOption = () => new Option('--password-stdin', 'read the password from standard input (the default when it is not a terminal)');

  staff
    .command('add')
    .description('Add a staff account; the password is asked for twice on a terminal, or read from standard input.')
    .requiredOption('--email <email>', 'the e-mail address they sign in with')
    .requiredOption('--name <name>', 'their name (1-100 characters)')
    .addOption(passwordStdinOption())
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .option('--json', 'print the account as JSON on stdout')
    .action(async (options: AddOptions) => ctx.exit(await (await implementation()).addStaffCommand(options, ctx)));

  staff
    .command('list')
    .description('List staff accounts: e-mail, name, status, created, password changed (never a password or hash).')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .option('--json', 'print the accounts as JSON on stdout')
    .action(async (options: DataDirOptions) => ctx.exit(await (await implementation()).listStaffCommand(options, ctx)));

  staff
    .command('disable')
    .description('Disable an account: it cannot sign in, and its sessions end now.')
    .argument('<email>', 'the e-mail (or id) of the account')
    .option('--reason <text>', 'why (kept in the audit log)')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .option('--json', 'print the account as JSON on stdout')
    .action(async (email: string, options: DisableOptions) => ctx.exit(await (await implementation()).disableStaffCommand(email, options, ctx)));

  staff
    .command('takes-leads')
    .description('Whether new quote requests are given to this account in turn (round robin); every active account does by default.')
    .argument('<email>', 'the e-mail (or id) of the account')
    .argument('<yes|no>', 'yes: give them leads; no: leave them out of the round robin')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .option('--json', 'print the account as JSON on stdout')
    .action(async (email: string, answer: string, options: DataDirOptions) => ctx.exit(await (await implementation()).takesLeadsCommand(email, answer, options, ctx)));

  staff
    .command('reset-password')
    .description("Set a new password for an account (asked twice, or from standard input); ends the account's sessions.")
    .argument('<email>', 'the e-mail (or id) of the account')
    .addOption(passwordStdinOption())
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .option('--json', 'print the account as JSON on stdout')
    .action(async (email: string, options: ResetOptions) => ctx.exit(await (await implementation()).resetPasswordCommand(email, options, ctx)));
}
