import fc from 'fast-check';
import sanitizeHtml from 'sanitize-html';
import { describe, expect, it } from 'vitest';
import { hasTags, hasVisibleContent, paragraphsFromText, removeControlCharacters, sanitizeContent, stripTags } from './sanitize';

/** HTML as integrators and attackers write it: tags, attributes, entities, comments, stray brackets. */
const htmlFragment = fc.constantFrom(
  '<p>', '</p>', '<div>', '</div>', '<b>', '</b>', '<br>', '<hr/>', '<script>', '</script>', '<style>', '</style>',
  '<img src="https://x.example/a.png">', '<img src="javascript:x">', '<iframe src="https://www.youtube.com/embed/x"></iframe>',
  '<iframe src="https://evil.example/"></iframe>', '<a href="https://x.example" title="a > b">', '</a>', '<!-- c -->',
  '<code class="language-js other">', '</code>', '<pre class="language-">', '</pre>', '<span class="x">', '</span>',
  '<textarea>', '</textarea>', '<p title="<b>">', ' ', '\n', '\t', '&nbsp;', '&#160;', '&#8203;', '&amp;', '&lt;', '&gt;',
  '&lt;p&gt;', '<', '>', '"', 'text', '1 < 2', 'a > b', '<font>', '</font>', '<![CDATA[x]]>', '<?php ?>',
);
const arbitraryHtml = fc.array(htmlFragment, { maxLength: 20 }).map((parts) => parts.join(''));

describe('sanitizeContent', () => {
  it('reports each kind of removal once, with a count', () => {
    const result = sanitizeContent('<p onclick="a()">x</p><p onclick="b()">y</p><script>1</script><!-- note --><font>z</font>');
    expect(result.html).toBe('<p>x</p><p>y</p>z');
    expect(result.warnings).toEqual([
      'Removed HTML comments',
      'Removed event-handler attribute onclick from <p> (2 times)',
      'Removed <script> element and its content',
      'Removed <font> tag (its text was kept)',
    ]);
  });

  it('allows embeds only from known video hosts, over https', () => {
    const ok = sanitizeContent('<iframe src="https://www.youtube.com/embed/x"></iframe>');
    expect(ok.html).toBe('<iframe src="https://www.youtube.com/embed/x"></iframe>');
    const bad = sanitizeContent('<p>a</p><iframe src="https://evil.example/x"></iframe>');
    expect(bad.html).toBe('<p>a</p>');
    expect(bad.warnings[0]).toContain('evil.example');
  });

  it('makes links that open a new tab safe', () => {
    expect(sanitizeContent('<a href="https://x.example" target="_blank">x</a>').html).toBe(
      '<a href="https://x.example" target="_blank" rel="noopener noreferrer">x</a>',
    );
  });

  it('keeps only language-* classes on code and pre', () => {
    expect(sanitizeContent('<pre class="language-ts x"><code class="y language-js">a</code></pre>').html).toBe(
      '<pre class="language-ts"><code class="language-js">a</code></pre>',
    );
  });

  it('filters classes exactly as the `language-*` glob of sanitize-html would', () => {
    const globs = { allowedTags: ['code', 'pre'], allowedAttributes: {}, allowedClasses: { code: ['language-*'], pre: ['language-*'] } };
    const className = fc.stringMatching(/^[a-z-]{0,12}$/).map((name) => (name.length % 2 === 0 ? `language-${name}` : name));
    fc.assert(
      fc.property(fc.array(className, { maxLength: 4 }), fc.constantFrom('code', 'pre'), (classes, tag) => {
        const html = `<${tag} class="${classes.join(' ')}">x</${tag}>`;
        expect(sanitizeContent(html).html).toBe(sanitizeHtml(html, globs));
      }),
    );
  });

  it('drops images that lose their source', () => {
    const result = sanitizeContent('<p>a<img src="javascript:x"></p>');
    expect(result.html).toBe('<p>a</p>');
    expect(result.warnings).toContain('Removed unsafe javascript: URL from <img src>');
  });
});

