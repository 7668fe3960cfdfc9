/** `blogpost validate <file|->`: checks a post offline with the API's own schema. */
import type { Command } from 'commander';
import { categorySlugFor } from '../../contract/categories';
import { slugify } from '../../contract/slug';
import type { CommandContext } from '../context';
import { ExitCode } from '../exit-codes';
import { loadPost, reportInvalid } from '../post-input';

interface ValidateOptions {
  json?: boolean;
  status?: string;
}

export async function validateCommand(file: string, options: ValidateOptions, ctx: CommandContext): Promise<ExitCode> {
  const { check, notes } = await loadPost(file, ctx, options.status);
  if (!check.ok) return reportInvalid(check, ctx, options.json === true);
  const summary = {
    title: check.data.title,
    slug: slugify(check.data.title),
    category: categorySlugFor(check.data.category),
    status: check.data.status,
    tags: check.data.tags ?? [],
  };
  if (options.json) {
    ctx.out.json({ success: true, valid: true, post: summary, notes, ignoredFields: check.ignoredFields });
    return ExitCode.Ok;
  }
  ctx.out.success(`Valid: "${summary.title}"`);
  ctx.out.info(`  slug ${summary.slug} (the server adds -2, -3 ... if it is taken)`);
  ctx.out.info(`  category ${summary.category}${summary.category === 'uncategorized' ? ` ("${check.data.category}" is not a built-in category)` : ''}`);
  ctx.out.info(`  status ${summary.status}`);
  for (const note of notes) ctx.out.info(`  note: ${note}`);
  for (const field of check.ignoredFields) ctx.out.warn(`The field "${field}" is not part of a post and will be ignored.`);
  return ExitCode.Ok;
}

export function registerValidate(program: Command, ctx: CommandContext): void {
  program
    .command('validate')
    .description('Check a post offline with the same schema the API uses; exit 1 when invalid.')
    .argument('<file>', 'Markdown (.md), HTML (.html) with front matter, or a JSON payload; "-" reads stdin')
    .option('--status <status>', 'check as draft or published, overriding the file')
    .option('--json', 'print the result as JSON on stdout')
    .addHelpText(
      'before',
      'Examples:\n  $ blogpost validate post.md\n  $ cat payload.json | blogpost validate - --json\n',
    )
    .action(async (file: string, options: ValidateOptions) => ctx.exit(await validateCommand(file, options, ctx)));
}
