/**
 * The wiring of `blogpost publish <file>`: its arguments, options and help. The command's code
 * (commands/publish.ts) is loaded when it runs, never for help or completion (decision 0035).
 */
import type { Command } from 'commander';
import { retriesOption, timeoutOption } from '../options';
import type { CommandContext } from '../context';
import type { PublishOptions } from '../commands/publish';

const implementation = () => import('../commands/publish');

export function registerPublish(program: Command, ctx: CommandContext): void {
  program
    .command('publish')
    .description('Validate a post, then create it, or update the post the file was published as, and print its URL.')
    .argument('<file>', 'Markdown (.md) or HTML with YAML front matter, or a JSON payload; "-" reads stdin; local images it shows are uploaded')
    .option('--url <origin>', 'the site, e.g. https://example.com (default: $BLOGPOST_URL)')
    .option('--key <key>', 'API key holding blog:write (default: $BLOGPOST_API_KEY)')
    .option('--status <status>', 'draft, scheduled or published, overriding the file')
    .option('--new', 'create a new post even when the file names one (its id is replaced)')
    .option('--force', 'update even when the post changed on the server since the file was published (shows those changes first)')
    .option('--strict', 'treat every warning (unknown field or category, possible duplicate) and every high compliance finding not accepted as an error: exit 1, nothing sent')
    .option('--dry-run', 'list the images it would upload, print the exact request, and send nothing')
    .option('--idempotency-key <key>', 'reuse to retry a create safely (default: derived from the URL and the post)')
    .addOption(retriesOption())
    .addOption(timeoutOption())
    .option('--json', 'print the API answer as JSON on stdout')
    .addHelpText(
      'before',
      'Examples:\n  $ blogpost publish post.md --status published\n  $ blogpost publish post.md            # again after editing: updates the same post\n  $ blogpost publish post.md --dry-run   # lists the images it would upload, sends nothing\n  $ BLOGPOST_URL=https://example.com BLOGPOST_API_KEY=bpk_... blogpost publish post.json --json\n',
    )
    .action(async (file: string, options: PublishOptions) => ctx.exit(await (await implementation()).publishCommand(file, options, ctx)));
}
