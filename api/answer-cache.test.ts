import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_BYTES, MAX_ENTRIES, AnswerCache, brotliWindowBits, compressNow, strongEtag } from './answer-cache';

describe('AnswerCache', () => {
  it('keeps pages until the generation moves (a new post), then serves none of the older ones', () => {
    let revision = 1;
    const cache = new AnswerCache(() => String(revision));
    const page = cache.set('/', { text: '<p>home</p>', headers: [['content-type', 'text/html']] });
    expect(page.etag).toBe(strongEtag('<p>home</p>'));
    expect(cache.get('/')?.body.toString('utf8')).toBe('<p>home</p>');
    revision = 2;
    expect(cache.get('/')).toBeUndefined();
    cache.set('/', { text: '<p>home, with the new post</p>', headers: [] });
    expect(cache.get('/')?.body.toString('utf8')).toBe('<p>home, with the new post</p>');
  });

  it('never serves, after a change, an answer rendered from the state before it (a post changed mid-render)', () => {
    let revision = 1;
    const cache = new AnswerCache(() => String(revision));
    const generation = cache.current();
    // The render reads the posts, then a post changes before the answer is stored.
    revision = 2;
    cache.set('/blog', { text: 'before the change', headers: [] }, generation);
    expect(cache.get('/blog')).toBeUndefined();
    expect(cache.get('/blog', generation)?.body.toString()).toBe('before the change');
    cache.set('/blog', { text: 'after the change', headers: [] }, cache.current());
    expect(cache.get('/blog')?.body.toString()).toBe('after the change');
  });

  it('compresses a page once per coding, with its own validator, to the same text', async () => {
    const { gunzipSync, brotliDecompressSync } = await import('node:zlib');
    const cache = new AnswerCache(() => 'same');
    const html = '<p>compress me</p>'.repeat(200);
    const page = cache.set('/faq', { text: html, headers: [] });
    const gzip = page.compressed('gzip');
    expect(page.compressed('gzip')).toBe(gzip);
    expect(gunzipSync(gzip.body).toString('utf8')).toBe(html);
    expect(brotliDecompressSync(page.compressed('br').body).toString('utf8')).toBe(html);
    expect(new Set([page.etag, gzip.etag, page.compressed('br').etag]).size).toBe(3);
  });

  it('holds at most MAX_ENTRIES pages, dropping the least recently used', () => {
    const cache = new AnswerCache(() => 'same');
    for (let i = 0; i <= MAX_ENTRIES; i += 1) cache.set(`/blog?page=${i}`, { text: `page ${i}`, headers: [] });
    expect(cache.size).toBe(MAX_ENTRIES);
    expect(cache.get('/blog?page=0')).toBeUndefined();
    expect(cache.get(`/blog?page=${MAX_ENTRIES}`)?.body.toString('utf8')).toBe(`page ${MAX_ENTRIES}`);
  });

  it('holds at most MAX_BYTES of answers, so a few large sitemaps cannot take all memory', () => {
    const cache = new AnswerCache(() => 'same');
    const third = 'x'.repeat(Math.floor(MAX_BYTES / 3) + 1);
    for (let i = 1; i <= 3; i += 1) cache.set(`/sitemaps/${i}.xml`, { text: third, headers: [] });
    expect(cache.get('/sitemaps/1.xml')).toBeUndefined();
    expect(cache.get('/sitemaps/3.xml')?.body.length).toBe(third.length);
  });

  it('gives equal bodies equal strong ETags and different bodies different ones', () => {
    expect(strongEtag('é')).toMatch(/^"2-[A-Za-z0-9+/]{27}"$/);
    expect(strongEtag('a')).not.toBe(strongEtag('b'));
    expect(strongEtag('a')).toBe(strongEtag('a'));
    expect(strongEtag(Buffer.from('é', 'utf8'))).toBe(strongEtag('é'));
  });

  it('lets requests for a page being rendered wait for that render and share what it keeps', async () => {
    const cache = new AnswerCache(() => '1');
    expect(cache.rendering('/', '1')).toBeUndefined();
    const finish = cache.startRendering('/', '1');
    const waiting = [cache.rendering('/', '1'), cache.rendering('/', '1')];
    // Another page, or the same page for another state, is not this render.
    expect(cache.rendering('/faq', '1')).toBeUndefined();
    expect(cache.rendering('/', '2')).toBeUndefined();
    const kept = cache.set('/', { text: '<p>home</p>', headers: [] }, '1');
    finish(kept);
    finish(undefined);
    expect(await Promise.all(waiting)).toEqual([kept, kept]);
    expect(cache.rendering('/', '1')).toBeUndefined();
  });

  it('tells the waiting requests when the render kept nothing, and never makes a page for one visitor wait', async () => {
    const cache = new AnswerCache(() => '1');
    const finish = cache.startRendering('/blog', '1');
    const waiting = cache.rendering('/blog', '1');
    finish(undefined);
    expect(await waiting).toBeUndefined();
    cache.answeredPersonally('/get-quote');
    cache.startRendering('/get-quote', '1');
    expect(cache.rendering('/get-quote', '1')).toBeUndefined();
  });
});

