/**
 * Reads a post file (Markdown, HTML or JSON) and runs the contract's checks on it, offline: the payload
 * to send, the post's id when the file was published before, what the conversion inferred (notes) and
 * what the author should fix (warnings: unknown front-matter keys or fields, an unknown category).
 */
import { writeFileSync } from 'node:fs';
import { checkCreatePostBody, type CreatePostCheck } from '../contract/blog';
import { unknownCategoryWarning } from '../contract/categories';
import { COMPLIANCE_RULES, unknownAcceptances } from '../contract/compliance';
import type { FieldProblem } from '../contract/field-problems';
import { type PostFile, type PostFileKind, parsePostFile, PostFileError, publishKeyOf, setFrontMatterFields } from '../api/operations';
import { type CommandContext, readInput } from './context';
import { CliError, ExitCode } from './exit-codes';
import { type ImageProblem, type ImageReference, checkImages, imageReferences, isLocalReference, type LocalImage } from './post-images';

/**
 * What the contract checks in place of a cover that names a local file: a media id (the file is
 * uploaded, and its id sent, by publish).
 */
const LOCAL_COVER_STAND_IN = '0'.repeat(32);

export interface LoadedPost {
  payload: Record<string, unknown>;
  check: CreatePostCheck;
  notes: string[];
  warnings: string[];
  /** The post this file was published as (its front matter's `id`). */
  id?: string;
  /** The post's revision this file holds (front matter `revision`): an update sends it as If-Match. */
  revision?: number;
  /**
   * What the command sent instead of the file (`--status`, `schedule --at`): written into the file
   * with the id and revision once published, so the file says what the post is and the next publish
   * sends the same.
   */
  overrides: { status?: string; publish_at?: string };
  kind: PostFileKind;
  /** The file's text and full path (none for stdin). */
  text: string;
  path?: string;
  /** Where the title, excerpt and content sit in the text (compliance findings are shown there). */
  source: PostFile['source'];
}

export interface LoadOptions {
  status?: string;
  /** `publish_at` to send instead of the file's (schedule --at). */
  publishAt?: string;
}

export async function loadPost(file: string, ctx: CommandContext, options: LoadOptions = {}): Promise<LoadedPost> {
  const input = await readInput(file, ctx.io);
  let parsed;
  try {
    parsed = parsePostFile(input.text, { ...(input.name ? { fileName: input.name } : {}) });
  } catch (error) {
    if (error instanceof PostFileError) throw new CliError(error.message, ExitCode.Failed);
    throw error;
  }
  const payload: Record<string, unknown> = { ...parsed.payload };
  let { id, revision } = parsed;
  if (parsed.kind === 'json') {
    // A JSON post file keeps the post's id and revision beside the fields; they are not sent.
    if (typeof payload.id === 'string') id = payload.id;
    if (typeof payload.revision === 'number') revision = payload.revision;
    delete payload.id;
    delete payload.revision;
  }
  // The file itself goes too: the server renders the post from it and keeps it, so `get --markdown` gives it back (decision 0022).
  if (parsed.kind === 'markdown') payload.source = { format: 'markdown', text: input.text };
  const overrides: LoadedPost['overrides'] = {};
  if (options.status) payload.status = overrides.status = options.status;
  if (options.publishAt) {
    payload.publish_at = overrides.publish_at = options.publishAt;
    payload.status = overrides.status = 'scheduled';
  }
  const cover = payload.cover_image;
  const check = checkCreatePostBody(typeof cover === 'string' && isLocalReference(cover) ? { ...payload, cover_image: LOCAL_COVER_STAND_IN } : payload);
  const warnings = [...parsed.warnings];
  if (check.ok) {
    for (const field of check.ignoredFields) warnings.push(`The field "${field}" is not part of a post and will not be sent.`);
    const category = unknownCategoryWarning(check.data.category);
    if (category) warnings.push(category.replace('the post was filed', 'the post will be filed'));
    // Front matter names these with their line (api/authoring); a JSON file's are named here.
    if (parsed.kind === 'json') {
      for (const rule of unknownAcceptances(check.data.compliance?.accept ?? [])) {
        warnings.push(`compliance.accept names the rule "${rule}", which is not a rule, so it accepts nothing. The rules are: ${COMPLIANCE_RULES.map((known) => known.id).join(', ')}.`);
      }
    }
  }
  return {
    payload,
    check,
    notes: parsed.notes,
    warnings,
    ...(id ? { id } : {}),
    ...(revision ? { revision } : {}),
    overrides,
    kind: parsed.kind,
    text: input.text,
    ...(input.name ? { path: input.name } : {}),
    source: parsed.source,
  };
}

