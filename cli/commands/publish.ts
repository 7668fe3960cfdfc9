/**
 * `blogpost publish <file|->`: validates a post offline, then creates it (POST /api/blog) or, when the
 * file was published before, updates that post (PUT /api/blog/:id with If-Match). After a create the
 * post's id and revision go into the file's front matter, so editing and publishing again changes the
 * same post and never makes a duplicate; `--new` makes a new post anyway. An update sends the revision
 * the file holds: what others changed since in other fields (a schedule, going live, the trash and
 * back, a review) is kept, the answer's note says what it was, and a status changed elsewhere is
 * written into the file (a time no longer scheduled taken out); when someone changed a field the file changes too, the API answers 412 and
 * the command shows who and when, and stops (`--force` overwrites them after showing them). After a
 * reviewer sent the post back, the update shows the reviewer's note and the rules to fix.
 *
 * A create sends an Idempotency-Key (by default derived from the URL and the body), so a retry after a
 * timeout never creates the post twice; every request backs off on 429 as Retry-After says.
 *
 * Pictures: every local image the content shows (`![alt](img/chart.png)`, `<img src="img/x.jpg">`, relative
 * to the file) and a local cover (`cover_image:` or `cover:`) are checked first (a missing file or one
 * that is not a PNG, JPEG, WebP, AVIF or GIF stops the command before anything is sent), then uploaded
 * once per content hash (POST /api/media; a picture the site has already is not sent again), and the
 * post is sent with their URLs on the site and the cover's media id. The file keeps its local paths.
 * `--dry-run` lists what it would upload.
 *
 * Compliance: the rules the server runs are run offline first and their findings shown at their line
 * in the file; after the answer, the server's findings that were not shown already. A post the server
 * holds for review (`in_review`, COMPLIANCE_MODE review) is a success: it waits for a staff member. A
 * 422 compliance_blocked (block mode) shows the findings it names and exits 1.
 */
import { createHash } from 'node:crypto';
import { type CreatePostResponse, type PostReview, REPLAYED_HEADER } from '../../contract/blog';
import { type ComplianceFinding, COMPLIANCE_RULES_HEADER, COMPLIANCE_RULES_VERSION } from '../../contract/compliance';
import { maskApiKey } from '../../contract/keys';
import { type PostWriteResponse, type PreconditionFailedDetails, postEtag } from '../../contract/post-lifecycle';
import { withoutPublishTime } from '../../api/operations';
import { type ApiAnswer, ApiClient, apiCode, type ClientOptions, refusal } from '../api-client';
import { type CommandContext, resolveKey, resolveUrl } from '../context';
import { CliError, ExitCode } from '../exit-codes';
import { displayPath, offlineFindings, printFindings, serverFindings, type SourceFinding, unacceptedHigh } from '../findings';
import { formatBytes, planUploads, type PlannedUpload, type Upload, uploadPostImages, displayFile } from '../media-uploads';
import { imageProblemLine, type LoadedPost, loadPost, postImages, recordPublished, reportInvalid, reportWarnings } from '../post-input';
import { describeChanges, fetchPost, shownChanges } from '../post-target';

export interface PublishOptions extends ClientOptions {
  status?: string;
  /** schedule --at: the time to publish at. */
  at?: string;
  dryRun?: boolean;
  json?: boolean;
  idempotencyKey?: string;
  new?: boolean;
  force?: boolean;
  strict?: boolean;
  retries: number;
  timeout: number;
}

export function defaultIdempotencyKey(url: string, body: string): string {
  return `blogpost-${createHash('sha256').update(url).update('\n').update(body).digest('hex').slice(0, 40)}`;
}

interface Publication {
  loaded: LoadedPost;
  options: PublishOptions;
  ctx: CommandContext;
  client: ApiClient;
  json: boolean;
  /** The compliance findings of the file, found offline and already shown. */
  findings: SourceFinding[];
  /** The pictures uploaded (or found on the site already) for this post. */
  uploads: Upload[];
}

