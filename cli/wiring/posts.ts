/**
 * The wiring of `blogpost list|get|unpublish|delete|restore|history|revert|schedule` and `blogpost review list|approve|return`: its arguments, options and help. The command's code
 * (commands/posts.ts) is loaded when it runs, never for help or completion (decision 0035).
 */
import { type Command, InvalidArgumentError } from 'commander';
import { LIST_LIMITS, LIST_STATUSES } from '../../contract/choices';
import { retriesOption, timeoutOption, wholeNumber } from '../options';
import type { PublishOptions } from '../commands/publish';
import type { CommandContext } from '../context';
import type { ChangeOptions, GetOptions, ListOptions } from '../commands/posts';

const implementation = () => import('../commands/posts');

const POST_ARGUMENT = 'the post: its id or slug, or a post file published before (its front matter holds the id)';
const WRITE_KEY = 'API key holding blog:write (its owner\'s posts) or blog:admin';
const ADMIN_KEY = 'API key holding blog:admin';

function connection(command: Command, keyHelp: string): Command {
  return command
    .option('--url <origin>', 'the site, e.g. https://example.com (default: $BLOGPOST_URL)')
    .option('--key <key>', `${keyHelp} (default: $BLOGPOST_API_KEY)`)
    .addOption(retriesOption())
    .addOption(timeoutOption());
}