describe('footnotes', () => {
  const FOOTNOTES =
    '<p>Tax-free<sup><a id="footnote-ref-1" href="#footnote-1" data-footnote-ref aria-describedby="footnote-label">1</a></sup>.</p>\n' +
    '<section class="footnotes" data-footnotes>\n<h2 id="footnote-label" class="visually-hidden">Footnotes</h2>\n<ol>\n' +
    '<li id="footnote-1">\n<p>IRC 7702. <a href="#footnote-ref-1" data-footnote-backref aria-label="Back to reference 1">↩</a></p>\n</li>\n</ol>\n</section>';

  it('keeps the footnote markup an HTML post sends, as it is', () => {
    expect(sanitizeContent(FOOTNOTES)).toEqual({ html: FOOTNOTES, warnings: [] });
    // marked-footnote's own name for the hidden heading becomes the site's.
    expect(sanitizeContent('<h2 id="footnote-label" class="sr-only">Footnotes</h2>').html).toBe('<h2 id="footnote-label" class="visually-hidden">Footnotes</h2>');
  });

  it('keeps ids and footnote attributes only where they are footnotes', () => {
    const result = sanitizeContent(
      '<p id="main"><a id="login" href="#top" aria-label="x" aria-describedby="footnote-label">a</a> <a href="https://evil.example/" data-footnote-ref>1</a></p>' +
        '<li id="footnote-x&quot;y">z</li><section class="layout" data-x="1">s</section><h2 class="hero" id="footnote-label">h</h2>',
    );
    expect(result.html).toBe('<p><a href="#top">a</a> <a href="https://evil.example/">1</a></p><li>z</li><section>s</section><h2 id="footnote-label">h</h2>');
    expect(result.warnings).toEqual([
      'Removed attribute id from <p>',
      'Removed id "login" from <a> (only footnote ids, footnote-..., are kept)',
      'Removed aria-label from <a> (kept on footnote back-links only)',
      'Removed aria-describedby from <a> (kept on footnote references only)',
      'Removed data-footnote-ref from <a> (a footnote link points to #footnote-...)',
      'Removed id "footnote-x"y" from <li> (only footnote ids, footnote-..., are kept)',
      'Removed attribute data-x from <section>',
    ]);
  });
});

describe('plain text helpers', () => {
  it('strip markup from plain-text fields', () => {
    expect(stripTags('<b>Bold</b> title<!-- x -->')).toEqual({ text: 'Bold title', changed: true });
    expect(stripTags('1 < 2 and 3 > 2')).toEqual({ text: '1 < 2 and 3 > 2', changed: false });
  });

  it('wrap tagless text in paragraphs', () => {
    expect(hasTags('no tags, 1 < 2')).toBe(false);
    expect(hasTags('<p>x</p>')).toBe(true);
    expect(paragraphsFromText('one\ntwo\n\nthree')).toBe('<p>one<br>two</p>\n<p>three</p>');
  });

  it('know when nothing visible is left', () => {
    expect(hasVisibleContent(sanitizeContent('<p>&nbsp;</p><script>alert(1)</script><p title="a > b"></p>').html)).toBe(false);
    expect(hasVisibleContent(sanitizeContent('<p>&lt;</p>').html)).toBe(true);
    expect(hasVisibleContent('<p> </p>')).toBe(false);
    expect(hasVisibleContent('<p><img src="https://x.example/a.png" /></p>')).toBe(true);
    expect(hasVisibleContent('<p>x</p>')).toBe(true);
  });
});

describe('hasVisibleContent on sanitised HTML', () => {
  /** What it used to do: parse the HTML again with nothing allowed, and look at the text left. */
  const reparsed = (html: string) => /<(img|iframe)\b/i.test(html) || sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }).trim() !== '';

  it('agrees with a second sanitiser pass for any HTML', () => {
    fc.assert(
      fc.property(arbitraryHtml, (html) => {
        const clean = sanitizeContent(html).html;
        expect(hasVisibleContent(clean)).toBe(reparsed(clean));
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('removeControlCharacters', () => {
  /** XML 1.0's Char production: what a feed may hold. */
  const xmlChar = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;

  it('removes C0 and C1 controls, DEL, U+FFFE, U+FFFF and lone surrogates; keeps tab, line feed, carriage return and pairs', () => {
    expect(removeControlCharacters('a\u0000b\u0008c\u000Bd\u001Fe\u007Ff\u0085g\uFFFEh\uFFFFi')).toEqual({ text: 'abcdefghi', changed: true });
    expect(removeControlCharacters('x\uD800y\uDC00z')).toEqual({ text: 'xyz', changed: true });
    expect(removeControlCharacters('tab\there\nline\r\n😀 é')).toEqual({ text: 'tab\there\nline\r\n😀 é', changed: false });
  });

  it('leaves only characters XML 1.0 allows', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 40 }), (text) => {
        const cleaned = removeControlCharacters(text);
        expect(cleaned.text).toMatch(xmlChar);
        expect(cleaned.changed).toBe(cleaned.text !== text);
      }),
    );
  });
});