/** Where signed-in staff read a post that is not public yet as readers will see it; nothing for a published one. */
function previewLine(p: Pick<Publication, 'ctx' | 'client'>, status: string | undefined, id: string): void {
  if (status === 'draft' || status === 'scheduled' || status === 'in_review') p.ctx.out.info(`  signed-in staff can preview it at ${p.client.origin}/admin/posts/${encodeURIComponent(id)}/preview`);
}

function statusNote(status: string | undefined, publishAt: string | null | undefined): string {
  if (status === 'draft') return ' (drafts are not public until published)';
  if (status === 'scheduled') return ` (goes live at ${publishAt ?? 'its time'})`;
  if (status === 'in_review') return ' (held for compliance review)';
  return '';
}

/** The file's name in a finding's line. */
function fileLabel(p: Pick<Publication, 'loaded' | 'ctx'>): string {
  return displayPath(p.loaded.path, p.ctx.io.cwd);
}

/**
 * Why the server found what the offline check did not: its rules are of another version (named by the
 * answer's header), or, when they are the same, it read the post as sent rather than this file.
 */
function whyUnseen(answer: ApiAnswer): string {
  const theirs = answer.headers[COMPLIANCE_RULES_HEADER.toLowerCase()];
  if (theirs && theirs !== COMPLIANCE_RULES_VERSION) return ` (its compliance rules are of ${theirs}, this blogpost's of ${COMPLIANCE_RULES_VERSION})`;
  return '';
}

/** The server's findings placed in the file; those the offline check did not show are printed now. */
function reportServerFindings(p: Publication, findings: readonly ComplianceFinding[] | undefined, answer: ApiAnswer): SourceFinding[] {
  const placed = serverFindings(findings ?? [], p.loaded, p.findings);
  if (!p.json && placed.unseen.length > 0) {
    p.ctx.out.info(`The server also found ${placed.unseen.length === 1 ? 'this' : 'these'}${whyUnseen(answer)}:`);
    printFindings(placed.unseen, fileLabel(p), p.ctx);
  }
  return placed.all;
}

/** What a held post's author needs to know: it is not public, who releases it, and why it was held. */
function reportHeld(p: Publication, review: PostReview | undefined): void {
  if (p.json) return;
  p.ctx.out.warn('Held for compliance review: a staff member approves it at /admin/review; it is not public until then.');
  if (review) {
    const when = review.requested_publish_at ? ` at ${review.requested_publish_at}` : '';
    p.ctx.out.info(`  It becomes ${review.requested_status}${when} when approved; held for ${review.rules.join(', ')}. blogpost list --mine --status in_review shows its state and any note.`);
  }
}

/**
 * A 422 compliance_blocked (COMPLIANCE_MODE block): the findings it names at their place in the file
 * (those the offline check did not show already), then the refusal with the catalogue's guidance
 * (exit 1), without listing the findings a second time.
 */
function blocked(p: Publication, answer: ApiAnswer, what: string): CliError {
  const body = (answer.json ?? {}) as { findings?: ComplianceFinding[] };
  const placed = serverFindings(body.findings ?? [], p.loaded, p.findings);
  if (p.json) p.ctx.out.json({ ...body, success: false, findings: placed.all });
  else {
    const high = unacceptedHigh(placed.all);
    p.ctx.out.error(`The site's compliance rules refuse the post (COMPLIANCE_MODE block): ${high} high finding${high === 1 ? ' is' : 's are'} not accepted${placed.unseen.length === 0 ? ', shown above' : ''}.`);
    printFindings(placed.unseen, fileLabel(p), p.ctx);
  }
  const withoutFindings = { ...body, findings: [] };
  return refusal({ ...answer, json: withoutFindings, text: JSON.stringify(withoutFindings) }, what);
}

/** Shows the offline findings before anything is sent; with --strict a high one not accepted stops the command. */
function preflightFindings(loaded: LoadedPost, options: PublishOptions, ctx: CommandContext, json: boolean): { findings: SourceFinding[]; stop: ExitCode | null } {
  const findings = offlineFindings(loaded);
  if (!json && findings.length > 0) {
    ctx.out.info(`Compliance (checked offline): ${findings.length} finding${findings.length === 1 ? '' : 's'}:`);
    printFindings(findings, displayPath(loaded.path, ctx.io.cwd), ctx);
  }
  const high = unacceptedHigh(findings);
  if (!options.strict || high === 0) return { findings, stop: null };
  const message = `--strict: ${high} high compliance finding${high === 1 ? '' : 's'} not accepted, so nothing was sent. Rewrite ${high === 1 ? 'it' : 'them'} as suggested, or accept ${high === 1 ? 'it' : 'them'} in the front matter with a reason.`;
  if (json) ctx.out.json({ success: false, strict: true, findings, message });
  else ctx.out.error(message);
  return { findings, stop: ExitCode.Failed };
}

