/**
 * `blogpost validate <file|->`: checks a post offline with the API's own schema, then with the
 * compliance rules the server runs (contract/compliance.ts), each finding at its line and column in
 * the file. A finding is not a schema error: it fails the command (exit 1) only with --strict.
 * The pictures it shows are checked too, at their line: a local image (or cover) that does not exist
 * or is not a PNG, JPEG, WebP, AVIF or GIF fails it (publish could not upload it); an image without
 * alt text, or a cover without cover_image_alt, is a warning.
 */
import { categorySlugFor } from '../../contract/categories';
import { slugify } from '../../contract/slug';
import type { CommandContext } from '../context';
import { ExitCode } from '../exit-codes';
import { displayPath, offlineFindings, printFindings, type SourceFinding, unacceptedHigh } from '../findings';
import { imageProblemLine, loadPost, postImages, reportInvalid } from '../post-input';

export interface ValidateOptions {
  json?: boolean;
  status?: string;
  strict?: boolean;
}

/** What --strict says when it fails the post, or null when it passes. */
function strictFailure(warnings: readonly string[], high: number): string | null {
  const reasons = [
    warnings.length > 0 ? `${warnings.length} warning${warnings.length === 1 ? '' : 's'}` : '',
    high > 0 ? `${high} high compliance finding${high === 1 ? '' : 's'} not accepted` : '',
  ].filter(Boolean);
  if (reasons.length === 0) return null;
  return `--strict: ${reasons.join(' and ')}, so the post does not pass. Fix them (a finding can also be accepted in the front matter with a reason), or run without --strict.`;
}

/** The compliance part of the report: the findings at their place in the file, and what they mean. */
function reportFindings(findings: readonly SourceFinding[], file: string, strict: boolean, ctx: CommandContext): void {
  if (findings.length === 0) {
    ctx.out.info('  compliance: no findings');
    return;
  }
  ctx.out.info(`  compliance: ${findings.length} finding${findings.length === 1 ? '' : 's'}:`);
  printFindings(findings, file, ctx);
  const high = unacceptedHigh(findings);
  if (high > 0 && !strict) {
    ctx.out.warn(
      `${high} high finding${high === 1 ? ' is' : 's are'} not accepted. The post is still valid (findings are not schema errors), but a site whose compliance mode is review holds it for a staff member's approval, and one in block mode refuses it. --strict makes this exit 1.`,
    );
  }
}

export async function validateCommand(file: string, options: ValidateOptions, ctx: CommandContext): Promise<ExitCode> {
  const loaded = await loadPost(file, ctx, options.status ? { status: options.status } : {});
  const { check, notes, warnings } = loaded;
  if (!check.ok) return reportInvalid(check, ctx, options.json === true);
  const findings = offlineFindings(loaded);
  const label = displayPath(loaded.path, ctx.io.cwd);
  const { problems } = await postImages(loaded, ctx.io.cwd);
  const imageErrors = problems.filter((problem) => problem.severity === 'error');
  const allWarnings = [...warnings, ...problems.filter((problem) => problem.severity === 'warning').map((problem) => imageProblemLine(problem, label))];
  const broken = imageErrors.length > 0 ? `${imageErrors.length} image${imageErrors.length === 1 ? '' : 's'} cannot be uploaded, so publish would stop: fix the path${imageErrors.length === 1 ? '' : 's'} or the file${imageErrors.length === 1 ? '' : 's'}.` : null;
  const failure = broken ?? (options.strict === true ? strictFailure(allWarnings, unacceptedHigh(findings)) : null);
  const summary = {
    title: check.data.title,
    slug: slugify(check.data.title),
    category: categorySlugFor(check.data.category),
    status: check.data.status,
    tags: check.data.tags ?? [],
  };
  if (options.json) {
    ctx.out.json({ success: failure === null, valid: imageErrors.length === 0, post: summary, notes, warnings: allWarnings, images: problems, ignoredFields: check.ignoredFields, findings, ...(failure ? { message: failure } : {}) });
    return failure ? ExitCode.Failed : ExitCode.Ok;
  }
  if (imageErrors.length === 0) ctx.out.success(`Valid: "${summary.title}"`);
  else ctx.out.error(`Not publishable as it is: "${summary.title}"`);
  ctx.out.info(`  slug ${summary.slug} (the server adds -2, -3 ... if it is taken)`);
  ctx.out.info(`  category ${summary.category}${summary.category === 'uncategorized' ? ` ("${check.data.category}" is not a built-in category)` : ''}`);
  ctx.out.info(`  status ${summary.status}`);
  for (const note of notes) ctx.out.info(`  note: ${note}`);
  for (const warning of allWarnings) ctx.out.warn(warning);
  for (const problem of imageErrors) ctx.out.error(imageProblemLine(problem, label));
  reportFindings(findings, label, options.strict === true, ctx);
  if (!failure) return ExitCode.Ok;
  ctx.out.error(failure);
  return ExitCode.Failed;
}
