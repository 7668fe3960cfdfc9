/**
 * The staff Markdown editor (/admin/posts/:id/edit) over real HTTP against the production build, as a
 * browser without JavaScript uses it: the form opens with the post's Markdown source exactly as stored
 * and the revision in a hidden field; Preview answers the page with the post rendered and the
 * compliance findings at their line of the body, saving nothing; Save makes a new revision through the
 * post service (the source kept exactly as typed, the audit log naming the staff member), a post saved
 * by someone else meanwhile is a 409 page that keeps the typed text, a post held for review stays held
 * with its findings shown, and COMPLIANCE_MODE=block refuses a risky claim keeping everything typed.
 * A visitor without a session is sent to sign in; a form without the CSRF token is refused.
 * A property: any body text round-trips through Preview and Save unchanged (modulo CRLF).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatePostResponse } from '../../contract/blog';
import { sourceBody } from '../../api/authoring/markdown-source';
import { loginTokenOf, type StaffClient, staffClient } from '../support/staff-client';
import { startTestServer, type TestServer } from '../support/server';
import { call, textOf, validPost } from './support';

const EMAIL = 'marked.editor@example.com';
const PASSWORD = 'an editor passphrase that is long 40';
const RISKY = 'This strategy pays guaranteed returns every single year.';

/** A post file as an author writes it: front matter, then the Markdown body. */
function sourceFile(title: string, body: string): string {
  return `---\ntitle: ${title}\nexcerpt: ${EXCERPT}\ncategory: iul-strategies\n# the author's own comment stays\nauthor:\n  name: Jane Author\n  credentials: CLU\n---\n${body}`;
}
const EXCERPT = 'How a policy loan works against the cash value of a policy.';
const BODY = 'Policy loans let an owner borrow against the cash value.\n\n## How interest works\n\nThe insurer charges interest on the loan; the policy keeps earning.\n';

interface Site {
  server: TestServer;
  key: string;
  adminKey: string;
  staff: StaffClient;
}

async function openSite(mode: 'review' | 'block'): Promise<Site> {
  const server = await startTestServer({ api: { writesPerMinute: 0, complianceMode: mode } });
  await server.seedStaff(EMAIL, PASSWORD, 'Marked Editor');
  const key = await server.createKey('Editor author', ['blog:write'], 'Editor author');
  const adminKey = await server.createKey('Editor admin', ['blog:write', 'blog:admin'], 'Editor admin');
  const staff = staffClient(server.url);
  const loginToken = await loginTokenOf(staff);
  expect((await staff.request('/admin/login', { form: { email: EMAIL, password: PASSWORD, loginToken, next: '/admin/posts' } })).status).toBe(303);
  return { server, key, adminKey, staff };
}

async function createPost(site: Site, title: string, extra: Record<string, unknown> = {}, key = site.key): Promise<CreatePostResponse['post']> {
  const res = await call<CreatePostResponse>(site.server, 'POST', '/api/blog', { key, body: validPost({ title, status: 'Draft', ...extra }) });
  expect(res.status, res.text).toBe(201);
  return res.json.post;
}

/** A post sent with its Markdown source, as `blogpost publish` sends it. */
function markdownPost(site: Site, title: string, body = BODY, extra: Record<string, unknown> = {}, key?: string) {
  return createPost(site, title, { excerpt: EXCERPT, source: { format: 'markdown', text: sourceFile(title, body) }, ...extra }, key);
}

/** The HTML's entities read back, as a browser reads a textarea's text. */
function unescapeHtml(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'").replace(/&amp;/g, '&');
}

/** The text a browser shows in the textarea named `name` (the HTML parser drops one newline right after the tag). */
function textareaOf(html: string, name: string): string {
  const match = new RegExp(`<textarea[^>]*name="${name}"[^>]*>([\\s\\S]*?)</textarea>`).exec(html);
  if (!match) throw new Error(`no textarea ${name}`);
  return unescapeHtml((match[1] ?? '').replace(/^\n/, ''));
}

function inputOf(html: string, name: string): string | undefined {
  const tag = new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(html)?.[0] ?? '';
  const value = /value="([^"]*)"/.exec(tag)?.[1];
  return value === undefined ? undefined : unescapeHtml(value);
}

interface EditForm {
  html: string;
  csrf: string;
  revision: string;
  fields: Record<string, string>;
}

