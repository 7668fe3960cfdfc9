import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../authoring/post-markdown';
import { sanitizeContent } from '../../services/sanitize';
import { autop, convertContent, convertShortcodes, embedHtml, fromBlocks } from './convert';

const none = { attachments: new Map(), postId: null };

describe('WordPress content as HTML', () => {
  it('makes paragraphs of classic text (wpautop): a blank line a paragraph, a line break a <br>', () => {
    expect(autop('One\ntwo\n\nThree')).toBe('<p>One<br>\ntwo</p>\n<p>Three</p>');
    expect(autop('<h2>Head</h2>\n\nText')).toBe('<h2>Head</h2>\n<p>Text</p>');
  });

  it('takes the block delimiters away and keeps the blocks\' HTML', () => {
    const html = fromBlocks('<!-- wp:heading {"level":3} -->\n<h3>Title</h3>\n<!-- /wp:heading -->\n<!-- wp:list -->\n<ul><li>a</li></ul>\n<!-- /wp:list -->\n<!-- wp:quote -->\n<blockquote><p>q</p></blockquote>\n<!-- /wp:quote -->');
    expect(html).not.toContain('wp:');
    expect(html).toContain('<h3>Title</h3>');
    expect(html).toContain('<ul><li>a</li></ul>');
    expect(html).toContain('<blockquote><p>q</p></blockquote>');
  });

  it('embeds YouTube and Vimeo as the players the site allows, other URLs as links', () => {
    expect(embedHtml('https://youtu.be/dQw4w9WgXcQ')).toContain('src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"');
    expect(embedHtml('https://vimeo.com/76979871')).toContain('src="https://player.vimeo.com/video/76979871"');
    expect(embedHtml('https://twitter.com/x/status/1')).toBe('<p><a href="https://twitter.com/x/status/1">https://twitter.com/x/status/1</a></p>');
    const block = convertContent('<!-- wp:embed {"url":"https://www.youtube.com/watch?v=dQw4w9WgXcQ"} -->\n<figure><div>https://www.youtube.com/watch?v=dQw4w9WgXcQ</div></figure>\n<!-- /wp:embed -->', none);
    expect(sanitizeContent(block.html).html).toContain('<iframe src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"');
  });

  it('converts [caption], [gallery] and [embed], and leaves an unknown shortcode in the text, reported', () => {
    const attachments = new Map([
      [7, { url: 'https://old.example/wp-content/uploads/a.jpg', alt: 'A', parentId: 3 }],
      [8, { url: 'https://old.example/wp-content/uploads/b.jpg', alt: 'B', parentId: 3 }],
    ]);
    const out = convertShortcodes('[caption id="x" width="300"]<img src="https://old.example/c.jpg" alt="C"> The caption[/caption] [gallery ids="7,8"] [gallery] [embed]https://youtu.be/dQw4w9WgXcQ[/embed] [contact-form-7 id="1"] [[gallery]] [note]kept text[/note]', { attachments, postId: 3 });
    expect(out.html).toContain('<figure><img src="https://old.example/c.jpg" alt="C"><figcaption>The caption</figcaption></figure>');
    expect(out.html.match(/<img src="https:\/\/old\.example\/wp-content\/uploads\/a\.jpg"/g)).toHaveLength(2);
    expect(out.html).toContain('youtube-nocookie.com/embed/dQw4w9WgXcQ');
    expect(out.html).toContain('[contact-form-7 id="1"]');
    // [[gallery]] is WordPress's way to write the shortcode as text.
    expect(out.html).toContain(' [gallery] ');
    expect(out.html).toContain('[note]kept text[/note]');
    expect(out.unconvertible.sort()).toEqual(['contact-form-7', 'note']);
    expect(out.converted.sort()).toEqual(['caption', 'embed', 'gallery', 'gallery']);
  });

  // Text made of words and punctuation, with line breaks: what a classic post is.
  const words = fc.array(fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9'.,!?-]{0,11}$/), { minLength: 1, maxLength: 30 });
  const classic = fc.array(words.map((list) => list.join(' ')), { minLength: 1, maxLength: 6 }).map((paragraphs) => paragraphs.join('\n\n'));

  // Pieces of WordPress content thrown together in any order: half-open shortcodes and blocks, images, markup.
  const wordpressish = fc
    .array(
      fc.oneof(
        fc.constantFrom('[caption id="1"]', '[/caption]', '[gallery ids="1,x"]', '[embed]', '[/embed]', '[[x]]', '[video src="javascript:alert(1)"]', '<img src="https://old.example/wp-content/uploads/2024/05/a.jpg" onerror="x()">', '<!-- wp:embed {"url":"https://youtu.be/dQw4w9WgXcQ"} -->', '<!-- /wp:embed -->', '<!-- wp:paragraph -->', '<script>alert(1)</script>', '<p>', '</p>', '\n\n', '\n', 'https://vimeo.com/1', '<!--more-->', '&amp;', ']]>'),
        fc.string({ maxLength: 20 }),
      ),
      { maxLength: 40 },
    )
    .map((parts) => parts.join(''));

  it('never throws, on any text at all, and what the sanitiser keeps of it is safe (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 400 }), wordpressish), fc.boolean(), (text, blocks) => {
        const content = blocks ? `<!-- wp:paragraph -->${text}<!-- /wp:paragraph -->` : text;
        const converted = convertContent(content, none);
        const clean = sanitizeContent(converted.html).html;
        // The sanitiser escapes every `<` of text, so each `<name` left is a real tag.
        for (const tag of clean.match(/<[a-z][^>]*>/gi) ?? []) {
          expect(tag).not.toMatch(/^<(script|style)|\son\w+=|="\s*javascript:/i);
        }
        // Only the players the pages' CSP allows are embedded.
        for (const match of clean.matchAll(/<iframe src="([^"]*)"/g)) expect(match[1]).toMatch(/^https:\/\/(www\.youtube-nocookie\.com|www\.youtube\.com|player\.vimeo\.com)\//);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps every word of classic and block text, in order, in the HTML and in its Markdown (property)', () => {
    fc.assert(
      fc.property(classic, fc.boolean(), (text, blocks) => {
        const content = blocks
          ? text
              .split('\n\n')
              .map((paragraph) => `<!-- wp:paragraph -->\n<p>${paragraph}</p>\n<!-- /wp:paragraph -->`)
              .join('\n\n')
          : text;
        const clean = sanitizeContent(convertContent(content, none).html).html;
        const shown = clean
          .replace(/<[^>]*>/g, ' ')
          .replace(/&#39;|&apos;/g, "'")
          .replace(/\s+/g, ' ')
          .trim();
        expect(shown).toBe(text.replace(/\s+/g, ' ').trim());
        // And `blogpost get --markdown` gives it back as Markdown with the same words (decision 0022's turndown).
        const markdown = htmlToMarkdown(clean).replace(/\\(.)/g, '$1').replace(/\s+/g, ' ').trim();
        expect(markdown).toBe(text.replace(/\s+/g, ' ').trim());
      }),
      { numRuns: 300 },
    );
  });
});