describe('AnswerCache, answers kept by what they were made from', () => {
  const page = (text: string) => ({ text, headers: [] as Array<[string, string]> });
  const made = (cache: AnswerCache, ...scopes: string[]) => ({ scopes: new Set(scopes), since: cache.mark() });

  it('drops the answers a change reaches and keeps the others', () => {
    const cache = new AnswerCache(() => '2026');
    cache.setFrom('/blog/a', page('a'), '2026', made(cache, 'post:a'));
    cache.setFrom('/blog/b', page('b'), '2026', made(cache, 'post:b'));
    cache.setFrom('/blog', page('list'), '2026', made(cache, 'list', 'post:a', 'post:b'));
    cache.setFrom('/faq', page('faq'), '2026', made(cache));
    cache.invalidate(['post:a']);
    expect(cache.get('/blog/a')).toBeUndefined();
    expect(cache.get('/blog')).toBeUndefined();
    expect(cache.get('/blog/b')?.body.toString()).toBe('b');
    expect(cache.get('/faq')?.body.toString()).toBe('faq');
    // Not known what changed: nothing is kept.
    cache.invalidate(null);
    expect(cache.size).toBe(0);
  });

  it('does not keep a page a change reached while it rendered, but keeps one the change did not reach', () => {
    const cache = new AnswerCache(() => '2026');
    const post = made(cache, 'post:a');
    const other = made(cache, 'post:b');
    cache.invalidate(['post:a']);
    expect(cache.setFrom('/blog/a', page('a, before the change'), '2026', post).kept).toBe(false);
    expect(cache.get('/blog/a')).toBeUndefined();
    expect(cache.setFrom('/blog/b', page('b'), '2026', other).kept).toBe(true);
    expect(cache.get('/blog/b')?.body.toString()).toBe('b');
  });

  it('does not keep a page whose render began further back than the changes it remembers', () => {
    const cache = new AnswerCache(() => '2026');
    const long = made(cache, 'post:z');
    for (let n = 0; n < 1_001; n += 1) cache.invalidate([`post:${n}`]);
    expect(cache.setFrom('/blog/z', page('z'), '2026', long).kept).toBe(false);
  });

  it('forgets the scopes of a replaced answer: a change to what only the old one showed keeps the new one', () => {
    const cache = new AnswerCache(() => '2026');
    cache.setFrom('/', page('home with a'), '2026', made(cache, 'post:a'));
    cache.setFrom('/', page('home with b'), '2026', made(cache, 'post:b'));
    cache.invalidate(['post:a']);
    expect(cache.get('/')?.body.toString()).toBe('home with b');
  });
});

describe('AnswerCache, a miss compressed quickly and the kept page at the static level (decision 0041)', () => {
  const html = Array.from({ length: 400 }, (_, n) => `<p>Paragraph ${n} of a post about premiums, riders and cash value.</p>`).join('\n');

  it('sends the request that rendered a page a quick compression, and every later one the same text', async () => {
    const { brotliDecompressSync, gunzipSync } = await import('node:zlib');
    const page = new AnswerCache(() => '1').set('/blog/a', { text: html, headers: [] });
    const quick = page.compressed('br');
    expect(quick.body.equals(compressNow(page.body, 'br', 'quick'))).toBe(true);
    expect(quick.etag).toBe(`W/${page.etag.slice(0, -1)}-br"`);
    expect(brotliDecompressSync(quick.body).toString('utf8')).toBe(html);
    // Asked for again before the static level is made: the quick bytes again, the same validator.
    expect(page.compressed('br')).toBe(quick);
    const full = await page.compressedFully('br');
    expect(full.body.equals(compressNow(page.body, 'br', 'static'))).toBe(true);
    expect(full.body.length).toBeLessThan(quick.body.length);
    // The same page: the same (weak) validator, so a browser holding the quick bytes gets a 304.
    expect(full.etag).toBe(quick.etag);
    expect(brotliDecompressSync(full.body).toString('utf8')).toBe(html);
    // From then on the kept page is the static one.
    expect(page.compressed('br')).toBe(full);
    // Each coding on its own: gzip is quick on its first use too.
    expect(page.compressed('gzip').body.equals(compressNow(page.body, 'gzip', 'quick'))).toBe(true);
    expect(page.compressed('gzip').etag).toBe(`W/${page.etag.slice(0, -1)}-gzip"`);
    expect(gunzipSync((await page.compressedFully('gzip')).body).toString('utf8')).toBe(html);
  });

  it('compresses at the static level with a window just large enough, to the same text and no larger than the default window', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 0, maxLength: 3_000 }), fc.integer({ min: 1, max: 40 }), (text, copies) => {
        const body = Buffer.from(text.repeat(copies), 'utf8');
        const bits = brotliWindowBits(body.length);
        // The window holds the whole answer, and one bit less would not (but for brotli's smallest).
        expect(2 ** bits - 16).toBeGreaterThanOrEqual(body.length);
        if (bits > constants.BROTLI_MIN_WINDOW_BITS) expect(2 ** (bits - 1) - 16).toBeLessThan(body.length);
        const fitted = compressNow(body, 'br', 'static');
        expect(brotliDecompressSync(fitted).equals(body)).toBe(true);
        const defaultWindow = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_QUALITY]: 6 } });
        expect(fitted.length).toBeLessThanOrEqual(defaultWindow.length + 8);
      }),
      { numRuns: 60 },
    );
  });
});
