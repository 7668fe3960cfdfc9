/** The pictures of a post file: which references are local files, where they are written, and the rewrite of their src. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { imageReferences, isLocalReference, rewriteImageSources } from './post-images';

describe('isLocalReference', () => {
  it('takes relative paths and file: URLs as local files, and leaves site paths, media ids and URLs', () => {
    for (const local of ['img/chart.png', './a.jpg', '../shared/b.webp', 'file:///tmp/c.png', 'C:\\pictures\\d.png', 'my%20photo.jpg']) expect(isLocalReference(local), local).toBe(true);
    for (const remote of ['/media/3f2a9c0d1e4b5a6978c0d1e2f3a4b5c6-960.png', '3f2a9c0d1e4b5a6978c0d1e2f3a4b5c6', 'https://example.com/x.png', 'http://x/y.png', '//cdn.example.com/z.png', 'data:image/png;base64,AAAA', '#top', '']) {
      expect(isLocalReference(remote), remote).toBe(false);
    }
  });
});

describe('imageReferences', () => {
  it('finds every <img> of the content at its line in the file, the same picture twice at both lines, and the cover at its key', () => {
    const text = '---\ntitle: T\ncover: img/c.jpg\n---\nIntro.\n\n![A](img/a.png)\n\n![](img/a.png) <img src="https://example.com/b.png" alt="B">\n';
    const content = '<p>Intro.</p>\n<p><img src="img/a.png" alt="A"></p>\n<p><img src="img/a.png" alt=""> <img src="https://example.com/b.png" alt="B"></p>';
    const references = imageReferences({ payload: { content, cover_image: 'img/c.jpg' }, text, path: '/posts/post.md', bodyStart: text.indexOf('Intro'), keys: { cover: text.indexOf('cover:') } }, '/cwd');
    expect(references.map(({ role, src, alt, line, file }) => ({ role, src, alt, line, file }))).toEqual([
      { role: 'content', src: 'img/a.png', alt: 'A', line: 7, file: '/posts/img/a.png' },
      { role: 'content', src: 'img/a.png', alt: '', line: 9, file: '/posts/img/a.png' },
      { role: 'content', src: 'https://example.com/b.png', alt: 'B', line: 9, file: null },
      { role: 'cover', src: 'img/c.jpg', alt: null, line: 3, file: '/posts/img/c.jpg' },
    ]);
  });
});

describe('rewriteImageSources', () => {
  it('points the named pictures at their URL and changes no other byte', () => {
    const html = '<p>a &amp; b</p><img alt="A" src="img/a.png" width="3"><img src=\'img/b.png\'><img src="img/a.png">';
    expect(rewriteImageSources(html, new Map([['img/a.png', '/media/x-960.png']]))).toBe(
      '<p>a &amp; b</p><img alt="A" src="/media/x-960.png" width="3"><img src=\'img/b.png\'><img src="/media/x-960.png">',
    );
  });

  it('leaves any HTML as it was when no src is named, and only ever changes src values', () => {
    const attributeValue = fc.string({ maxLength: 12 }).map((text) => text.replace(/["<>]/g, ''));
    const tag = fc.tuple(attributeValue, attributeValue).map(([src, alt]) => `<img src="${src}" alt="${alt}">`);
    const html = fc.array(fc.oneof(tag, fc.string({ maxLength: 20 }).map((text) => text.replace(/</g, '&lt;'))), { maxLength: 6 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(html, attributeValue, (text, src) => {
        expect(rewriteImageSources(text, new Map())).toBe(text);
        const rewritten = rewriteImageSources(text, new Map([[src, '/media/new-960.png']]));
        expect(rewritten.replace(/src="[^"]*"/g, 'src=""')).toBe(text.replace(/src="[^"]*"/g, 'src=""'));
      }),
    );
  });
});
