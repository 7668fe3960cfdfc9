/**
 * The staff Markdown editor's server side (contract/post-editor.ts). A post is edited as its Markdown
 * source (decision 0022): the body is the source file after its front matter, exactly as stored; a
 * post sent as HTML only gets Markdown made from its HTML as `blogpost pull` makes it. The form's
 * title, excerpt, category and tags are written into the file's front matter in place
 * (setFrontMatterFields: every other byte of the author's front matter stays), the typed body follows
 * it, and the file goes to the post service as a PATCH with `source`, as `blogpost publish` sends it:
 * the preview runs the service's own cleaning (the renderer and the sanitiser a save runs), the save
 * its update (revision check, compliance gate, audit with the staff member). Findings come from the
 * source file (the code `blogpost lint` runs), their lines moved from the file to the body.
 */
import { BLOG_CATEGORIES, categorySlugFor } from '../../contract/categories';
import type { ComplianceFinding } from '../../contract/compliance';
import { checkCreatePostBody } from '../../contract/blog';
import { ApiError, validationError } from '../../contract/errors';
import { parseIfMatch, postEtag } from '../../contract/post-lifecycle';
import type { EditorCreateOutcome, EditorFields, EditorFinding, EditorPost, EditorPreview, EditorSaveOutcome, PostEditorArea } from '../../contract/post-editor';
import { sourceBody, sourceFindings } from '../authoring/markdown-source';
import { frontMatterLine, setFrontMatterFields } from '../authoring/front-matter';
import type { postToMarkdown as PostToMarkdown } from '../authoring/post-markdown';
import type { Actor } from '../services/actors';
import type { PostInput, PostService } from '../services/post-service';
import { presentPost } from '../services/presenters';
import type { PostRecord, PostRepository } from '../store/store';

export interface PostEditorDeps {
  store: PostRepository;
  posts: PostService;
  /** The signed-in staff member as the actor of a change; throws when nobody is signed in. */
  actor: () => Actor;
  /** The signed-in staff member's name: the author of a post they start. */
  authorName: () => string;
  now: () => Date;
}

