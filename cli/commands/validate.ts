/** `blogpost validate <file|->`: checks a post offline with the API's own schema. */
import type { Command } from 'commander';
import { categorySlugFor } from '../../contract/categories';
import { slugify } from '../../contract/slug';
import type { CommandContext } from '../context';
import { ExitCode } from '../exit-codes';
import { loadPost, reportInvalid, reportWarnings } from '../post-input';

interface ValidateOptions {
  json?: boolean;
  status?: string;
  strict?: boolean;
}

export async function validateCommand(file: string, options: ValidateOptions, ctx: CommandContext): Promise<ExitCode> {
  const { check, notes, warnings } = await loadPost(file, ctx, options.status ? { status: options.status } : {});
  if (!check.ok) return reportInvalid(check, ctx, options.json === true);
  const summary = {
    title: check.data.title,
    slug: slugify(check.data.title),
    category: categorySlugFor(check.data.category),
    status: check.data.status,
    tags: check.data.tags ?? [],
  };
  const failed = options.strict === true && warnings.length > 0;
  if (options.json) {
    ctx.out.json({ success: !failed, valid: true, post: summary, notes, warnings, ignoredFields: check.ignoredFields });
    return failed ? ExitCode.Failed : ExitCode.Ok;
  }
  ctx.out.success(`Valid: "${summary.title}"`);
  ctx.out.info(`  slug ${summary.slug} (the server adds -2, -3 ... if it is taken)`);
  ctx.out.info(`  category ${summary.category}${summary.category === 'uncategorized' ? ` ("${check.data.category}" is not a built-in category)` : ''}`);
  ctx.out.info(`  status ${summary.status}`);
  for (const note of notes) ctx.out.info(`  note: ${note}`);
  return reportWarnings(warnings, ctx, options.strict === true, false, 'the post does not pass') ?? ExitCode.Ok;
}

export function registerValidate(program: Command, ctx: CommandContext): void {
  program
    .command('validate')
    .description('Check a post offline with the same schema the API uses; exit 1 when invalid.')
    .argument('<file>', 'Markdown (.md), HTML (.html) with front matter, or a JSON payload; "-" reads stdin')
    .option('--status <status>', 'check as draft, scheduled or published, overriding the file')
    .option('--strict', 'treat every warning (unknown field or category) as an error: exit 1')
    .option('--json', 'print the result as JSON on stdout')
    .addHelpText(
      'before',
      'Examples:\n  $ blogpost validate post.md\n  $ cat payload.json | blogpost validate - --json\n',
    )
    .action(async (file: string, options: ValidateOptions) => ctx.exit(await validateCommand(file, options, ctx)));
}
