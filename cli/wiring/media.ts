/**
 * The wiring of `blogpost media upload|list|delete`: its arguments, options and help. The command's code
 * (commands/media.ts) is loaded when it runs, never for help or completion (decision 0035).
 */
import type { Command } from 'commander';
import { retriesOption, timeoutOption } from '../options';
import type { CommandContext } from '../context';
import type { MediaOptions } from '../commands/media';

const implementation = () => import('../commands/media');

export function registerMedia(program: Command, ctx: CommandContext): void {
  const media = program
    .command('media')
    .description('Upload, list and delete the images posts show (POST, GET and DELETE /api/media).')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ blogpost media upload chart.png photo.jpg',
        '  $ blogpost media list --json',
        '  $ blogpost media delete 3f2a9c0d1e4b5a6978c0d1e2f3a4b5c6',
        '',
        'blogpost publish post.md uploads the local images a post shows by itself.',
        '',
      ].join('\n'),
    );
  const common = (command: Command) =>
    command
      .option('--url <origin>', 'the site, e.g. https://example.com (default: $BLOGPOST_URL)')
      .option('--key <key>', 'API key holding blog:write (default: $BLOGPOST_API_KEY)')
      .addOption(retriesOption())
      .addOption(timeoutOption())
      .option('--json', 'print the API answer as JSON on stdout');

  common(
    media
      .command('upload')
      .description('Upload images (PNG, JPEG, WebP, AVIF, GIF); prints each one\'s id, URL, size and whether the site had it already.')
      .argument('<files...>', 'the image files'),
  ).action(async (files: string[], options: MediaOptions) => ctx.exit(await (await implementation()).uploadMediaCommand(files, options, ctx)));

  common(media.command('list').description('List the images of the key\'s owner: id, type, size, upload date, the posts that show them, URL.')).action(async (options: MediaOptions) =>
    ctx.exit(await (await implementation()).listMediaCommand(options, ctx)),
  );

  common(
    media
      .command('delete')
      .description('Delete an image no post shows; when posts still show it, names them (exit 1).')
      .argument('<id>', 'the media id (as media list shows it) or its /media/... URL'),
  ).action(async (id: string, options: MediaOptions) => ctx.exit(await (await implementation()).deleteMediaCommand(id, options, ctx)));
}