/** The uploads as --json shows them. */
function uploadsJson(uploads: readonly Upload[]): Array<Record<string, unknown>> {
  return uploads.map((upload) => ({ file: upload.file, bytes: upload.bytes, sha256: upload.sha256, id: upload.media.id, url: upload.media.url, already_stored: upload.alreadyStored, ...(upload.sameAs ? { same_as: upload.sameAs } : {}) }));
}

/** What --dry-run says it would upload: each picture once, with its size and the start of its SHA-256. */
function plannedJson(plan: readonly PlannedUpload[], cwd: string): Array<Record<string, unknown>> {
  return plan.map(({ image, references }) => ({
    file: displayFile(image.file, cwd),
    bytes: image.bytes.length,
    type: image.type,
    sha256: image.sha256,
    references: references.map((reference) => ({ role: reference.role, src: reference.src, line: reference.line })),
  }));
}

function printPlan(plan: readonly PlannedUpload[], ctx: CommandContext): void {
  if (plan.length === 0) return;
  ctx.out.info(`Would upload ${plan.length} image${plan.length === 1 ? '' : 's'} (POST /api/media), then send the post with their URLs on the site:`);
  for (const { image, references } of plan) {
    const files = [...new Set(references.map((reference) => displayFile(reference.file ?? image.file, ctx.io.cwd)))];
    const roles = references.some((reference) => reference.role === 'cover') ? ' (cover)' : '';
    ctx.out.data(`upload ${files.join(', ')}  ${formatBytes(image.bytes.length)}  sha256 ${image.sha256.slice(0, 12)}${roles}`);
  }
}

/** What the uploads were, for the author. */
function printUploads(uploads: readonly Upload[], ctx: CommandContext): void {
  for (const upload of uploads) {
    const same = upload.sameAs ? ` (also ${upload.sameAs}: the same picture)` : '';
    if (upload.alreadyStored) ctx.out.info(ctx.out.dim(`  ${upload.file}${same} is on the site already: ${upload.media.url}`));
    else ctx.out.info(`  Uploaded ${upload.file}${same} (${formatBytes(upload.bytes)}): ${upload.media.url}`);
  }
}

function printDryRun(loaded: LoadedPost, options: PublishOptions, ctx: CommandContext, id: string | undefined, plan: readonly PlannedUpload[]): ExitCode {
  const origin = resolveUrl(options, ctx.io);
  const apiKey = resolveKey(options, ctx.io);
  const body = JSON.stringify(loaded.payload);
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json',
    ...(id
      ? { 'If-Match': loaded.revision ? postEtag(id, loaded.revision) : '(the ETag of GET /api/blog/:id)' }
      : { 'Idempotency-Key': options.idempotencyKey ?? defaultIdempotencyKey(origin, body) }),
    ...(apiKey ? { Authorization: `Bearer ${maskApiKey(apiKey)}` } : {}),
  };
  const request = { method: id ? 'PUT' : 'POST', url: `${origin}/api/blog${id ? `/${id}` : ''}`, headers, body: loaded.payload };
  if (options.json) ctx.out.json({ dryRun: true, uploads: plannedJson(plan, ctx.io.cwd), request });
  else {
    printPlan(plan, ctx);
    ctx.out.data(`${request.method} ${request.url}`);
    for (const [name, value] of Object.entries(headers)) ctx.out.data(`${name}: ${value}`);
    ctx.out.data('');
    ctx.out.data(JSON.stringify(loaded.payload, null, 2));
    ctx.out.info(ctx.out.dim('Dry run: nothing was sent.'));
  }
  return ExitCode.Ok;
}