async function openEditor(site: Site, id: string): Promise<EditForm> {
  const res = await site.staff.request(`/admin/posts/${id}/edit`);
  const html = await res.text();
  expect(res.status, textOf(html)).toBe(200);
  const category = /<select[^>]*name="category"[\s\S]*?<option[^>]*value="([^"]+)"[^>]*selected/.exec(html)?.[1] ?? '';
  return {
    html,
    csrf: inputOf(html, '_csrf') ?? '',
    revision: inputOf(html, 'revision') ?? '',
    fields: { title: inputOf(html, 'title') ?? '', excerpt: textareaOf(html, 'excerpt'), category, tags: inputOf(html, 'tags') ?? '', body: textareaOf(html, 'body') },
  };
}

/** Sends the form as a browser does: every line break of a textarea as CRLF. */
async function send(site: Site, id: string, form: EditForm, intent: 'preview' | 'save', changes: Record<string, string> = {}) {
  const fields = { ...form.fields, ...changes };
  const sent = Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, value.replace(/\r?\n/g, '\r\n')]));
  const res = await site.staff.request(`/admin/posts/${id}/edit`, { form: { _csrf: form.csrf, revision: form.revision, ...sent, intent } });
  const html = await res.text();
  return { status: res.status, location: res.headers.get('location'), html, text: textOf(html) };
}

async function storedSource(site: Site, id: string): Promise<{ revision: number; text: string | null; status: string }> {
  const res = await call<{ post: { revision: number; status: string; source?: { text: string } | null } }>(site.server, 'GET', `/api/blog/${id}`, { key: site.adminKey });
  expect(res.status, res.text).toBe(200);
  const { post } = res.json;
  return { revision: post.revision, text: post.source?.text ?? null, status: post.status };
}

/** The line of the body where `needle` is (from 1). */
function lineOf(body: string, needle: string): number {
  return body.slice(0, body.indexOf(needle)).split('\n').length;
}

