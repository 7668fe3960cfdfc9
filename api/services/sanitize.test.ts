import fc from 'fast-check';
import sanitizeHtml from 'sanitize-html';
import { describe, expect, it } from 'vitest';
import { EMBEDDABLE_VIDEO_HOSTS } from '../../contract/media';
import { hasTags, hasVisibleContent, mediaSource, paragraphsFromText, removeControlCharacters, sanitizeContent, stripTags } from './sanitize';

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

  it("keeps a table cell's alignment when it is left, center or right, and says when it removes another", () => {
    const table = '<table><thead><tr><th align="left">Year</th><th align="center">Index</th><th align="right">Credit</th></tr></thead><tbody><tr><td align="left">1</td><td align="center">-8.1%</td><td align="right">0.0%</td></tr></tbody></table>';
    expect(sanitizeContent(table)).toEqual({ html: table, warnings: [] });
    const odd = sanitizeContent('<table><tbody><tr><td align="justify">a</td><td align="char">b</td><td align="RIGHT">c</td></tr></tbody></table>');
    expect(odd.html).toBe('<table><tbody><tr><td>a</td><td>b</td><td>c</td></tr></tbody></table>');
    expect(odd.warnings).toEqual(['Removed attribute align from table cells: only left, center or right is kept (3 times)']);
  });

  it('removes every element that runs or hides content together with its content, naming each', () => {
    for (const tag of ['script', 'style', 'textarea', 'option', 'noscript', 'template', 'title', 'xmp', 'noembed', 'noframes']) {
      expect(sanitizeContent(`<p>a</p><${tag}>alert(1)</${tag}><p>b</p>`), tag).toEqual({
        html: '<p>a</p><p>b</p>',
        warnings: [`Removed <${tag}> element and its content`],
      });
    }
  });

  it('removes event handlers in any case, and names other unknown attributes as such', () => {
    expect(sanitizeContent('<p ONCLICK="a()" onMouseOver="b()" data-option="x" style="color:red">x</p>')).toEqual({
      html: '<p>x</p>',
      warnings: [
        'Removed event-handler attribute onclick from <p>',
        'Removed event-handler attribute onmouseover from <p>',
        'Removed attribute data-option from <p>',
        'Removed style attribute from <p> (inline styles are not allowed)',
      ],
    });
  });

  it('keeps every tag and attribute the allowlist names, as sent and without a warning', () => {
    const ID = '0123456789abcdef0123456789abcdef';
    const plain = ['h1', 'h3', 'h4', 'h5', 'h6', 'p', 'ul', 'dl', 'dt', 'dd', 'figure', 'figcaption', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'caption'];
    const inline = ['strong', 'b', 'em', 'i', 'u', 's', 'del', 'ins', 'sub', 'sup', 'mark', 'small', 'cite', 'kbd', 'span', 'div'];
    const html = [
      ...[...plain, ...inline].map((tag) => `<${tag}>x</${tag}>`),
      '<br /><hr />',
      '<h2 id="footnote-label" class="visually-hidden">x</h2>',
      '<blockquote cite="https://x.example/">x</blockquote><q cite="https://x.example/">x</q>',
      '<pre class="language-ts"><code class="language-ts">x</code></pre>',
      '<ol start="3" reversed type="a"><li id="footnote-1">x</li></ol>',
      '<a href="https://x.example/" title="t" target="_blank" rel="noopener noreferrer">x</a><a href="mailto:a@x.example">m</a><a href="tel:+15550100">t</a><a href="http://x.example/">h</a>',
      '<a id="footnote-ref-1" href="#footnote-1" data-footnote-ref aria-describedby="footnote-label">1</a><a href="#footnote-ref-1" data-footnote-backref aria-label="Back">b</a>',
      `<img src="/media/${ID}-960.jpg" alt="a" title="t" width="960" height="640" loading="lazy" decoding="async" srcset="/media/${ID}-480.webp 480w" sizes="100vw" />`,
      '<iframe src="https://www.youtube.com/embed/x" title="v" width="560" height="315" allow="autoplay" allowfullscreen loading="lazy"></iframe>',
      '<table><colgroup span="2"><col span="1"></col></colgroup><tr><th colspan="2" rowspan="1" scope="col">x</th><td colspan="2" rowspan="1">y</td></tr></table>',
      '<abbr title="t">x</abbr><time datetime="2026-01-01">x</time>',
      '<section class="footnotes" data-footnotes>x</section>',
    ].join('');
    expect(sanitizeContent(html)).toEqual({ html, warnings: [] });
  });

  it('removes script and other unsafe URLs, however spelt, and protocol-relative ones, naming each', () => {
    expect(
      sanitizeContent(
        '  <a href="javascript:alert(1)">a</a><a href="java\tscript:alert(1)">t</a><a href="  //evil.example/x">b</a>' +
          '<a href="/search?q=a:b">d</a><blockquote cite="vbscript:x">q</blockquote><abbr title="javascript: a language">JS</abbr>\n',
      ),
    ).toEqual({
      html: '<a>a</a><a>t</a><a>b</a><a href="/search?q=a:b">d</a><blockquote>q</blockquote><abbr title="javascript: a language">JS</abbr>',
      warnings: [
        'Removed unsafe javascript: URL from <a href> (2 times)',
        'Removed protocol-relative URL from <a href>',
        'Removed unsafe vbscript: URL from <blockquote cite>',
      ],
    });
    // A path with a double slash later on is no protocol-relative URL.
    expect(sanitizeContent('<a href="/a//b">c</a>')).toEqual({ html: '<a href="/a//b">c</a>', warnings: [] });
  });

  it('removes embeds over http, without a host or without a source, and images without a source, naming each', () => {
    expect(
      sanitizeContent('<iframe src="http://www.youtube.com/embed/x"></iframe><iframe src="/embed/x"></iframe><iframe src="not a url"></iframe><iframe title="t"></iframe><img alt="x"><img src="">'),
    ).toEqual({
      html: '',
      warnings: [
        'Removed unsafe http: URL from <iframe src>',
        `Removed <iframe> from a host that is not allowed (no host): embed videos from ${EMBEDDABLE_VIDEO_HOSTS.join(', ')} (2 times)`,
        'Removed <iframe> without a source',
        'Removed <img> without a source (2 times)',
      ],
    });
  });

  it('drops an image or embed whose source is blank, saying it has no source (nothing else)', () => {
    expect(sanitizeContent('<p>Before</p><img src=" " alt="x"><iframe src="  "></iframe><img src="\n">')).toEqual({
      html: '<p>Before</p>',
      warnings: ['Removed <img> without a source (2 times)', 'Removed <iframe> without a source'],
    });
  });

  it('keeps language classes only when they start the class name, and a heading without a class as it is', () => {
    expect(sanitizeContent('<pre class="no-language-x"><code class="no-language-y">x</code></pre><h2>h</h2>')).toEqual({ html: '<pre><code>x</code></pre><h2>h</h2>', warnings: [] });
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

describe('images', () => {
  const ID = '0123456789abcdef0123456789abcdef';
  const SITE = 'https://blog.example.com';
  const UPLOAD_HINT = 'upload it with POST /api/media (blogpost publish does this for local files)';

  it('keeps uploads of this site, as a media id, a /media/ path or this site\'s URL (kept as the path)', () => {
    expect(sanitizeContent(`<img src="${ID}" alt="a" />`, { siteUrl: SITE })).toEqual({ html: `<img src="${ID}" alt="a" />`, warnings: [] });
    expect(sanitizeContent(`<img src="/media/${ID}-960.webp" alt="a" />`).html).toBe(`<img src="/media/${ID}-960.webp" alt="a" />`);
    expect(sanitizeContent(`<img src="${SITE}/media/${ID}-960.jpg" alt="a">`, { siteUrl: SITE })).toEqual({ html: `<img src="/media/${ID}-960.jpg" alt="a" />`, warnings: [] });
  });

  it('removes any other image, naming it and saying to upload it', () => {
    const result = sanitizeContent(`<p>a<img src="https://x.example/a.png" alt="x"></p><img src="${SITE}/media/${ID}-960.jpg"><img src="/images/b.png">`);
    expect(result.html).toBe('<p>a</p>');
    expect(result.warnings).toEqual([
      `Removed <img src="https://x.example/a.png">: it is not an image uploaded to this site; ${UPLOAD_HINT}`,
      // Without SITE_URL known, this site's absolute URL is another host's.
      `Removed <img src="${SITE}/media/${ID}-960.jpg">: it is not an image uploaded to this site; ${UPLOAD_HINT}`,
      `Removed <img src="/images/b.png">: it is not an image uploaded to this site; ${UPLOAD_HINT}`,
    ]);
    const data = sanitizeContent(`<img src="data:image/png;base64,${'A'.repeat(500)}">`);
    expect(data.html).toBe('');
    expect(data.warnings).toEqual([`Removed <img src="data:image/png;base64,${'A'.repeat(55)}...">: it is not an image uploaded to this site; ${UPLOAD_HINT}`]);
    expect(sanitizeContent(`<img src="https://evil.example/media/${ID}-960.jpg">`, { siteUrl: SITE }).html).toBe('');
  });

  it('keeps the srcset, sizes and loading hints of an upload only when the srcset names uploads', () => {
    const kept = `<img src="/media/${ID}-960.jpg" alt="a" srcset="/media/${ID}-480.webp 480w, /media/${ID}-960.webp 960w" sizes="100vw" width="960" height="640" loading="lazy" decoding="async" />`;
    expect(sanitizeContent(kept)).toEqual({ html: kept, warnings: [] });
    const foreign = sanitizeContent(`<img src="/media/${ID}-960.jpg" alt="a" srcset="https://x.example/a.png 2x">`);
    expect(foreign).toEqual({ html: `<img src="/media/${ID}-960.jpg" alt="a" />`, warnings: ['Removed srcset from <img> (the server writes it for uploaded images)'] });
  });

  it('keeps a srcset only when every candidate is an upload, and quotes a removed source trimmed and shortened past 80 characters', () => {
    const exactly80 = `http://x.example/${'a'.repeat(59)}.png`;
    const longer = `http://x.example/${'b'.repeat(60)}.png`;
    expect(
      sanitizeContent(
        `<img src="/media/${ID}-960.jpg" alt="a" srcset="/media/${ID}-480.webp 480w, https://x.example/a.png 960w"><img src="/media/${ID}-960.jpg" alt="b" srcset="/media/evil.png 480w">` +
          `<img src="https://x.example/a.png" srcset="https://x.example/b.png 2x"><img src="  ${exactly80}  "><img src="${longer}">`,
      ),
    ).toEqual({
      html: `<img src="/media/${ID}-960.jpg" alt="a" /><img src="/media/${ID}-960.jpg" alt="b" />`,
      warnings: [
        'Removed srcset from <img> (the server writes it for uploaded images) (2 times)',
        `Removed <img src="https://x.example/a.png">: it is not an image uploaded to this site; ${UPLOAD_HINT}`,
        `Removed <img src="${exactly80}">: it is not an image uploaded to this site; ${UPLOAD_HINT}`,
        `Removed <img src="${longer.slice(0, 77)}...">: it is not an image uploaded to this site; ${UPLOAD_HINT}`,
      ],
    });
  });

  it('never lets an image of another source through', () => {
    const src = fc.oneof(
      fc.constantFrom(ID, `/media/${ID}-480.webp`, `${SITE}/media/${ID}-480.png`, `https://x.example/media/${ID}-480.png`, 'data:image/gif;base64,R0lGOD', '//x.example/a.png', 'javascript:alert(1)', ''),
      fc.string({ maxLength: 30 }),
      fc.string({ maxLength: 12 }).map((tail) => `https://x.example/media/${ID}-${tail}`),
    );
    fc.assert(
      fc.property(fc.array(src, { maxLength: 4 }), (sources) => {
        const html = sources.map((source) => `<p><img src="${source.replace(/"/g, '&quot;')}" alt="x"></p>`).join('');
        const clean = sanitizeContent(html, { siteUrl: SITE }).html;
        for (const match of clean.matchAll(/<img src="([^"]*)"/g)) expect(mediaSource(match[1] ?? '', SITE)).toBe(match[1]);
        expect(clean.match(/<img/g)?.length ?? 0).toBe(sources.filter((source) => mediaSource(source, SITE) !== null).length);
      }),
    );
  });

  it('reports a removed embed with the hosts videos can be embedded from', () => {
    expect(sanitizeContent('<iframe src="https://vimeo.com/1"></iframe>').warnings).toEqual([
      `Removed <iframe> from a host that is not allowed (vimeo.com): embed videos from ${EMBEDDABLE_VIDEO_HOSTS.join(', ')}`,
    ]);
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
  it('keeps footnote attributes only on links to a footnote, each with its partner attribute', () => {
    const result = sanitizeContent(
      '<a href="#top" data-footnote-ref>1</a><a href="/footnote-1" data-footnote-ref>2</a><a href="#top" data-footnote-backref>3</a>' +
        '<a href="#footnote-1" data-footnote-ref aria-describedby="other">4</a><a href="#top" aria-describedby="footnote-label">5</a>' +
        '<a href="#footnote-1" aria-describedby="footnote-label">6</a><a href="#top" aria-label="x">7</a><a href="#footnote-1" aria-label="x">8</a><li id="xfootnote-1">9</li>',
    );
    expect(result.html).toBe(
      '<a href="#top">1</a><a href="/footnote-1">2</a><a href="#top">3</a><a href="#footnote-1" data-footnote-ref>4</a><a href="#top">5</a>' +
        '<a href="#footnote-1">6</a><a href="#top">7</a><a href="#footnote-1">8</a><li>9</li>',
    );
    expect(result.warnings).toEqual([
      'Removed data-footnote-ref from <a> (a footnote link points to #footnote-...) (2 times)',
      'Removed data-footnote-backref from <a> (a footnote link points to #footnote-...)',
      'Removed aria-describedby from <a> (kept on footnote references only) (3 times)',
      'Removed aria-label from <a> (kept on footnote back-links only) (2 times)',
      'Removed id "xfootnote-1" from <li> (only footnote ids, footnote-..., are kept)',
    ]);
  });
});

describe('plain text helpers', () => {
  it('strip markup from plain-text fields', () => {
    expect(stripTags('<b>Bold</b> title<!-- x -->')).toEqual({ text: 'Bold title', changed: true });
    expect(stripTags('1 < 2 and 3 > 2')).toEqual({ text: '1 < 2 and 3 > 2', changed: false });
    expect(stripTags(' <b class="x">y</b> ')).toEqual({ text: 'y', changed: true });
    expect(stripTags(' 1 < 2 ')).toEqual({ text: '1 < 2', changed: false });
    expect(stripTags('  plain  ')).toEqual({ text: 'plain', changed: false });
  });

  it('wrap tagless text in paragraphs', () => {
    expect(hasTags('no tags, 1 < 2')).toBe(false);
    expect(hasTags('<p>x</p>')).toBe(true);
    expect(paragraphsFromText('one\ntwo\n\nthree')).toBe('<p>one<br>two</p>\n<p>three</p>');
    expect(paragraphsFromText('\n\n one \n\ntwo')).toBe('<p>one</p>\n<p>two</p>');
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