/** Line breaks as a textarea's text is kept: browsers send CRLF. */
export function typedText(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** The tags as typed: comma-separated, trimmed, empty ones left out. */
export function tagsOf(text: string): string[] {
  return text
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
}

/** The source file split where its body starts: the front matter (with its closing line) and the body. */
function splitSource(text: string): { front: string; body: string } {
  const body = sourceBody(text);
  return { front: text.slice(0, text.length - body.length), body };
}

/**
 * The Markdown writer (turndown and its HTML parser, about half a megabyte of code that builds its
 * parser as it loads) is loaded with the first post opened that has no Markdown source, not at every
 * server start (decision 0040). `editable` loads it before such a post reaches `sourceFileOf`.
 */
let postToMarkdown: typeof PostToMarkdown | undefined;
async function loadMarkdownWriter(): Promise<void> {
  postToMarkdown ??= (await import('../authoring/post-markdown')).postToMarkdown;
}

/** The file a post is edited as: its stored source, or Markdown made from its HTML as `blogpost pull` makes it. */
function sourceFileOf(post: PostRecord): { text: string; fromHtml: boolean } {
  if (post.source) return { text: post.source.text, fromHtml: false };
  if (!postToMarkdown) throw new Error('The Markdown writer is loaded (loadMarkdownWriter) before a post without a source is edited.');
  return { text: postToMarkdown(presentPost(post)), fromHtml: true };
}

/** The front matter with `tags` set to `tags` (a flow list, which YAML reads as written), in place of the key's lines. */
function withTags(front: string, tags: readonly string[]): string {
  const openEnd = front.indexOf('\n');
  const closeAt = front.indexOf('\n---', openEnd);
  if (openEnd === -1 || closeAt === -1) return front;
  const block = front.slice(openEnd + 1, closeAt + 1);
  // The key's top-level line, with the lines that continue its value (indented, or a block list's "- ").
  const existing = /^tags[ \t]*:[^\n]*\n(?:(?:[ \t]+|-[ \t])[^\n]*\n)*/m.exec(block);
  const line = tags.length > 0 ? `tags: ${JSON.stringify(tags)}\n` : '';
  const kept = existing ? `${block.slice(0, existing.index)}${line}${block.slice(existing.index + existing[0].length)}` : `${block}${line}`;
  return `${front.slice(0, openEnd + 1)}${kept}${front.slice(closeAt + 1)}`;
}

/** What is wrong with the fields before they make a file; empty when nothing is. */
function fieldProblems(fields: EditorFields): string[] {
  const problems: string[] = [];
  if (!fields.title.trim()) problems.push('Write a title: it is the heading of the post.');
  if (!fields.excerpt.trim()) problems.push('Write an excerpt: a sentence or two shown on the blog list and in search results.');
  if (!BLOG_CATEGORIES.some((category) => category.slug === fields.category)) problems.push('Choose a category from the list.');
  if (!fields.body.trim()) problems.push('Write the post in the Markdown box: it is empty.');
  return problems;
}

/** The source file the fields make of the post: its front matter updated in place, then the body exactly as typed. */
export function composeSource(post: PostRecord, fields: EditorFields): string {
  const { front } = splitSource(sourceFileOf(post).text);
  const excerpt = fields.excerpt.replace(/\s*\n\s*/g, ' ').trim();
  const set = setFrontMatterFields(front, { title: fields.title.trim(), excerpt, category: categorySlugFor(fields.category) });
  return `${withTags(set, tagsOf(fields.tags))}${fields.body}`;
}

/** The PATCH body a save sends: the file as the post's source (its HTML rendered from it) and the fields beside it. */
function patchOf(post: PostRecord, fields: EditorFields, text: string): Record<string, unknown> {
  return {
    title: fields.title.trim(),
    excerpt: fields.excerpt.replace(/\s*\n\s*/g, ' ').trim(),
    category: fields.category,
    tags: tagsOf(fields.tags),
    source: { format: 'markdown', text, images: post.source?.images ?? {} },
  };
}

/** Findings of the file placed for the editor: lines of the file become lines of the body below its front matter. */
export function placeFindings(findings: readonly ComplianceFinding[], text: string): EditorFinding[] {
  const frontLines = splitSource(text).front.split('\n').length - 1;
  return findings.map((finding) => {
    const field = finding.location?.field;
    const where = field === 'title' || field === 'excerpt' ? field : field === 'content' ? 'body' : 'post';
    const placed = where === 'body' && finding.source ? { line: Math.max(1, finding.source.line - frontLines), column: finding.source.column } : { line: null, column: null };
    return {
      rule: finding.rule,
      severity: finding.severity,
      message: finding.message,
      why: finding.why,
      suggestion: finding.suggestion,
      where,
      ...placed,
      text: finding.location?.text ?? null,
      accepted: finding.accepted?.reason ?? null,
    };
  });
}

/** The findings of a file that may not read as a post (then none). */
function fileFindings(text: string): EditorFinding[] {
  return placeFindings(sourceFindings(text) ?? [], text);
}

/** What an ApiError says to fix, one line each. */
function problemsOf(error: ApiError): string[] {
  const listed = (error.errors ?? []).map((problem) => `${problem.field}: ${problem.message}`);
  return listed.length > 0 ? listed : [error.message];
}

/** A new post's file: a front matter with the fields and the author, then the body as typed. */
export function newSource(fields: EditorFields, authorName: string): string {
  const front = `---\nauthor:\n  ${frontMatterLine('name', authorName)}\nstatus: draft\n---\n`;
  const excerpt = fields.excerpt.replace(/\s*\n\s*/g, ' ').trim();
  const set = setFrontMatterFields(front, { title: fields.title.trim(), excerpt, category: categorySlugFor(fields.category) });
  return `${withTags(set, tagsOf(fields.tags))}${fields.body}`;
}

/** A new post's body as a create takes it: a draft, written in Markdown. */
function createInput(fields: EditorFields, authorName: string, text: string): PostInput | ApiError {
  const check = checkCreatePostBody({
    title: fields.title.trim(),
    excerpt: fields.excerpt.replace(/\s*\n\s*/g, ' ').trim(),
    category: fields.category,
    tags: tagsOf(fields.tags),
    status: 'draft',
    author: { name: authorName },
    // Rendered from the source by the server; the schema wants some text here.
    content: fields.body.trim() || '-',
    source: { format: 'markdown', text },
  });
  if (check.ok) return { data: check.data, ignoredFields: check.ignoredFields };
  return check.reason === 'json_string' ? new ApiError('body_is_json_string') : validationError(check.problems);
}

export function postEditor(deps: PostEditorDeps): PostEditorArea {
  const { store, posts } = deps;

  const editable = async (id: string): Promise<PostRecord | null> => {
    deps.actor();
    const post = await store.getById(id);
    if (!post || post.deletedAt) return null;
    if (!post.source) await loadMarkdownWriter();
    return post;
  };

  const conflict = (post: PostRecord): EditorSaveOutcome => ({
    kind: 'conflict',
    current: { revision: post.revision, updatedAt: post.updatedAt, by: post.origin?.by ?? null },
    message: `Someone saved this post since you opened it (it is at revision ${post.revision} now). Nothing was saved: your text is still in the form.`,
  });

  return {
    blank() {
      deps.actor();
      return { title: '', excerpt: '', category: BLOG_CATEGORIES[0].slug, tags: '', body: '' };
    },

    async previewNew(fields): Promise<EditorPreview> {
      const actor = deps.actor();
      const problems = fieldProblems(fields);
      if (problems.length > 0) return { ok: false, problems, findings: [] };
      const text = newSource(fields, deps.authorName());
      try {
        const input = createInput(fields, deps.authorName(), text);
        if (input instanceof ApiError) throw input;
        const { cleaned, slug, findings } = await posts.validate(input, actor);
        const at = deps.now().toISOString();
        // The post as it would be stored, for the post page's component: not stored, so no id of its own yet.
        const record: PostRecord = {
          ...cleaned.post,
          id: 'new',
          seq: 0,
          slug,
          createdAt: at,
          updatedAt: at,
          publishedAt: null,
          publishAt: null,
          revision: 1,
          deletedAt: null,
          previousSlugs: [],
          updatedByKeyId: null,
          review: null,
          complianceAccept: cleaned.post.complianceAccept ?? [],
          coverImage: cleaned.post.coverImage ?? null,
          idempotency: null,
          origin: null,
        };
        return { ok: true, post: presentPost(record), findings: placeFindings(findings, text), warnings: cleaned.warnings };
      } catch (error) {
        if (error instanceof ApiError) return { ok: false, problems: problemsOf(error), findings: fileFindings(text) };
        throw error;
      }
    },

    async create(fields): Promise<EditorCreateOutcome> {
      const actor = deps.actor();
      const problems = fieldProblems(fields);
      if (problems.length > 0) return { kind: 'refused', message: 'Nothing was saved: fix what is listed, then save again.', problems, findings: [] };
      const text = newSource(fields, deps.authorName());
      try {
        const input = createInput(fields, deps.authorName(), text);
        if (input instanceof ApiError) throw input;
        const created = await posts.create(input, actor);
        return { kind: 'created', id: created.post.id, revision: created.post.revision };
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        return { kind: 'refused', message: `Not saved: ${error.message}`, problems: problemsOf(error), findings: fileFindings(text) };
      }
    },

    async open(id) {
      const post = await editable(id);
      if (!post) return null;
      const file = sourceFileOf(post);
      const fields: EditorFields = {
        title: post.title,
        excerpt: post.excerpt,
        category: post.categorySlug,
        tags: post.tags.join(', '),
        body: typedText(splitSource(file.text).body),
      };
      const opened: EditorPost = { id: post.id, revision: post.revision, status: post.status, updatedAt: post.updatedAt, fields, fromHtml: file.fromHtml, findings: fileFindings(composeSource(post, fields)) };
      return opened;
    },

    async preview(id, fields): Promise<EditorPreview | null> {
      const post = await editable(id);
      if (!post) return null;
      const problems = fieldProblems(fields);
      if (problems.length > 0) return { ok: false, problems, findings: [] };
      const text = composeSource(post, fields);
      try {
        const version = await posts.previewChange(id, patchOf(post, fields, text), deps.actor());
        return { ok: true, post: presentPost(version.post), findings: placeFindings(version.findings, text), warnings: version.warnings };
      } catch (error) {
        if (error instanceof ApiError) return { ok: false, problems: problemsOf(error), findings: fileFindings(text) };
        throw error;
      }
    },

    async save(id, revision, fields): Promise<EditorSaveOutcome> {
      const post = await editable(id);
      if (!post) return { kind: 'missing', message: 'This post no longer exists (or is in the trash): nothing was saved. Copy your text before leaving this page.' };
      if (post.revision !== revision) return conflict(post);
      const problems = fieldProblems(fields);
      // A post waiting for review is corrected as a reviewer corrects it: it keeps waiting (an update would put it live).
      const held = post.status === 'in_review';
      if (held && (categorySlugFor(fields.category) !== post.categorySlug || tagsOf(fields.tags).join('\n') !== post.tags.join('\n'))) {
        problems.push('This post waits for compliance review: only its title, excerpt and text can be corrected now. Put the category and tags back, and change them after the decision.');
      }
      if (problems.length > 0) return { kind: 'refused', message: 'Nothing was saved: fix what is listed, then save again.', problems, findings: [] };
      const text = composeSource(post, fields);
      const patch = patchOf(post, fields, text);
      try {
        const answer = held
          ? await posts.reviewEdit(id, revision, { title: String(patch.title), excerpt: String(patch.excerpt), content: post.content, source: { format: 'markdown', text, images: post.source?.images ?? {} } }, deps.actor())
          : await posts.update(id, patch, 'merge', parseIfMatch(postEtag(id, revision)), deps.actor());
        return { kind: 'saved', revision: answer.post.revision, status: answer.post.status, message: answer.message, findings: placeFindings(answer.findings, text) };
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        if (error.code === 'precondition_failed') {
          const now = await store.getById(id);
          return now ? conflict(now) : { kind: 'missing', message: 'This post was deleted meanwhile: nothing was saved. Copy your text before leaving this page.' };
        }
        const blocked = error.code === 'compliance_blocked';
        return {
          kind: 'refused',
          message: blocked ? `Not saved: ${error.message} Rewrite the marked lines (each finding says how), then save again.` : `Not saved: ${error.message}`,
          problems: blocked ? [] : problemsOf(error),
          findings: fileFindings(text),
        };
      }
    },
  };
}