export function registerPosts(program: Command, ctx: CommandContext): void {
  connection(program.command('list'), 'API key; needed for --mine and for statuses other than published')
    .description('List posts: the published ones, or with a key your own (--mine) in any status.')
    .option('--mine', 'the posts of your key\'s owner, in every status')
    .option('--status <status>', `only posts in this status: ${LIST_STATUSES.join(', ')} (in_review: held for compliance review)`)
    .option('--author <name>', 'only posts by this author')
    .option('--category <category>', 'only posts in this category (name or slug)')
    .option('--tag <tag>', 'only posts with this tag')
    .option('--page <n>', 'the page to show', wholeNumber('--page', 1, 1_000_000))
    .option('--limit <n>', `posts a page (1-${LIST_LIMITS.maxLimit}, default ${LIST_LIMITS.defaultLimit})`, wholeNumber('--limit', 1, LIST_LIMITS.maxLimit))
    .option('--all', 'every page')
    .option('--format <format>', 'table (default) or csv', (value: string) => {
      if (value !== 'table' && value !== 'csv') throw new InvalidArgumentError('--format takes table or csv.');
      return value;
    })
    .option('--json', 'print the API answer as JSON on stdout')
    .addHelpText('after', '\nExamples:\n  $ blogpost list --mine\n  $ blogpost list --mine --status draft --format csv > drafts.csv\n  $ blogpost list --status trashed --json\n  $ blogpost list --mine --status in_review\n')
    .action(async (options: ListOptions) => ctx.exit(await (await implementation()).listCommand(options, ctx)));

  connection(program.command('get'), 'API key; needed for drafts, scheduled posts and the trash')
    .description('Show one post, or write it as a Markdown file that publish takes back.')
    .argument('<post>', POST_ARGUMENT)
    .option('--markdown', 'print the post as Markdown with front matter (or write it with --output)')
    .option('--output <file>', 'with --markdown: the file to write')
    .option('--force', 'with --output: overwrite the file')
    .option('--json', 'print the post and its ETag as JSON on stdout')
    .addHelpText('after', '\nExamples:\n  $ blogpost get how-policy-loans-work --markdown --output loans.md\n  $ blogpost publish loans.md   # after editing: updates the post\n')
    .action(async (target: string, options: GetOptions) => ctx.exit(await (await implementation()).getCommand(target, options, ctx)));

  const simple: Array<[string, string, 'unpublishCommand' | 'deleteCommand' | 'restoreCommand' | 'historyCommand']> = [
    ['unpublish', 'Take a post off the site: it becomes a draft again.', 'unpublishCommand'],
    ['delete', 'Move a post to the trash: its page answers 410 Gone; restorable for 30 days.', 'deleteCommand'],
    ['restore', 'Bring a post back from the trash, in the status it had.', 'restoreCommand'],
    ['history', 'List the versions of a post (the last 50 kept): who made each, what it changed and why.', 'historyCommand'],
  ];
  for (const [name, description, run] of simple) {
    connection(program.command(name), name === 'history' ? 'API key holding blog:read or blog:write' : WRITE_KEY)
      .description(description)
      .argument('<post>', POST_ARGUMENT)
      .option('--json', 'print the API answer as JSON on stdout')
      .action(async (target: string, options: ChangeOptions) => ctx.exit(await (await implementation())[run](target, options, ctx)));
  }

  connection(program.command('revert'), WRITE_KEY)
    .description('Give a post the content of an earlier revision again, as a new revision.')
    .argument('<post>', POST_ARGUMENT)
    .argument('<revision>', 'the revision number, as history lists it', wholeNumber('<revision>', 1, 1_000_000_000))
    .option('--json', 'print the API answer as JSON on stdout')
    .action(async (target: string, revision: number, options: ChangeOptions) => ctx.exit(await (await implementation()).revertCommand(target, revision, options, ctx)));

  const review = program
    .command('review')
    .description('The compliance review queue (COMPLIANCE_MODE review or block), with a key holding blog:admin: list the held posts, approve one, or return it to its author with a note.');
  connection(review.command('list'), ADMIN_KEY)
    .description('List the posts held for compliance review, the longest waiting first.')
    .option('--json', 'print the posts as JSON on stdout')
    .action(async (options: ChangeOptions) => ctx.exit(await (await implementation()).reviewListCommand(options, ctx)));
  connection(review.command('approve'), ADMIN_KEY)
    .description('Approve a held post: it is published, or scheduled if its time is still ahead; the approval code and its expiry are recorded (decision 0028).')
    .argument('<post>', POST_ARGUMENT)
    .option('--code <code>', "the approval code, e.g. a carrier's compliance code (default: one is generated, like ADV-2026-0042)")
    .option('--expires <date>', "when the approval runs out, YYYY-MM-DD (default: the server's APPROVAL_VALID_MONTHS, 12 months); the post then leaves the site for review again")
    .option('--reason <text>', 'why it may be published despite high findings its author did not accept (required then; kept in the audit log and the post\'s history)')
    .option('--json', 'print the API answer as JSON on stdout')
    .addHelpText('after', '\nExamples:\n  $ blogpost review approve 3f0c1e52-...\n  $ blogpost review approve how-iul-works --code CARRIER-7781 --expires 2027-06-30\n  $ blogpost review approve how-iul-works --reason "The carrier\'s illustration backs the 6% figure; disclosure added."\n')
    .action(async (target: string, options: ChangeOptions & { code?: string; expires?: string; reason?: string }) => ctx.exit(await (await implementation()).reviewApproveCommand(target, options, ctx)));
  connection(review.command('return'), ADMIN_KEY)
    .description('Return a held post to its author as a draft, with a note saying what to change.')
    .argument('<post>', POST_ARGUMENT)
    .requiredOption('--note <text>', 'what the author should change, and why (10 to 2000 characters; the author reads it)')
    .option('--json', 'print the API answer as JSON on stdout')
    .addHelpText('after', '\nExamples:\n  $ blogpost review list\n  $ blogpost review return 3f0c1e52-... --note "Say what the 0% floor protects against, and that charges still apply."\n')
    .action(async (target: string, options: ChangeOptions & { note: string }) => ctx.exit(await (await implementation()).reviewReturnCommand(target, options, ctx)));

  connection(program.command('schedule'), WRITE_KEY)
    .description('Publish a post at a given time: a file (created or updated), or a post already on the server.')
    .argument('<post>', 'a post file, or a post\'s id or slug')
    .requiredOption('--at <time>', 'when it goes live: ISO 8601 with an offset, e.g. 2026-12-01T09:00:00-05:00')
    .option('--strict', 'treat every warning as an error (files only)')
    .option('--force', 'update even when the post changed on the server since the file was published (files only)')
    .option('--json', 'print the API answer as JSON on stdout')
    .addHelpText('after', '\nExamples:\n  $ blogpost schedule post.md --at 2026-12-01T09:00:00-05:00\n  $ blogpost schedule how-policy-loans-work --at 2026-12-01T14:00:00Z\n')
    .action(async (target: string, options: PublishOptions) => ctx.exit(await (await implementation()).scheduleCommand(target, options, ctx)));
}
