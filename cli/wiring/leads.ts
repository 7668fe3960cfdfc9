/**
 * The wiring of `blogpost leads list|show|set|delete`: its arguments, options and help. The command's code
 * (commands/leads.ts) is loaded when it runs, never for help or completion (decision 0035).
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { LEAD_STATUSES } from '../../contract/choices';
import type { LeadStatus } from '../../contract/quote-request';
import type { CommandContext } from '../context';
import type { DataDirOptions, DeleteOptions, ListOptions, SetOptions } from '../commands/leads';
import { DATA_DIR_HELP, DATABASE_URL_HELP, NOTE_MAX } from './values';

const implementation = () => import('../commands/leads');

function leadStatus(value: string): LeadStatus {
  const status = LEAD_STATUSES.find((known) => known === value);
  if (!status) throw new InvalidArgumentError(`A lead's status is one of ${LEAD_STATUSES.join(', ')}; "${value}" is none of them.`);
  return status;
}

function listFormat(value: string): 'table' | 'csv' {
  if (value !== 'table' && value !== 'csv') throw new InvalidArgumentError(`--format takes table or csv; "${value}" is neither.`);
  return value;
}

export function registerLeads(program: Command, ctx: CommandContext): void {
  const leads = program
    .command('leads')
    .description('Quote requests from /get-quote in the store the servers use (DATABASE_URL, else DATA_DIR, default ./data): list, show, set status and notes, delete.')
    .addHelpText(
      'after',
      '\nExamples:\n  $ blogpost leads list --status new\n  $ blogpost leads list --format csv > leads.csv\n  $ blogpost leads show lead_Ab12Cd34Ef56Gh78Ij90\n' +
        '  $ blogpost leads set lead_Ab12Cd34Ef56Gh78Ij90 --status in-progress --note "Called, sending the illustration"\n  $ blogpost leads delete lead_Ab12Cd34Ef56Gh78Ij90 --yes\n',
    );
  const dataDirOption = () => new Option('--data-dir <dir>', DATA_DIR_HELP);
  const databaseUrlOption = () => new Option('--database-url <url>', DATABASE_URL_HELP);
  const statusHelp = LEAD_STATUSES.join(', ');

  leads
    .command('list')
    .description('List quote requests, newest first: received, status, name, contact, age, yearly amount, notifications.')
    .option('--status <status>', `only requests in this status: ${statusHelp}`, leadStatus)
    .option('--spam', 'only the requests kept aside as spam, with the reason')
    .option('--format <format>', 'table (default) or csv (every field)', listFormat)
    .option('--json', 'print the records as a JSON array on stdout')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (options: ListOptions) => ctx.exit(await (await implementation()).listLeadsCommand(options, ctx)));

  leads
    .command('show')
    .description('Show one quote request: every field, the agent notes, the consent record and the notifications.')
    .argument('<id>', 'the lead id shown by leads list (lead_...)')
    .option('--json', 'print { lead, notifications } as JSON on stdout')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (id: string, options: DataDirOptions) => ctx.exit(await (await implementation()).showLeadCommand(id, options, ctx)));

  leads
    .command('set')
    .description('Change a quote request\'s status and/or add a note (at least one of --status and --note).')
    .argument('<id>', 'the lead id shown by leads list (lead_...)')
    .option('--status <status>', `the new status: ${statusHelp}`, leadStatus)
    .option('--note <text>', `a note to add (at most ${NOTE_MAX} characters)`)
    .option('--by <name>', 'who wrote the note (default: cli)')
    .option('--json', 'print the changed record as JSON on stdout')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (id: string, options: SetOptions) => ctx.exit(await (await implementation()).setLeadCommand(id, options, ctx)));

  leads
    .command('delete')
    .description('Remove a quote request and its notifications for good (a visitor asked to be forgotten); needs --yes.')
    .argument('<id>', 'the lead id shown by leads list (lead_...)')
    .option('--yes', 'confirm: the request cannot be brought back')
    .option('--json', 'print { success, id, notificationsRemoved } as JSON on stdout')
    .addOption(dataDirOption())
    .addOption(databaseUrlOption())
    .action(async (id: string, options: DeleteOptions) => ctx.exit(await (await implementation()).deleteLeadCommand(id, options, ctx)));
}
