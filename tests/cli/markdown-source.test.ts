/**
 * The author's Markdown comes back exactly (decision 0022), through the CLI's own entry against a real
 * server and store: a post with hard-wrapped paragraphs, a table with `:---:` and `---:` columns, a
 * fenced code block, a footnote, a blockquote, negative percentages and two local images is published,
 * pulled with `get --markdown` into a new file that is the author's file byte for byte (its id,
 * revision and status aside), and publishing that file again says "No changes" and makes no revision.
 * A post written as HTML converts to Markdown the same way every time; generated Markdown documents
 * round-trip byte for byte through the server and the store.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postSourceFile, sourceKey } from '../../api/operations';
import { call } from '../api/support';
import { AUTHOR_FILE, withoutBookkeeping, writeAuthorImages } from '../support/author-post';
import { blogpost as runBlogpost, type CliRun } from '../support/cli';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let key: string;
let tmp: string;

beforeAll(async () => {
  server = await startTestServer({ api: { writesPerMinute: 0 } });
  key = await server.createKey('Evelyn laptop', ['blog:write'], 'Evelyn Hartwell');
  tmp = mkdtempSync(path.join(os.tmpdir(), 'blogpost-source-'));
  await writeAuthorImages(tmp);
});
afterAll(async () => {
  await server.close();
  rmSync(tmp, { recursive: true, force: true });
});

function blogpost(args: string[]): Promise<CliRun> {
  return runBlogpost(args, { cwd: tmp, env: { BLOGPOST_URL: server.url, BLOGPOST_API_KEY: key, BLOGPOST_STATE_FILE: path.join(tmp, 'state.json') } });
}

function frontMatterValue(text: string, name: string): string | undefined {
  return new RegExp(`^${name}: (.+)$`, 'm').exec(text)?.[1];
}

async function revisionsOf(id: string): Promise<number> {
  return (await server.store.posts.revisions(id)).length;
}

describe('a post written in Markdown comes back as its author wrote it', () => {
  const original = () => path.join(tmp, 'loans.md');
  let id = '';

  beforeAll(async () => {
    writeFileSync(original(), AUTHOR_FILE);
    const run = await blogpost(['publish', 'loans.md']);
    expect(run.code, run.stderr).toBe(0);
    id = frontMatterValue(readFileSync(original(), 'utf8'), 'id') ?? '';
    expect(id).not.toBe('');
  });

  it('renders the table with its alignment, the pictures as uploads, and no sanitiser warning', async () => {
    const answer = await call(server, 'GET', `/api/blog/${id}`, { key });
    const post = (answer.json as { post: { content: string } }).post;
    expect(post.content).toContain('<th align="center">Index return</th>');
    expect(post.content).toContain('<td align="right">0.0%</td>');
    expect(post.content).toMatch(/<img src="\/media\/[0-9a-f]{32}-\d+\.\w+"[^>]*alt="Cash value over twenty years, hypothetical"/);
    expect(post.content).toContain('-8.1%');
    const stored = await server.store.posts.getById(id);
    expect(stored?.warnings.filter((warning) => /align/.test(warning))).toEqual([]);
    // The file, front matter and all, only to a request with a key (the acceptances' reasons go only there too).
    expect((answer.json as { post: { source?: { text: string } } }).post.source?.text).toBe(AUTHOR_FILE);
    const anonymous = await call(server, 'GET', `/api/blog/${id}`);
    expect(anonymous.status).toBe(200);
    expect((anonymous.json as { post: Record<string, unknown> }).post).not.toHaveProperty('source');
  });

  it('get --markdown writes the author\'s file byte for byte, id, revision and status aside', async () => {
    const run = await blogpost(['get', id, '--markdown', '--output', 'pulled.md']);
    expect(run.code, run.stderr).toBe(0);
    const pulled = readFileSync(path.join(tmp, 'pulled.md'), 'utf8');
    expect(withoutBookkeeping(pulled)).toBe(withoutBookkeeping(AUTHOR_FILE));
    expect(pulled).toContain('![Cash value over twenty years, hypothetical](img/cash-value.png)');
    expect(pulled).toContain('|:-----|:------------:|---------:|----------:|');
    expect(pulled).not.toContain('\\-8.1%');
    expect(frontMatterValue(pulled, 'id')).toBe(id);
    expect(frontMatterValue(pulled, 'revision')).toBe('1');
    // The author's file after the publish and the pulled one are the same bytes.
    expect(pulled).toBe(readFileSync(original(), 'utf8'));
  });

  it('publishing the pulled file unchanged says "No changes" and makes no revision', async () => {
    const before = await revisionsOf(id);
    const run = await blogpost(['publish', 'pulled.md']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('No changes');
    expect(await revisionsOf(id)).toBe(before);
    expect((await server.store.posts.getById(id))?.revision).toBe(1);
  });

  it('an edit that only re-wraps a paragraph is a new revision of the source, and comes back as written', async () => {
    const file = path.join(tmp, 'pulled.md');
    const text = readFileSync(file, 'utf8');
    const rewrapped = text.replace('A policy loan borrows from the insurer with your cash value as the\ncollateral.', 'A policy loan borrows from the insurer\nwith your cash value as the collateral.');
    expect(rewrapped).not.toBe(text);
    writeFileSync(file, rewrapped);
    const run = await blogpost(['publish', 'pulled.md']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('content: changed');
    const again = await blogpost(['get', id, '--markdown', '--output', 'pulled-again.md']);
    expect(again.code, again.stderr).toBe(0);
    expect(readFileSync(path.join(tmp, 'pulled-again.md'), 'utf8')).toBe(readFileSync(file, 'utf8'));
  });

  it('a change made as HTML makes the HTML the text: get --markdown converts it then', async () => {
    const current = await call(server, 'GET', `/api/blog/${id}`, { key });
    const etag = current.headers.get('etag') ?? '';
    const patched = await call(server, 'PATCH', `/api/blog/${id}`, { key, headers: { 'If-Match': etag }, body: { content: '<p>Rewritten in the staff area.</p>' } });
    expect(patched.status).toBe(200);
    const answer = await call(server, 'GET', `/api/blog/${id}`, { key });
    expect((answer.json as { post: { source?: unknown } }).post.source).toBeUndefined();
    const run = await blogpost(['get', id, '--markdown']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Rewritten in the staff area.');
  });
});

describe('source: null in a PATCH', () => {
  it('drops the source and keeps the post as it reads', async () => {
    writeFileSync(path.join(tmp, 'drop.md'), '---\ntitle: Dropped Source\ncategory: IUL Strategies\nexcerpt: "x y z"\nauthor:\n  name: Evelyn Hartwell\nstatus: draft\n---\n\nA paragraph\nwrapped.\n');
    const run = await blogpost(['publish', 'drop.md']);
    expect(run.code, run.stderr).toBe(0);
    const id = frontMatterValue(readFileSync(path.join(tmp, 'drop.md'), 'utf8'), 'id') ?? '';
    const before = await call(server, 'GET', `/api/blog/${id}`, { key });
    expect((before.json as { post: { source?: unknown } }).post.source).toBeDefined();
    const patched = await call(server, 'PATCH', `/api/blog/${id}`, { key, headers: { 'If-Match': before.headers.get('etag') ?? '' }, body: { source: null } });
    expect(patched.status, patched.text).toBe(200);
    expect((patched.json as { changed: Array<{ field: string }> }).changed.map((change) => change.field)).toEqual(['source']);
    const after = await call(server, 'GET', `/api/blog/${id}`, { key });
    expect((after.json as { post: { source?: unknown; content: string } }).post).not.toHaveProperty('source');
    expect((after.json as { post: { content: string } }).post.content).toBe((before.json as { post: { content: string } }).post.content);
  });
});

describe('a post written as HTML', () => {
  it('converts to the same Markdown every time, and after publishing that file it comes back as it is', async () => {
    const created = await call(server, 'POST', '/api/blog', {
      key,
      body: {
        title: 'Caps and Floors in One Table',
        excerpt: 'The cap and the floor side by side.',
        category: 'IUL Strategies',
        status: 'published',
        author: { name: 'Evelyn Hartwell' },
        content: '<p>A cap of 10% and a floor of 0%, *as written*.</p>\n<table><thead><tr><th align="left">Year</th><th align="right">Credit</th></tr></thead><tbody><tr><td align="left">1</td><td align="right">-0.0%</td></tr></tbody></table>',
      },
    });
    expect(created.status).toBe(201);
    const id = (created.json as { post: { id: string } }).post.id;
    const first = await blogpost(['get', id, '--markdown', '--output', 'html-1.md']);
    const second = await blogpost(['get', id, '--markdown', '--output', 'html-2.md']);
    expect(first.code, first.stderr).toBe(0);
    expect(second.code, second.stderr).toBe(0);
    const converted = readFileSync(path.join(tmp, 'html-1.md'), 'utf8');
    expect(readFileSync(path.join(tmp, 'html-2.md'), 'utf8')).toBe(converted);
    expect(converted).toContain('| :--- | ---: |');
    const published = await blogpost(['publish', 'html-1.md']);
    expect(published.code, published.stderr).toBe(0);
    const third = await blogpost(['get', id, '--markdown', '--output', 'html-3.md']);
    expect(third.code, third.stderr).toBe(0);
    expect(readFileSync(path.join(tmp, 'html-3.md'), 'utf8')).toBe(readFileSync(path.join(tmp, 'html-1.md'), 'utf8'));
  });
});

// --- generated documents -----------------------------------------------------------------------

const word = fc.constantFrom('cash', 'value', 'loan', 'cap', 'floor', 'index', 'credit', 'policy', 'premium', 'term', '-8.1%', '12.4%', '$1,200', 'a_b', '2*3', '[note]', 'x|y', '<tag>', '&amp;', '~');
const line = fc.array(word, { minLength: 1, maxLength: 9 }).map((words) => words.join(' '));
const paragraph = fc.array(line, { minLength: 1, maxLength: 4 }).map((lines) => lines.join('\n'));
const heading = fc.tuple(fc.integer({ min: 2, max: 4 }), line).map(([level, text]) => `${'#'.repeat(level)} ${text}`);
const quote = fc.array(line, { minLength: 1, maxLength: 3 }).map((lines) => lines.map((text) => `> ${text}`).join('\n'));
const list = fc.tuple(fc.constantFrom('-', '*', '1.'), fc.array(line, { minLength: 1, maxLength: 4 })).map(([marker, items]) => items.map((text) => `${marker} ${text}`).join('\n'));
const code = fc.array(fc.string({ unit: fc.constantFrom('a', ' ', '-', '%', '|', '*', '<', '>', '#'), maxLength: 30 }), { minLength: 1, maxLength: 3 }).map((lines) => `\`\`\`\n${lines.join('\n')}\n\`\`\``);
const alignment = fc.constantFrom(':---', ':---:', '---:', '---');
const table = fc.tuple(fc.array(alignment, { minLength: 1, maxLength: 4 }), fc.array(word, { minLength: 1, maxLength: 4 })).map(([aligns, cells]) => {
  const columns = aligns.length;
  const row = (n: number) => `| ${Array.from({ length: columns }, (_, index) => (cells[(index + n) % cells.length] ?? 'x').replace(/\|/g, '\\|')).join(' | ')} |`;
  return [row(0), `|${aligns.join('|')}|`, row(1), row(2)].join('\n');
});
const block = fc.oneof(paragraph, paragraph, heading, quote, list, code, table);
// The first paragraph starts with words, so every post has something to show.
const document = fc.tuple(paragraph, fc.array(block, { minLength: 0, maxLength: 6 }), fc.constantFrom('\n', '\n\n', '')).map(([first, rest, end]) => `${[`Policy loans ${first}`, ...rest].join('\n\n')}${end}`);

describe('generated Markdown documents', () => {
  it('round-trip byte for byte through the server and the store', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(document, async (body) => {
        n += 1;
        const text = `---\ntitle: "Generated post ${n}"\ncategory: IUL Strategies\nexcerpt: "A generated post."\nauthor:\n  name: Evelyn Hartwell\nstatus: draft\n---\n\n${body}`;
        const created = await call(server, 'POST', '/api/blog', {
          key,
          body: { title: `Generated post ${n}`, excerpt: 'A generated post.', category: 'IUL Strategies', status: 'draft', author: { name: 'Evelyn Hartwell' }, content: '<p>replaced by the source</p>', source: { format: 'markdown', text } },
        });
        expect(created.status, created.text).toBe(201);
        const id = (created.json as { post: { id: string } }).post.id;
        const answer = await call(server, 'GET', `/api/blog/${id}`, { key });
        const post = (answer.json as { post: Parameters<typeof postSourceFile>[0] & { content: string } }).post;
        expect(post.content).not.toContain('replaced by the source');
        const pulled = postSourceFile(post);
        expect(sourceKey(pulled)).toBe(sourceKey(text));
        expect(withoutBookkeeping(pulled)).toBe(withoutBookkeeping(text));
      }),
      { numRuns: 40 },
    );
  });
});