/** With --strict, the server's own warnings (a possible duplicate, ...) stop a create before it happens. */
async function strictPreflight(p: Publication): Promise<ExitCode | null> {
  const answer = await p.client.send('POST', '/api/blog/validate', { body: p.loaded.payload, label: 'Checking with the server' });
  if (answer.status !== 200) throw refusal(answer, 'Not published');
  const warnings = (answer.json as { warnings?: string[] } | undefined)?.warnings ?? [];
  return reportWarnings(warnings, p.ctx, true, p.json);
}

async function create(p: Publication): Promise<ExitCode> {
  const { loaded, options, ctx, client, json } = p;
  if (options.strict) {
    const stop = await strictPreflight(p);
    if (stop !== null) return stop;
  }
  const body = JSON.stringify(loaded.payload);
  const idempotencyKey = options.idempotencyKey ?? defaultIdempotencyKey(client.origin, body);
  const answer = await client.send('POST', '/api/blog', {
    body,
    headers: { 'Idempotency-Key': idempotencyKey },
    label: `Publishing "${String(loaded.payload.title)}"`,
  });
  if (answer.status === 422 && apiCode(answer) === 'compliance_blocked') throw blocked(p, answer, 'Not published');
  if (answer.status !== 201 && answer.status !== 200) throw refusal(answer, 'Not published');
  const created = answer.json as Partial<Pick<CreatePostResponse, 'warnings' | 'findings'>> & { post: Omit<CreatePostResponse['post'], 'etag'> & { etag?: string } };
  const revision = Number(/-r(\d+)"$/.exec(answer.headers.etag ?? created.post.etag ?? '')?.[1] ?? 1);
  const postUrl = `${client.origin}/blog/${created.post.slug}`;
  const replayed = answer.headers[REPLAYED_HEADER.toLowerCase()] === 'true';
  recordPublished(loaded, { id: created.post.id, revision }, ctx);
  const findings = reportServerFindings(p, created.findings, answer);
  if (json) ctx.out.json({ ...created, ...(created.findings ? { findings } : {}), action: 'created', url: postUrl, idempotencyKey, replayed, uploads: uploadsJson(p.uploads) });
  else {
    ctx.out.data(postUrl);
    ctx.out.success(
      replayed
        ? `Already published with this Idempotency-Key: nothing new was created (${created.post.status}).`
        : `Created "${String(loaded.payload.title)}" as ${created.post.status}${statusNote(created.post.status, created.post.publish_at)}.`,
    );
    previewLine(p, created.post.status, created.post.id);
    if (loaded.path) ctx.out.info(ctx.out.dim(`  id ${created.post.id} written to ${loaded.path}: publishing it again updates this post.`));
    for (const warning of created.warnings ?? []) ctx.out.warn(warning);
  }
  if (created.post.status === 'in_review') reportHeld(p, created.post.review);
  return options.strict && (created.warnings ?? []).length > 0 ? ExitCode.Failed : ExitCode.Ok;
}

async function put(p: Publication, id: string, etag: string): Promise<ApiAnswer> {
  return p.client.send('PUT', `/api/blog/${id}`, { body: p.loaded.payload, headers: { 'If-Match': etag }, label: `Updating "${String(p.loaded.payload.title)}"` });
}

function reportConflict(p: Publication, id: string, details: PreconditionFailedDetails): void {
  const { ctx } = p;
  const since = details.your_revision ? `revision ${details.your_revision}, which this file holds` : 'the version this file holds';
  ctx.out.error(`The post ${id} was changed on the server since ${since}: it is at revision ${details.current_revision} now.`);
  for (const conflict of details.conflicts ?? []) {
    ctx.out.info(`  ${conflict.field} was changed there too, by ${conflict.by} at ${conflict.at} (revision ${conflict.revision}), and this file changes it as well.`);
  }
  if (details.changes === null) ctx.out.info('  (That revision is no longer kept, so what changed cannot be listed.)');
  else if (details.changes.length === 0) ctx.out.info('  (No field differs: only its revision moved on.)');
  else {
    ctx.out.info('  Changed there since:');
    for (const line of describeChanges(details.changes)) ctx.out.info(`  ${line}`);
  }
}

/** The status a post stands for, as a file writes it: a post held for review stands for the status its author asked for. */
function askedStatus(post: PostWriteResponse['post']): { status: string; publishAt: string | null } {
  if (post.status === 'in_review') return { status: post.review?.requested_status ?? 'published', publishAt: post.review?.requested_publish_at ?? null };
  return { status: post.status, publishAt: post.status === 'scheduled' ? post.publish_at : null };
}

/**
 * The status the file should say after an update that kept a status change made elsewhere (a
 * schedule, going live, a send-back), so publishing the file again does not undo it; none when the
 * file says it already.
 */
function statusToRecord(p: Publication, post: PostWriteResponse['post']): { status?: string; publish_at?: string } {
  const asked = askedStatus(post);
  const file = p.loaded.payload;
  if (asked.status === file.status && (asked.status !== 'scheduled' || asked.publishAt === null || Date.parse(String(file.publish_at)) === Date.parse(asked.publishAt))) return {};
  return { status: asked.status, ...(asked.status === 'scheduled' && asked.publishAt ? { publish_at: asked.publishAt } : {}) };
}

/** What an author reads after a reviewer sent the post back: the note, and the rules whose findings held it. */
function reportSentBack(p: Publication, review: PostReview | undefined): void {
  if (p.json || review?.state !== 'returned') return;
  p.ctx.out.warn(`Sent back by the compliance reviewer${review.decided_at ? ` (${review.decided_at})` : ''}: the post is a draft until you send it for review again.`);
  if (review.note) p.ctx.out.info(`  Reviewer's note: ${review.note}`);
  if (review.rules.length > 0) p.ctx.out.info(`  Rules to fix: ${review.rules.join(', ')}.`);
  p.ctx.out.info('  → Fix the text, set status: published in the front matter, and publish again: it is reviewed again.');
}

async function update(p: Publication, id: string): Promise<ExitCode> {
  const { loaded, options, ctx, client, json } = p;
  let etag: string;
  if (loaded.revision) etag = postEtag(id, loaded.revision);
  else {
    const current = await fetchPost(client, id);
    etag = current.etag;
    if (!json) ctx.out.info(ctx.out.dim(`note: the file does not say which revision it was made from; it replaces revision ${current.post.revision}.`));
  }
  // The server applies the file on top of changes made since its revision that touch other fields; a
  // 412 means someone else changed a field this file changes too (or the revision is no longer kept).
  let answer = await put(p, id, etag);
  if (answer.status === 412) {
    const details = answer.json as PreconditionFailedDetails;
    if (json && !options.force) {
      ctx.out.json({ success: false, action: 'conflict', ...details, response: answer.json });
      return ExitCode.Failed;
    }
    reportConflict(p, id, details);
    if (!options.force) {
      ctx.out.info(`  → To keep their changes: blogpost get ${id} --markdown --output <file>, edit it, and publish that file.`);
      ctx.out.info('  → To overwrite them with this file: publish again with --force.');
      return ExitCode.Failed;
    }
    ctx.out.warn('--force: replacing those changes with this file.');
    answer = await put(p, id, details.current_etag);
  }
  if (answer.status === 404 && apiCode(answer) === 'post_not_found') {
    throw new CliError(
      `The file says it is post ${id}, but ${client.origin} has no such post (it was purged from the trash, or the file was published to another site). Publish with --new to create it again.`,
      ExitCode.Failed,
    );
  }
  if (answer.status === 410 && apiCode(answer) === 'post_gone') {
    throw new CliError(
      `The post ${id} is in the trash, so it was not updated: bring it back with blogpost restore ${id}, then publish again (or publish with --new to make a new post from this file).`,
      ExitCode.Failed,
    );
  }
  if (answer.status === 422 && apiCode(answer) === 'compliance_blocked') throw blocked(p, answer, 'Not updated');
  if (answer.status !== 200) throw refusal(answer, 'Not updated');
  const written = answer.json as PostWriteResponse;
  const status = statusToRecord(p, written.post);
  // A post no longer scheduled (it went live, or was sent back) drops the time that would schedule it again.
  const text = status.status !== undefined && status.status !== 'scheduled' ? withoutPublishTime(loaded.text) : loaded.text;
  recordPublished({ ...loaded, text, overrides: { ...loaded.overrides, ...status } }, { id, revision: written.post.revision }, ctx);
  const postUrl = `${client.origin}/blog/${written.post.slug}`;
  const findings = reportServerFindings(p, written.findings, answer);
  if (json) {
    ctx.out.json({ ...written, ...(written.findings ? { findings } : {}), action: written.changed.length > 0 ? 'updated' : 'unchanged', url: postUrl, uploads: uploadsJson(p.uploads) });
  } else {
    ctx.out.data(postUrl);
    if (written.changed.length === 0) ctx.out.success(`No changes: "${written.post.title}" is already as this file says (revision ${written.post.revision}).`);
    else {
      const fields = shownChanges(written.changed).map((change) => change.field);
      ctx.out.success(`Updated "${written.post.title}" (revision ${written.post.revision}, ${written.post.status}${statusNote(written.post.status, written.post.publish_at)}): changed ${fields.join(', ')}.`);
      for (const line of describeChanges(written.changed)) ctx.out.info(line);
    }
    previewLine(p, written.post.status, id);
    if (written.since) ctx.out.info(written.since.note);
    if (status.status && loaded.path) ctx.out.info(ctx.out.dim(`  status: ${status.status} written to ${loaded.path}, as the post is now.`));
    for (const warning of written.warnings) ctx.out.warn(warning);
  }
  if (written.post.status === 'in_review') reportHeld(p, written.post.review);
  reportSentBack(p, written.post.review);
  return options.strict && written.warnings.length > 0 ? ExitCode.Failed : ExitCode.Ok;
}

export async function publishCommand(file: string, options: PublishOptions, ctx: CommandContext): Promise<ExitCode> {
  const json = options.json === true;
  const loaded = await loadPost(file, ctx, { ...(options.status ? { status: options.status } : {}), ...(options.at ? { publishAt: options.at } : {}) });
  if (!loaded.check.ok) return reportInvalid(loaded.check, ctx, json);
  if (!json) for (const note of loaded.notes) ctx.out.info(ctx.out.dim(`note: ${note}`));
  const pictures = await postImages(loaded, ctx.io.cwd);
  const label = displayPath(loaded.path, ctx.io.cwd);
  const broken = pictures.problems.filter((problem) => problem.severity === 'error');
  if (broken.length > 0) {
    const message = `${broken.length} image${broken.length === 1 ? '' : 's'} cannot be uploaded, so nothing was sent: fix the path${broken.length === 1 ? '' : 's'} or the file${broken.length === 1 ? '' : 's'}.`;
    if (json) ctx.out.json({ success: false, images: broken, message });
    else {
      for (const problem of broken) ctx.out.error(imageProblemLine(problem, label));
      ctx.out.error(message);
    }
    return ExitCode.Failed;
  }
  const imageWarnings = pictures.problems.map((problem) => imageProblemLine(problem, label));
  const stop = reportWarnings([...loaded.warnings, ...imageWarnings], ctx, options.strict === true, json);
  if (stop !== null) return stop;
  const plan = planUploads(pictures.references, pictures.images);
  const compliance = preflightFindings(loaded, options, ctx, json);
  if (compliance.stop !== null) return compliance.stop;

  const id = options.new ? undefined : loaded.id;
  if (options.new && loaded.id && !json) ctx.out.info(ctx.out.dim(`note: --new: a new post is created, and the file's id ${loaded.id} is replaced by its id.`));
  if (options.dryRun) return printDryRun(loaded, options, ctx, id, plan);

  const client = new ApiClient(options, ctx, { keyRequired: true });
  const uploads = await uploadPostImages(client, plan, loaded.payload, ctx.io.cwd);
  if (!json && uploads.length > 0) {
    const fresh = uploads.filter((upload) => !upload.alreadyStored).length;
    ctx.out.info(`Images: ${fresh} uploaded, ${uploads.length - fresh} on the site already.`);
    printUploads(uploads, ctx);
  }
  const publication: Publication = { loaded, options, ctx, client, json, findings: compliance.findings, uploads };
  return id ? update(publication, id) : create(publication);
}