/** The pictures of a loaded post, checked offline: local files that are missing or not images, missing alt text. */
export async function postImages(loaded: LoadedPost, cwd: string): Promise<{ references: ImageReference[]; problems: ImageProblem[]; images: Map<string, LocalImage> }> {
  const references = imageReferences(
    { payload: loaded.payload, text: loaded.text, ...(loaded.path ? { path: loaded.path } : {}), ...(loaded.source.body ? { bodyStart: loaded.source.body.start } : {}), keys: loaded.source.keys },
    cwd,
  );
  return { references, ...(await checkImages(references)) };
}

/** An image problem as a line: `post.md:12:3 the image img/x.png has no alt text: ...`. */
export function imageProblemLine(problem: ImageProblem, file: string): string {
  const at = problem.line !== null ? `:${problem.line}${problem.column !== null ? `:${problem.column}` : ''}` : '';
  return `${file}${at} ${problem.message}`;
}

/** Prints the warnings; with --strict they stop the command (exit 1) before anything is sent. */
export function reportWarnings(warnings: readonly string[], ctx: CommandContext, strict: boolean, json: boolean, outcome = 'nothing was sent'): ExitCode | null {
  if (!json) for (const warning of warnings) ctx.out.warn(warning);
  if (!strict || warnings.length === 0) return null;
  const message = `--strict: ${warnings.length} warning${warnings.length === 1 ? '' : 's'}, so ${outcome}. Fix ${warnings.length === 1 ? 'it' : 'them'}, or run without --strict.`;
  if (json) ctx.out.json({ success: false, strict: true, warnings, message });
  else ctx.out.error(message);
  return ExitCode.Failed;
}

export function describeProblems(problems: readonly FieldProblem[]): string[] {
  return problems.map((p) => `  ${p.field}: ${p.message}`);
}

/** Prints why a post is invalid; returns the exit code. */
export function reportInvalid(check: Exclude<CreatePostCheck, { ok: true }>, ctx: CommandContext, json: boolean): ExitCode {
  if (check.reason === 'json_string') {
    const message = 'The file holds a JSON string with the post inside: it was serialised twice. Save the JSON object itself.';
    if (json) ctx.out.json({ success: false, valid: false, message });
    else ctx.out.error(message);
    return ExitCode.Failed;
  }
  if (json) {
    ctx.out.json({ success: false, valid: false, errors: check.problems });
  } else {
    ctx.out.error(`The post is not valid (${check.problems.length} problem${check.problems.length === 1 ? '' : 's'}):`);
    for (const line of describeProblems(check.problems)) ctx.out.info(line);
  }
  return ExitCode.Failed;
}

/**
 * Records in the file which post it was published as, and at which revision, so the next publish
 * updates that post (with If-Match) instead of creating another, and the status and time the command
 * gave in place of the file's (without them, a file published with `--status` or `schedule` and no
 * `status:` line of its own could not be published again). Standard input cannot be written:
 * the author is told what to add.
 */
export function recordPublished(loaded: LoadedPost, post: { id: string; revision: number }, ctx: CommandContext): void {
  if (!loaded.path) {
    ctx.out.info(ctx.out.dim(`note: add "id: ${post.id}" and "revision: ${post.revision}" to the front matter so the next publish updates this post.`));
    return;
  }
  let text: string;
  if (loaded.kind === 'json') {
    const { id: _id, revision: _revision, ...rest } = JSON.parse(loaded.text) as Record<string, unknown>;
    text = `${JSON.stringify({ id: post.id, revision: post.revision, ...rest, ...loaded.overrides }, null, 2)}\n`;
  } else {
    const { publish_at: publishAt, ...overrides } = loaded.overrides;
    text = setFrontMatterFields(loaded.text, { id: post.id, revision: post.revision, ...overrides, ...(publishAt ? { [publishKeyOf(loaded.text)]: publishAt } : {}) });
  }
  if (text === loaded.text) return;
  try {
    writeFileSync(loaded.path, text);
  } catch (error) {
    throw new CliError(`The post was saved as ${post.id} (revision ${post.revision}), but ${loaded.path} could not be updated: ${(error as Error).message}. Add "id: ${post.id}" and "revision: ${post.revision}" to its front matter by hand, or the next publish creates another post.`, ExitCode.Local);
  }
}
