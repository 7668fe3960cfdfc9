import { describe, expect, it } from 'vitest';
import { hasTags, hasVisibleContent, paragraphsFromText, sanitizeContent, stripTags } from './sanitize';

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

  it('drops images that lose their source', () => {
    const result = sanitizeContent('<p>a<img src="javascript:x"></p>');
    expect(result.html).toBe('<p>a</p>');
    expect(result.warnings).toContain('Removed unsafe javascript: URL from <img src>');
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
    expect(hasVisibleContent('<p> </p>')).toBe(false);
    expect(hasVisibleContent('<p><img src="https://x.example/a.png" /></p>')).toBe(true);
    expect(hasVisibleContent('<p>x</p>')).toBe(true);
  });
});
