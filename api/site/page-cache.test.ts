import { describe, expect, it } from 'vitest';
import { MAX_ENTRIES, PageCache, strongEtag } from './page-cache';

describe('PageCache', () => {
  it('keeps pages until the generation moves (a new post), then forgets them all', () => {
    let revision = 1;
    const cache = new PageCache(() => String(revision));
    const page = cache.set('/', { html: '<p>home</p>', headers: [['content-type', 'text/html']] });
    expect(page.etag).toBe(strongEtag('<p>home</p>'));
    expect(cache.get('/')?.body.toString('utf8')).toBe('<p>home</p>');
    revision = 2;
    expect(cache.get('/')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('holds at most MAX_ENTRIES pages, dropping the oldest first', () => {
    const cache = new PageCache(() => 'same');
    for (let i = 0; i <= MAX_ENTRIES; i += 1) cache.set(`/blog?page=${i}`, { html: `page ${i}`, headers: [] });
    expect(cache.size).toBe(MAX_ENTRIES);
    expect(cache.get('/blog?page=0')).toBeUndefined();
    expect(cache.get(`/blog?page=${MAX_ENTRIES}`)?.body.toString('utf8')).toBe(`page ${MAX_ENTRIES}`);
  });

  it('gives equal bodies equal strong ETags and different bodies different ones', () => {
    expect(strongEtag('é')).toMatch(/^"2-[A-Za-z0-9+/]{27}"$/);
    expect(strongEtag('a')).not.toBe(strongEtag('b'));
    expect(strongEtag('a')).toBe(strongEtag('a'));
    expect(strongEtag(Buffer.from('é', 'utf8'))).toBe(strongEtag('é'));
  });
});
