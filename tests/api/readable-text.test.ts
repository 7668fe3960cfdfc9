/**
 * Text that would break readers of the site's feeds, over real HTTP: control characters (and DEL,
 * U+FFFE/U+FFFF, lone surrogates) are removed from every text field of a post with a warning, and
 * whatever post is accepted, /rss.xml, /sitemap.xml and the sitemap file stay well-formed XML with the
 * post's title intact (checked with saxes, a conformant XML parser the server does not use).
 */
import fc from 'fast-check';
import { SaxesParser } from 'saxes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatePostResponse, ValidatePostResponse } from '../../contract/blog';
import type { GetPostResponse } from '../../contract/blog-reader';
import { startTestServer, type TestServer } from '../support/server';
import { call, validPost } from './support';

let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer({ api: { writesPerMinute: 0 } });
  key = await server.createKey('feeds');
});
afterAll(async () => {
  await server.close();
});

interface RssItem {
  title: string;
  link: string;
}

/**
 * Parses `xml` with saxes, a conformant XML 1.0 parser (it refuses the characters XML forbids, which
 * some validators let through), and returns each `item` element's child texts; throws at the first error.
 */
function parseXml(xml: string): Record<string, string>[] {
  const parser = new SaxesParser();
  const items: Record<string, string>[] = [];
  const open: { name: string; text: string }[] = [];
  let item: Record<string, string> = {};
  let error: Error | undefined;
  parser.on('error', (failure) => {
    error ??= failure;
  });
  parser.on('opentag', (tag) => open.push({ name: tag.name, text: '' }));
  parser.on('text', (text) => {
    const current = open.at(-1);
    if (current) current.text += text;
  });
  parser.on('closetag', () => {
    const element = open.pop();
    if (element?.name === 'item') {
      items.push(item);
      item = {};
    } else if (element && open.at(-1)?.name === 'item') item[element.name] = element.text;
  });
  parser.write(xml).close();
  if (error) throw error;
  return items;
}

/** /rss.xml, checked to be well-formed, as its items. */
async function rssItems(): Promise<RssItem[]> {
  const res = await call(server, 'GET', '/rss.xml');
  expect(res.status).toBe(200);
  return parseXml(res.text).map((item) => ({ title: item.title ?? '', link: item.link ?? '' }));
}

async function expectWellFormed(path: string): Promise<void> {
  const res = await call(server, 'GET', path);
  expect(res.status, path).toBe(200);
  expect(() => parseXml(res.text), path).not.toThrow();
}

const CONTROLS = '\u0000\u0001\u0008\u000B\u000C\u001B\u001F\u007F\u0085\uFFFE';

describe('control characters', () => {
  it('are removed from every text field of a post, each field named in a warning', async () => {
    const body = validPost({
      title: `Tax${CONTROLS}-Free & "Safe" < Retirement ]]> Income`,
      excerpt: `An excerpt\u0007 with a bell`,
      content: `<p>Body\u0000 text\uD800 with a lone surrogate</p>`,
      category: `Tax Benefits\u0002`,
      tags: ['iul\u0003', 'retire\u0004ment'],
      status: 'published',
      author: { name: 'Jane\u0005 Author', bio: 'Agent\u0006 since 1998', credentials: 'CLU\u000E' },
      trust: {
        factCheckedBy: { name: 'Sam\u000F Checker', credentials: 'CFP\u0010', link: 'https://example.com/sam\u0011' },
        sources: [{ name: 'IRS\u0012 Publication 525', url: 'https://www.irs.gov/publications/p525' }],
        lastUpdated: '2025-01-31',
      },
    });
    const res = await call<CreatePostResponse>(server, 'POST', '/api/blog', { key, body });
    expect(res.status).toBe(201);
    const fields = ['title', 'excerpt', 'content', 'category', 'tags', 'author.name', 'author.bio', 'author.credentials', 'trust.factCheckedBy.name', 'trust.factCheckedBy.credentials', 'trust.factCheckedBy.link', 'trust.sources'];
    for (const field of fields) expect(res.json.warnings).toContain(`Removed control characters from ${field} (they are invisible and break feeds)`);

    const { post } = (await call<GetPostResponse>(server, 'GET', `/api/blog/${res.json.post.slug}`)).json;
    expect(post.title).toBe('Tax-Free & "Safe" < Retirement ]]> Income');
    expect(post.excerpt).toBe('An excerpt with a bell');
    expect(post.content).toBe('<p>Body text with a lone surrogate</p>');
    expect(post.category.slug).toBe('tax-benefits');
    expect(post.tags).toEqual(['iul', 'retirement']);
    expect(post.author).toEqual({ name: 'Jane Author', bio: 'Agent since 1998', credentials: 'CLU' });
    expect(post.trust?.factCheckedBy).toEqual({ name: 'Sam Checker', credentials: 'CFP', link: 'https://example.com/sam' });
    expect(post.trust?.sources[0]?.name).toBe('IRS Publication 525');

    const item = (await rssItems()).find((entry) => entry.link.endsWith(`/blog/${post.slug}`));
    expect(item?.title).toBe('Tax-Free & "Safe" < Retirement ]]> Income');
  });

  it('are reported by validate too, and a title left too short is refused', async () => {
    const checked = await call<ValidatePostResponse>(server, 'POST', '/api/blog/validate', { body: validPost({ title: 'Fine\u0000 title' }) });
    expect(checked.status).toBe(200);
    expect(checked.json.post.title).toBe('Fine title');
    expect(checked.json.warnings).toContain('Removed control characters from title (they are invisible and break feeds)');

    const short = await call(server, 'POST', '/api/blog', { key, body: validPost({ title: 'ab\u0000\u0001' }) });
    expect(short.status).toBe(400);
    expect(short.json).toMatchObject({ code: 'validation_failed', errors: [{ field: 'title', problem: 'invalid' }] });
  });
});

/** Text made of the pieces that break XML writers and readers, and ordinary characters of any script. */
const piece = fc.oneof(
  fc.constantFrom('&', '<', '>', ']]>', '"', "'", '&amp;', '<![CDATA[', '\u0000', '\u0001', '\u001F', '\u007F', '\u0085', '\uD800', '\uDFFF', '\uFFFE', '\uFFFF', '\t', '\r\n', '😀'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 4 }),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }),
);
const text = (max: number) => fc.array(piece, { minLength: 1, maxLength: 12 }).map((parts) => parts.join('').slice(0, max));

describe('any accepted post', () => {
  it('keeps /rss.xml, /sitemap.xml and the sitemap file well-formed, its title intact', async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(text(120), text(200), text(60), fc.array(text(30), { maxLength: 3 }), async (title, excerpt, author, tags) => {
        const res = await call<CreatePostResponse>(server, 'POST', '/api/blog', {
          key,
          body: validPost({ title, excerpt, tags, content: `<p>${excerpt}</p>`, author: { name: author }, status: 'published' }),
        });
        if (res.status !== 201) {
          expect(res.status).toBe(400);
          return;
        }
        accepted += 1;
        const { post } = (await call<GetPostResponse>(server, 'GET', `/api/blog/${res.json.post.slug}`)).json;
        const item = (await rssItems()).find((entry) => entry.link.endsWith(`/blog/${post.slug}`));
        // XML readers see every line break as a line feed (XML 1.0, section 2.11): the only change allowed.
        expect(item?.title).toBe(post.title.replace(/\r\n?/g, '\n'));
        await expectWellFormed('/sitemap.xml');
        await expectWellFormed('/sitemaps/1.xml');
      }),
      { numRuns: 60 },
    );
    expect(accepted).toBeGreaterThan(30);
  }, 120_000);
});
