/**
 * The wiring of `blogpost import-wordpress <export.xml>`: its arguments, options and help. The command's code
 * (commands/import-wordpress.ts) is loaded when it runs, never for help or completion (decision 0035).
 */
import type { Command } from 'commander';
import type { CommandContext } from '../context';
import type { ImportWordPressOptions } from '../commands/import-wordpress';
import { DATA_DIR_HELP } from './values';

const implementation = () => import('../commands/import-wordpress');

export function registerImportWordPress(program: Command, ctx: CommandContext): void {
  program
    .command('import-wordpress')
    .description('Import a WordPress export (Tools > Export): posts with their images, categories, tags, authors and dates, through the compliance gate; every old address answers 301. A re-run imports only what is new.')
    .argument('<export.xml>', 'the WordPress export file (WXR)')
    .option('--media-from <folder|url>', "the old site's uploads: a copy of wp-content/uploads (2024/05/x.jpg...), or a URL prefix to fetch them from")
    .option('--dry-run', 'read, convert and check every post, and say what would happen; write nothing')
    .option('--status <keep|draft>', 'keep: published, scheduled and draft posts stay so; draft: every post comes in as a draft', 'keep')
    .option('--category-map <file>', 'WordPress category -> site category: lines news=financial-education (*=uncategorized for every other one), or a JSON object')
    .option('--author-map <file>', 'WordPress login -> the author name shown, who also owns the post (the keys of that owner may change it): lines jdoe=Jane Doe, or a JSON object')
    .option('--data-dir <dir>', `import into the SQLite store in this directory: ${DATA_DIR_HELP}`)
    .option('--database-url <url>', 'import into the PostgreSQL store at this URL (postgres://...)')
    .option('--json', 'print the report as JSON on stdout')
    .addHelpText(
      'before',
      'Examples:\n  $ blogpost import-wordpress site.WordPress.2024-05-01.xml --media-from ./uploads --dry-run\n  $ blogpost import-wordpress export.xml --media-from ./uploads --category-map categories.txt --author-map authors.txt\n\nPrivate and trashed posts are skipped; pages, menus and attachments are not posts (images come in with the posts that show them).\n',
    )
    .action(async (file: string, options: ImportWordPressOptions) => ctx.exit(await (await implementation()).importWordPressCommand(file, options, ctx)));
}
