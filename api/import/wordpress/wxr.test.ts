import { describe, expect, it } from 'vitest';
import { readWxrChunks, WxrError, wordpressDate } from './wxr';

const wxr = (items: string, extra = '') =>
  `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>Old</title><link>https://old.example</link><wp:wxr_version>1.2</wp:wxr_version>
<wp:author><wp:author_login><![CDATA[jdoe]]></wp:author_login><wp:author_display_name><![CDATA[Jane Doe]]></wp:author_display_name></wp:author>
<wp:category><wp:category_nicename>news</wp:category_nicename><wp:category_parent>updates</wp:category_parent><wp:cat_name><![CDATA[News & views]]></wp:cat_name></wp:category>
${extra}${items}</channel></rss>`;

/** Feeds the text in small pieces, as a file stream would (a CDATA section or an entity split across chunks). */
function* pieces(text: string, size = 7): Generator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

describe('reading a WordPress export', () => {
  it('reads items with CDATA, entities, terms, post meta and the authors, whatever the chunking', async () => {
    const text = wxr(`<item><title>Fish &amp; chips &#8211; a guide</title><link>https://old.example/2024/05/fish/</link>
<guid isPermaLink="false">https://old.example/?p=12</guid><dc:creator><![CDATA[jdoe]]></dc:creator>
<content:encoded><![CDATA[<p>Some <b>bold</b> text]]]]><![CDATA[> and a ]]&gt; end</p>]]></content:encoded>
<excerpt:encoded><![CDATA[]]></excerpt:encoded><wp:post_id>12</wp:post_id><wp:post_date><![CDATA[2024-05-03 11:10:00]]></wp:post_date>
<wp:post_date_gmt><![CDATA[2024-05-03 09:10:00]]></wp:post_date_gmt><wp:post_name><![CDATA[fish]]></wp:post_name><wp:status><![CDATA[publish]]></wp:status>
<wp:post_type><![CDATA[post]]></wp:post_type><wp:is_sticky>1</wp:is_sticky>
<category domain="category" nicename="news"><![CDATA[News & views]]></category><category domain="post_tag" nicename="fried-food"><![CDATA[Fried food]]></category>
<wp:postmeta><wp:meta_key><![CDATA[_thumbnail_id]]></wp:meta_key><wp:meta_value><![CDATA[40]]></wp:meta_value></wp:postmeta>
<wp:comment><wp:comment_id>3</wp:comment_id><wp:comment_content><![CDATA[Not a post field]]></wp:comment_content><wp:comment_date>2024-05-04 00:00:00</wp:comment_date></wp:comment>
</item>`);
    for (const size of [1, 7, 4096]) {
      const read = await readWxrChunks(pieces(text, size));
      expect(read.version).toBe('1.2');
      expect(read.siteUrl).toBe('https://old.example');
      expect(read.authors).toEqual([{ login: 'jdoe', displayName: 'Jane Doe' }]);
      expect(read.categories).toEqual([{ nicename: 'news', name: 'News & views', parent: 'updates' }]);
      const [item] = read.items;
      expect(item?.title).toBe('Fish & chips &#8211; a guide'.replace('&#8211;', '\u2013'));
      // Inside CDATA an entity is text as written.
      expect(item?.content).toBe('<p>Some <b>bold</b> text]]> and a ]]&gt; end</p>');
      expect(item?.postId).toBe(12);
      expect(item?.guid).toBe('https://old.example/?p=12');
      expect(item?.sticky).toBe(true);
      expect(item?.meta.get('_thumbnail_id')).toBe('40');
      expect(item?.terms).toEqual([
        { domain: 'category', nicename: 'news', name: 'News & views' },
        { domain: 'post_tag', nicename: 'fried-food', name: 'Fried food' },
      ]);
      expect(wordpressDate(item?.dateGmt ?? null)?.toISOString()).toBe('2024-05-03T09:10:00.000Z');
    }
  });

  it('takes an item with only a title: every optional field has its default', async () => {
    const read = await readWxrChunks([wxr('<item><title>Bare</title></item>')]);
    expect(read.items[0]).toMatchObject({ title: 'Bare', postType: 'post', status: 'publish', content: '', excerpt: '', postId: null, dateGmt: null, terms: [], sticky: false });
  });

  it('says what a file is when it is not a WordPress export', async () => {
    await expect(readWxrChunks(['<html><body>hi</body></html>'], 'page.html')).rejects.toThrow(/root element is <html>, not <rss>: it is not a WordPress export/);
    await expect(readWxrChunks(['<rss version="2.0"><channel><title>Feed</title></channel></rss>'], 'feed.xml')).rejects.toThrow(/RSS, but not a WordPress export: it has no <wp:wxr_version>/);
    await expect(readWxrChunks(['{"posts": []}'], 'ghost.json')).rejects.toThrow(WxrError);
    await expect(readWxrChunks([wxr('<item><title>Cut off')], 'cut.xml')).rejects.toThrow(/cut\.xml is not well-formed XML/);
  });

  it('reads no date from WordPress\'s empty one', () => {
    expect(wordpressDate('0000-00-00 00:00:00')).toBeNull();
    expect(wordpressDate('')).toBeNull();
    expect(wordpressDate('yesterday')).toBeNull();
  });
});