describe('the editor, with COMPLIANCE_MODE=review', () => {
  let site: Site;
  beforeAll(async () => {
    site = await openSite('review');
  });
  afterAll(() => site?.server.close());

  it('sends a visitor without a session to sign in, and refuses their form', async () => {
    const post = await markdownPost(site, 'A Draft Nobody Signed In May Edit');
    const res = await fetch(`${site.server.url}/admin/posts/${post.id}/edit`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/admin/login?next=${encodeURIComponent(`/admin/posts/${post.id}/edit`)}`);
    const anonymous = staffClient(site.server.url);
    const posted = await anonymous.request(`/admin/posts/${post.id}/edit`, { form: { intent: 'save', revision: '1', title: 'Taken over', excerpt: 'x', category: 'iul-strategies', tags: '', body: 'Hello.' } });
    expect(posted.status).toBe(401);
    expect((await storedSource(site, post.id)).revision).toBe(1);
  });

  it('refuses a form without the CSRF token, and saves nothing', async () => {
    const post = await markdownPost(site, 'A Draft a Forged Form Must Not Change');
    const form = await openEditor(site, post.id);
    const res = await site.staff.request(`/admin/posts/${post.id}/edit`, { form: { ...form.fields, revision: form.revision, intent: 'save', body: 'Forged text.' } });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("The form's security token is missing or out of date");
    expect(await storedSource(site, post.id)).toMatchObject({ revision: 1, text: sourceFile('A Draft a Forged Form Must Not Change', BODY) });
  });

  it('opens a post with its Markdown body exactly as stored, and the revision in a hidden field', async () => {
    const post = await markdownPost(site, 'A Draft Opened in the Editor');
    const form = await openEditor(site, post.id);
    expect(form.fields).toEqual({ title: 'A Draft Opened in the Editor', excerpt: 'How a policy loan works against the cash value of a policy.', category: 'iul-strategies', tags: 'iul, retirement', body: BODY });
    expect(form.revision).toBe(String(1));
    expect(form.html).toMatch(/<input type="hidden" name="revision" value="1"\/?>/);
    expect(form.html).not.toContain('data-testid="editor-from-html"');
  });

  it('previews the typed text rendered as the post page renders it, with the finding at its line, and saves nothing', async () => {
    const post = await markdownPost(site, 'A Draft Previewed Before Saving');
    const form = await openEditor(site, post.id);
    const body = `${BODY}\n${RISKY}\n`;
    const answer = await send(site, post.id, form, 'preview', { body });
    expect(answer.status, answer.text).toBe(200);
    // The post page's own markup, rendered from the Markdown by the service: the new paragraph is there.
    expect(answer.html).toMatch(/<h1 id="post-title">A Draft Previewed Before Saving<\/h1>/);
    expect(answer.html).toContain(`<p>${RISKY}</p>`);
    expect(answer.html).toContain('<h2>How interest works</h2>');
    expect(answer.text).toContain('Preview of your text: not saved.');
    // The finding beside the text, at the line the sentence is on, with its severity in words.
    const line = lineOf(body, RISKY);
    expect(line).toBe(7);
    expect(answer.html).toMatch(new RegExp(`data-line="${line}"[\\s\\S]*?Line ${line}, column 20[\\s\\S]*?High[\\s\\S]*?guaranteed-returns`));
    expect(answer.html).toMatch(/<textarea[^>]*name="body"[^>]*aria-describedby="body-hint body-findings"/);
    // The typed text is in the form as typed; nothing was stored.
    expect(textareaOf(answer.html, 'body')).toBe(body);
    expect(await storedSource(site, post.id)).toMatchObject({ revision: 1, text: sourceFile('A Draft Previewed Before Saving', BODY) });
  });

  it('puts a finding in the title beside the title field, named by its aria-describedby', async () => {
    const post = await markdownPost(site, 'A Draft Whose Title Changes');
    const form = await openEditor(site, post.id);
    const answer = await send(site, post.id, form, 'preview', { title: 'Guaranteed returns with an IUL' });
    expect(answer.status, answer.text).toBe(200);
    expect(/<input id="edit-title"[^>]*>/.exec(answer.html)?.[0]).toContain('aria-describedby="title-findings"');
    expect(answer.html).toMatch(/<div id="title-findings"[^>]*><ul[\s\S]*?High[\s\S]*?guaranteed-returns/);
  });

  it('saves an edit as a new revision: the Markdown kept exactly as typed, the audit naming the staff member, "Saved: revision N"', async () => {
    const title = 'A Draft Edited and Saved';
    const post = await markdownPost(site, title);
    const form = await openEditor(site, post.id);
    const body = `${BODY}\nA new paragraph with *emphasis*, a [link](https://example.com/a?b=1&c=2) and <b>HTML</b>.   \n\n\n`;
    const saved = await send(site, post.id, form, 'save', { body, tags: 'loans, cash value', category: 'retirement-planning' });
    expect(saved.status, saved.text).toBe(303);
    expect(saved.location).toBe(`/admin/posts/${post.id}/edit?saved=2`);
    const stored = await storedSource(site, post.id);
    expect(stored.revision).toBe(2);
    expect(sourceBody(stored.text ?? '')).toBe(body);
    // The author's front matter stays, comment included; the form's fields are written into it.
    expect(stored.text).toContain("# the author's own comment stays\nauthor:\n  name: Jane Author");
    expect(stored.text).toContain('category: retirement-planning');
    expect(stored.text).toContain('tags: ["loans","cash value"]');
    const api = await call<{ post: { tags: string[]; category: { slug: string }; content: string } }>(site.server, 'GET', `/api/blog/${post.id}`, { key: site.adminKey });
    expect(api.json.post.tags).toEqual(['loans', 'cash value']);
    expect(api.json.post.category.slug).toBe('retirement-planning');
    expect(api.json.post.content).toContain('<em>emphasis</em>');
    const audit = await site.server.store.audit.list();
    expect(audit.find((entry) => entry.action === 'post.updated' && entry.target === post.id)).toMatchObject({ actor: `staff:${EMAIL}`, detail: { revision: 2 } });
    const after = await site.staff.request(saved.location ?? '');
    const page = await after.text();
    expect(textOf(page)).toContain('Saved: revision 2.');
    expect(textareaOf(page, 'body')).toBe(body);
    expect(inputOf(page, 'revision')).toBe('2');
  });

  it('refuses a save over a post changed since the form was opened (409), keeping the typed text and linking to the newer revision', async () => {
    const post = await markdownPost(site, 'A Draft Two People Edit');
    const form = await openEditor(site, post.id);
    const changed = await call(site.server, 'PATCH', `/api/blog/${post.id}`, { key: site.key, body: { excerpt: 'Someone else changed the excerpt meanwhile.' }, headers: { 'If-Match': '*' } });
    expect(changed.status, changed.text).toBe(200);
    const body = `${BODY}\nMy own paragraph, typed while the other change happened.\n`;
    const answer = await send(site, post.id, form, 'save', { body });
    expect(answer.status).toBe(409);
    expect(answer.text).toContain('Not saved: this post changed since you opened it.');
    expect(answer.text).toContain('Revision 2 was saved');
    expect(answer.html).toMatch(new RegExp(`<a href="/admin/posts/${post.id}/edit" target="_blank" rel="noopener">open revision (<!-- -->)?2(<!-- -->)? in a new tab</a>`));
    expect(textareaOf(answer.html, 'body')).toBe(body);
    expect(inputOf(answer.html, 'revision')).toBe('1');
    // Saving again from the 409 page is refused again: it still stands for revision 1.
    const again = await send(site, post.id, { ...form, revision: inputOf(answer.html, 'revision') ?? '' }, 'save', { body });
    expect(again.status).toBe(409);
    const stored = await storedSource(site, post.id);
    expect(stored.revision).toBe(2);
    expect(stored.text ?? '').not.toContain('My own paragraph');
    const api = await call<{ post: { excerpt: string } }>(site.server, 'GET', `/api/blog/${post.id}`, { key: site.adminKey });
    expect(api.json.post.excerpt).toBe('Someone else changed the excerpt meanwhile.');
  });

  it('keeps a post held for review held when its text is corrected, with the new finding at its line', async () => {
    const title = 'A Post Held for Review Then Corrected';
    const held = await markdownPost(site, title, `${BODY}\nReturns are guaranteed to grow.\n`, { status: 'Published' });
    expect(held.status).toBe('in_review');
    const form = await openEditor(site, held.id);
    expect(form.html).toMatch(/Line 7, column \d+[\s\S]*?guaranteed-returns/);
    const body = `${RISKY}\n\n${BODY}`;
    const saved = await send(site, held.id, form, 'save', { body });
    expect(saved.status, saved.text).toBe(303);
    const stored = await storedSource(site, held.id);
    expect(stored.status).toBe('in_review');
    expect(sourceBody(stored.text ?? '')).toBe(body);
    const audit = await site.server.store.audit.list();
    expect(audit.find((entry) => entry.action === 'review.edited' && entry.target === held.id)).toMatchObject({ actor: `staff:${EMAIL}` });
    const page = await openEditor(site, held.id);
    expect(page.html).toMatch(/data-line="1"[\s\S]*?Line 1, column 20[\s\S]*?guaranteed-returns/);
    expect(textOf(page.html)).toContain('It waits for compliance review');
  });

  it('opens a post sent as HTML with Markdown made from its HTML, says so, and saves that Markdown as its source', async () => {
    const post = await createPost(site, 'A Draft Sent as HTML Only', { content: '<h2>Tax-free growth</h2>\n<p>Cash value grows <strong>tax-deferred</strong>.</p>' });
    const form = await openEditor(site, post.id);
    expect(form.html).toContain('data-testid="editor-from-html"');
    expect(form.fields.body).toContain('## Tax-free growth');
    expect(form.fields.body).toContain('**tax-deferred**');
    const body = `${form.fields.body}\nOne more paragraph.\n`;
    const saved = await send(site, post.id, form, 'save', { body });
    expect(saved.status, saved.text).toBe(303);
    expect(sourceBody((await storedSource(site, post.id)).text ?? '')).toBe(body);
  });

  it('round-trips any body text through Preview and Save unchanged (line breaks as LF)', async () => {
    const post = await markdownPost(site, 'A Draft Typed Into at Random');
    const pieces = fc.constantFrom('word', ' ', '\n', '\r\n', '\n\n', '# ', '## ', '- ', '* ', '`', '```', '<b>', '</b>', '<script>', '&amp;', '&', '"', "'", '>', '[x](https://example.com)', 'é', '😀', '---', '\t', '|', '\\', '1. ');
    await fc.assert(
      fc.asyncProperty(fc.array(pieces, { minLength: 0, maxLength: 40 }).map((parts) => parts.join('')), async (typedBody) => {
        const expected = typedBody.replace(/\r\n?/g, '\n');
        const form = await openEditor(site, post.id);
        const preview = await send(site, post.id, form, 'preview', { body: typedBody });
        expect([200], preview.text).toContain(preview.status);
        expect(textareaOf(preview.html, 'body')).toBe(expected);
        const saved = await send(site, post.id, form, 'save', { body: typedBody });
        if (saved.status === 303) {
          expect(sourceBody((await storedSource(site, post.id)).text ?? '')).toBe(expected);
        } else {
          // Refused (a body with nothing to show): what was typed is still in the form.
          expect(saved.status, saved.text).toBe(422);
          expect(textareaOf(saved.html, 'body')).toBe(expected);
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe('a new post in the editor', () => {
  let site: Site;
  beforeAll(async () => {
    site = await openSite('review');
  });
  afterAll(() => site?.server.close());

  it('previews a new post with its findings, refuses an empty title keeping the text, and saves a draft written by the staff member', async () => {
    const res = await site.staff.request('/admin/posts/new');
    const html = await res.text();
    expect(res.status).toBe(200);
    const csrf = inputOf(html, '_csrf') ?? '';
    const body = `A first paragraph.\n\n${RISKY}\n`;
    const fields = { title: 'A Post Started in the Staff Area', excerpt: 'Started by staff, in Markdown.', category: 'tax-benefits', tags: 'staff, markdown', body };
    const post = (intent: string, changes: Record<string, string> = {}) =>
      site.staff.request('/admin/posts/new', { form: { _csrf: csrf, ...fields, ...changes, body: (changes.body ?? body).replace(/\n/g, '\r\n'), intent } });

    const preview = await post('preview');
    const previewHtml = await preview.text();
    expect(preview.status).toBe(200);
    expect(previewHtml).toMatch(/<h1 id="post-title">A Post Started in the Staff Area<\/h1>/);
    expect(previewHtml).toContain(`<p>${RISKY}</p>`);
    expect(previewHtml).toMatch(/data-line="3"[\s\S]*?Line 3, column 20[\s\S]*?guaranteed-returns/);
    expect((await site.server.store.posts.list({ status: 'any', limit: 100 })).entries).toHaveLength(0);

    const refused = await post('save', { title: '' });
    const refusedHtml = await refused.text();
    expect(refused.status).toBe(422);
    expect(textOf(refusedHtml)).toContain('Write a title');
    expect(textareaOf(refusedHtml, 'body')).toBe(body);

    const saved = await post('save');
    expect(saved.status, textOf(await saved.text())).toBe(303);
    const location = saved.headers.get('location') ?? '';
    const id = /^\/admin\/posts\/([^/]+)\/edit\?saved=1$/.exec(location)?.[1] ?? '';
    expect(id).not.toBe('');
    const stored = await site.server.store.posts.getById(id);
    expect(stored).toMatchObject({ status: 'draft', title: fields.title, categorySlug: 'tax-benefits', tags: ['staff', 'markdown'], author: { name: 'Marked Editor' } });
    expect(sourceBody(stored?.source?.text ?? '')).toBe(body);
    const audit = await site.server.store.audit.list();
    expect(audit.find((entry) => entry.action === 'post.created' && entry.target === id)).toMatchObject({ actor: `staff:${EMAIL}` });
    const page = await (await site.staff.request(location)).text();
    expect(textareaOf(page, 'body')).toBe(body);
    expect(textOf(page)).toContain('Saved: revision 1.');
  });
});

describe('the editor, with COMPLIANCE_MODE=block', () => {
  let site: Site;
  beforeAll(async () => {
    site = await openSite('block');
  });
  afterAll(() => site?.server.close());

  it('refuses to save a risky claim into a published post (422): the findings shown at their line, everything typed kept', async () => {
    const post = await markdownPost(site, 'A Published Post Kept Clean', BODY, { status: 'Published' }, site.adminKey);
    expect(post.status).toBe('published');
    const form = await openEditor(site, post.id);
    const body = `${BODY}\n${RISKY}\n`;
    const answer = await send(site, post.id, form, 'save', { body, title: 'A Published Post, Edited' });
    expect(answer.status).toBe(422);
    expect(answer.text).toContain('Not saved:');
    expect(answer.text).toContain('guaranteed-returns');
    expect(answer.html).toMatch(/data-line="7"[\s\S]*?Line 7, column 20[\s\S]*?High/);
    expect(textareaOf(answer.html, 'body')).toBe(body);
    expect(inputOf(answer.html, 'title')).toBe('A Published Post, Edited');
    expect((await storedSource(site, post.id)).revision).toBe(1);
  });
});
