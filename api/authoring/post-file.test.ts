import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCreatePostBody } from '../../contract/blog';
import { sanitizeContent } from '../services/sanitize';
import { detectPostFileKind, parsePostFile, PostFileError, publishKeyOf, setFrontMatterFields, setFrontMatterId } from './post-file';

const MARKDOWN = `---
title: "Policy Loans Explained"
category: IUL Strategies
tags: [loans, cash value]
status: published
publishedAt: 2025-03-14T15:00:00Z
author:
  name: Evelyn Hartwell
  credentials: CLU
trust:
  sources:
    - name: IRS Publication 590-B
      url: https://www.irs.gov/publications/p590b
  lastUpdated: 2025-06-01
---

A policy loan lets you use cash value **without** selling it.

## How it works

- Interest typically 4-6%
- Loans reduce the death benefit
`;

describe('parsePostFile', () => {
  it('turns Markdown with front matter into a payload the contract accepts', () => {
    const file = parsePostFile(MARKDOWN, { fileName: 'loans.md' });
    expect(file.kind).toBe('markdown');
    expect(file.publishedAt).toBe('2025-03-14T15:00:00Z');
    expect(file.payload.publish_at).toBe('2025-03-14T15:00:00Z');
    expect(file.payload.content).toContain('<h2>How it works</h2>');
    expect(file.payload.content).toContain('<strong>without</strong>');
    expect(file.payload.excerpt).toBe('A policy loan lets you use cash value without selling it.');
    expect(file.notes).toEqual([
      "publish_at 2025-03-14T15:00:00Z is in the past: kept as the post's original publication date",
      'excerpt taken from the first paragraph',
    ]);
    expect(file.warnings).toEqual([]);
    const check = checkCreatePostBody(file.payload);
    expect(check.ok).toBe(true);
    if (check.ok) {
      expect(check.data.trust?.lastUpdated).toBe('2025-06-01T00:00:00.000Z');
      expect(check.ignoredFields).toEqual([]);
    }
  });

  it('takes the title from a leading heading and removes it from the content', () => {
    const file = parsePostFile('---\ncategory: Tax Benefits\n---\n# Tax-Free Loans\n\nBody text here.\n');
    expect(file.payload.title).toBe('Tax-Free Loans');
    expect(file.payload.content).toBe('<p>Body text here.</p>');
    expect(file.notes).toContain('title taken from the first heading');
  });

  it('keeps HTML as it is and reads JSON payloads whole', () => {
    const html = parsePostFile('---\ntitle: Hello there\n---\n<p>Hi <em>you</em></p>', { fileName: 'a.html' });
    expect(html.payload.content).toBe('<p>Hi <em>you</em></p>');
    const json = parsePostFile('{"title":"T","content":"<p>x</p>"}', { fileName: 'post.json' });
    expect(json.payload).toEqual({ title: 'T', content: '<p>x</p>' });
  });

  it('explains broken JSON and broken front matter', () => {
    expect(() => parsePostFile('{"title":', { fileName: 'x.json' })).toThrow(/not valid JSON/);
    expect(() => parsePostFile('[1,2]', { fileName: 'x.json' })).toThrow(/one object/);
    expect(() => parsePostFile(JSON.stringify('{"title":"T"}'))).toThrow(/serialised twice/);
    expect(() => parsePostFile('---\ntitle: [unclosed\n---\nx')).toThrow(PostFileError);
  });

  it('never runs front matter written in JavaScript (---js): it refuses the file and says to write YAML', () => {
    const flag = '__postFileRanCode';
    for (const fence of ['---js', '---javascript', '--- JavaScript']) {
      const text = `${fence}\n{ title: (globalThis.${flag} = true, "Ran") }\n---\nBody text.\n`;
      expect(() => parsePostFile(text, { fileName: 'post.md' }), fence).toThrow(PostFileError);
      expect(() => parsePostFile(text, { fileName: 'post.md' }), fence).toThrow(/would run as code: write the front matter in YAML/);
      expect(detectPostFileKind(undefined, text), fence).toBe('markdown');
    }
    expect((globalThis as Record<string, unknown>)[flag]).toBeUndefined();
    // YAML and JSON front matter are still read as data.
    expect(parsePostFile('---json\n{ "title": "Policy Loans" }\n---\nBody.\n', { fileName: 'post.md' }).payload.title).toBe('Policy Loans');
  });

  it('detects the kind from the name, else from the text', () => {
    expect(detectPostFileKind('a.MD', '{')).toBe('markdown');
    expect(detectPostFileKind(undefined, ' {"a":1}')).toBe('json');
    expect(detectPostFileKind(undefined, '<article>x</article>')).toBe('html');
    expect(detectPostFileKind(undefined, 'plain words')).toBe('markdown');
  });

  it('never throws anything but PostFileError, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.constantFrom('a.md', 'a.json', 'a.html', undefined), (text, name) => {
        try {
          const file = parsePostFile(text, { fileName: name });
          expect(typeof file.payload).toBe('object');
        } catch (error) {
          expect(error).toBeInstanceOf(PostFileError);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('drops a leading heading that repeats the title, and keeps one that does not', () => {
    const repeat = parsePostFile('---\ntitle: Tax-free  LOANS\n---\n# Tax-Free *Loans*\n\nBody.\n');
    expect(repeat.payload.content).toBe('<p>Body.</p>');
    expect(repeat.notes).toContain('removed the leading heading "Tax-Free Loans": the title is shown above the post');
    const other = parsePostFile('---\ntitle: Tax-Free Loans\n---\n# How they work\n\nBody.\n');
    expect(other.payload.content).toBe('<h1>How they work</h1>\n<p>Body.</p>');
    expect(other.notes.join()).not.toContain('removed');
  });
});

const POST = (front: string) => `---\ntitle: Scheduled Post\ncategory: Tax Benefits\nauthor:\n  name: Ada\n${front}\n---\nBody text.\n`;
const NOW = new Date('2026-06-01T12:00:00Z');

describe('the publish time in front matter', () => {
  it('schedules a future time, keeping the offset the author wrote', () => {
    for (const [front, status] of [['publish_at: 2026-12-01T09:00:00-05:00', undefined], ['publishAt: 2026-12-01T09:00:00-05:00\nstatus: Published', 'published'], ['publishedAt: "2026-12-01T09:00:00-05:00"\nstatus: scheduled', 'scheduled']] as const) {
      const file = parsePostFile(POST(front), { now: NOW });
      expect(file.payload).toMatchObject({ status: 'scheduled', publish_at: '2026-12-01T09:00:00-05:00' });
      expect(file.payload).not.toHaveProperty('publishAt');
      expect(file.payload).not.toHaveProperty('publishedAt');
      expect(file.notes[0]).toMatch(/^scheduled for 2026-12-01T09:00:00-05:00/);
      if (status === 'published') expect(file.notes[0]).toContain('status published became scheduled');
      expect(checkCreatePostBody(file.payload).ok).toBe(true);
    }
  });

  it('keeps a past time as the original publication date of a published post', () => {
    const file = parsePostFile(POST('status: published\npublishedAt: 2024-03-19T08:41:00-05:00'), { now: NOW });
    expect(file.payload).toMatchObject({ status: 'published', publish_at: '2024-03-19T08:41:00-05:00' });
    expect(file.publishedAt).toBe('2024-03-19T08:41:00-05:00');
    expect(file.notes[0]).toBe("publish_at 2024-03-19T08:41:00-05:00 is in the past: kept as the post's original publication date");
  });

  it('refuses what cannot be meant, saying what to do', () => {
    const fails = (front: string) => () => parsePostFile(POST(front), { now: NOW });
    expect(fails('publish_at: 2026-12-01 09:00')).toThrow('add an offset, e.g. 2026-12-01T09:00:00-05:00');
    expect(fails('publish_at: 2026-12-01')).toThrow('add an offset, e.g. 2026-12-01T09:00:00-05:00');
    expect(fails('publish_at: 2026-12-01T09:00:00-05:00\nstatus: draft')).toThrow(/is in the future but the status is draft.*status: scheduled/);
    expect(fails('publish_at: 2026-01-01T09:00:00Z\nstatus: scheduled')).toThrow(/^publish_at 2026-01-01T09:00:00Z is in the past: /);
    expect(fails('publish_at: 2026-01-01T09:00:00Z\nstatus: draft')).toThrow(/status is draft/);
    expect(fails('publish_at: soon')).toThrow(PostFileError);
    expect(fails('publish_at: 2026-12-01T09:00:00Z\npublishedAt: 2025-01-01T00:00:00Z')).toThrow(/keep one/);
  });
});

describe('front-matter keys', () => {
  it('names each unknown key, with a "did you mean", and does not send it', () => {
    const file = parsePostFile(POST('status: draft\nTitel: x\nsummary: short\nlayout: post\nauthor_name: Ada\ntags: [a]'), { now: NOW });
    expect(file.warnings).toEqual([
      'front matter key "Titel" is not a post field and was not sent (did you mean title?)',
      'front matter key "summary" is not a post field and was not sent (did you mean excerpt?)',
      'front matter key "layout" is not a post field and was not sent',
      'front matter key "author_name" is not a post field and was not sent (did you mean author.name?)',
    ]);
    expect(Object.keys(file.payload).sort()).toEqual(['author', 'category', 'content', 'excerpt', 'status', 'tags', 'title']);
    const nested = parsePostFile('---\ntitle: Nested keys\nauthor:\n  name: Ada\n  credential: CFP\n---\nx\n');
    expect(nested.warnings).toEqual(['front matter key "author.credential" is not a post field and was not sent (did you mean author.credentials?)']);
    expect(nested.payload.author).toEqual({ name: 'Ada' });
  });

  it('reads the id and revision, which are never sent', () => {
    const file = parsePostFile(POST('id: 5f0c6a2e-8d1b-4c3e-9a7f-2b6d1e0c4a99\nrevision: 4\nstatus: draft'), { now: NOW });
    expect(file.id).toBe('5f0c6a2e-8d1b-4c3e-9a7f-2b6d1e0c4a99');
    expect(file.revision).toBe(4);
    expect(file.payload).not.toHaveProperty('id');
    expect(file.payload).not.toHaveProperty('revision');
    expect(() => parsePostFile(POST('revision: latest'))).toThrow(/revision in the front matter/);
  });
});

describe('setFrontMatterId', () => {
  const ID = '5f0c6a2e-8d1b-4c3e-9a7f-2b6d1e0c4a99';

  it('adds the id as the first line, or replaces the id line, keeping every other byte', () => {
    expect(setFrontMatterId('---\ntitle: "A"  # mine\n---\nBody\n', ID)).toBe(`---\nid: ${ID}\ntitle: "A"  # mine\n---\nBody\n`);
    expect(setFrontMatterId('---\r\ntitle: A\r\nid: old\r\ntags: [a]\r\n---\r\nBody', ID)).toBe(`---\r\ntitle: A\r\nid: ${ID}\r\ntags: [a]\r\n---\r\nBody`);
    expect(setFrontMatterId('Just text.\n', ID)).toBe(`---\nid: ${ID}\n---\nJust text.\n`);
    expect(setFrontMatterId('---\n---\nx', '12')).toBe('---\nid: "12"\n---\nx');
    expect(setFrontMatterFields('---\nrevision: 1\ntitle: A\n---\nx', { id: ID, revision: 2 })).toBe(`---\nid: ${ID}\nrevision: 2\ntitle: A\n---\nx`);
    expect(() => setFrontMatterId('{"title":"A"}', ID)).toThrow(/JSON post file/);
  });

  it('names the publish time by the key the file already uses, so a new time replaces the old one', () => {
    expect(publishKeyOf('---\ntitle: A\npublishAt: 2030-01-01T09:00:00Z\n---\nx')).toBe('publishAt');
    expect(publishKeyOf('\uFEFF---\npublishedAt: 2020-01-01T09:00:00Z\n---\nx')).toBe('publishedAt');
    expect(publishKeyOf('---\ntitle: A\n---\npublishAt: in the body\n')).toBe('publish_at');
    expect(publishKeyOf('No front matter.\n')).toBe('publish_at');
    expect(publishKeyOf('---\ntitle: [unclosed\n---\nx')).toBe('publish_at');
  });

  const line = fc.constantFrom('title: "Policy Loans"', 'category: Tax Benefits', 'tags: [a, b]', 'status: draft', 'excerpt: >\n  folded\n  text', 'id: old-id', '# a comment', 'author:\n  name: Ada\n  id: nested', 'slug: policy-loans');
  const body = fc.constantFrom('', 'Body text.\n', '# Policy Loans\n\nText[^1].\n\n[^1]: Note.\n', '<p>HTML body</p>\n', '---\n\nAfter a rule.\n', 'id: not front matter\n');
  const file = fc.oneof(
    fc.tuple(fc.array(line, { maxLength: 5 }), body, fc.boolean()).map(([lines, text, crlf]) => {
      const joined = `---\n${lines.join('\n')}${lines.length ? '\n' : ''}---\n${text}`;
      return crlf ? joined.replace(/\n/g, '\r\n') : joined;
    }),
    body,
  );
  const id = fc.oneof(fc.uuid(), fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,20}$/), fc.constantFrom('true', '123', 'null', 'a: b', '#x'));

  it('gives a file that parses to that id and the same payload', () => {
    fc.assert(
      fc.property(file, id, (text, postId) => {
        let before;
        try {
          before = parsePostFile(text, { fileName: 'post.md', now: NOW });
        } catch {
          return; // Not a post file to begin with.
        }
        const after = parsePostFile(setFrontMatterId(text, postId), { fileName: 'post.md', now: NOW });
        expect(after.id).toBe(postId);
        expect(after.payload).toEqual(before.payload);
        expect(after.warnings).toEqual(before.warnings);
      }),
      { numRuns: 500 },
    );
  });
});

describe('footnotes', () => {
  it('render as numbered notes with back-links that the sanitiser keeps', () => {
    const file = parsePostFile('---\ntitle: Notes\n---\nLoans are tax-free[^irs] if the policy stays in force[^lapse], see[^irs].\n\n[^irs]: IRS Publication 590-B.\n[^lapse]: A lapse makes the gain taxable.\n');
    const html = sanitizeContent(String(file.payload.content));
    expect(html.warnings).toEqual([]);
    expect(html.html).toBe(
      '<p>Loans are tax-free<sup><a id="footnote-ref-1" href="#footnote-1" data-footnote-ref aria-describedby="footnote-label">1</a></sup> ' +
        'if the policy stays in force<sup><a id="footnote-ref-2" href="#footnote-2" data-footnote-ref aria-describedby="footnote-label">2</a></sup>, ' +
        'see<sup><a id="footnote-ref-1-2" href="#footnote-1" data-footnote-ref aria-describedby="footnote-label">1</a></sup>.</p>\n' +
        '<section class="footnotes" data-footnotes>\n<h2 id="footnote-label" class="visually-hidden">Footnotes</h2>\n<ol>\n' +
        '<li id="footnote-1">\n<p>IRS Publication 590-B. <a href="#footnote-ref-1" data-footnote-backref aria-label="Back to reference 1">↩</a> ' +
        '<a href="#footnote-ref-1-2" data-footnote-backref aria-label="Back to reference 1">↩<sup>2</sup></a></p>\n</li>\n' +
        '<li id="footnote-2">\n<p>A lapse makes the gain taxable. <a href="#footnote-ref-2" data-footnote-backref aria-label="Back to reference 2">↩</a></p>\n</li>\n</ol>\n</section>',
    );
    expect(file.payload.excerpt).toBe('Loans are tax-free if the policy stays in force, see.');
  });
});


describe('parsePostFile: compliance and source positions', () => {
  it('sends the front matter\'s accepted findings as the payload\'s compliance', () => {
    const file = parsePostFile('---\ntitle: Loans\ncategory: IUL Strategies\nauthor:\n  name: Evelyn Hartwell\nstatus: draft\ncompliance:\n  accept:\n    - rule: risk-free\n      reason: "  Quotes a regulator\'s warning.  "\n---\nText.\n');
    expect(file.payload.compliance).toEqual({ accept: [{ rule: 'risk-free', reason: "Quotes a regulator's warning." }] });
    expect(checkCreatePostBody(file.payload).ok).toBe(true);
  });

  it('names the file line of a bad entry', () => {
    const text = '---\ntitle: Loans\ncompliance:\n  accept:\n    - rule: risk-free\n      reason: Quotes a warning from the state.\n    - reason: Nothing names the rule here.\n---\nText.\n';
    expect(() => parsePostFile(text)).toThrow('compliance.accept[1].rule (line 7): needs the id of the rule it accepts');
  });

  it('points at the title, excerpt and body where the file has them, whatever the line endings or a BOM', () => {
    const text = '\uFEFF---\r\ntitle: "Risk-free income"\r\nexcerpt: >\r\n  Folded over\r\n  two lines\r\n---\r\n\r\nFirst line.\r\n';
    const file = parsePostFile(text, { fileName: 'post.md' });
    const { fields, body } = file.source;
    expect(text.slice(fields.title?.start, fields.title?.end)).toBe('"Risk-free income"\r\n');
    expect(text.slice(fields.excerpt?.start, fields.excerpt?.end)).toBe('>\r\n  Folded over\r\n  two lines\r');
    expect(body).toEqual({ start: text.indexOf('First'), text: 'First line.' });
  });

  it('points at the leading heading a title was taken from, and past a heading that was removed', () => {
    const taken = '---\nstatus: draft\n---\n# Risk-free income\n\nBody text.\n';
    const file = parsePostFile(taken);
    expect(taken.slice(file.source.fields.title?.start, file.source.fields.title?.end)).toBe('Risk-free income');
    expect(file.source.body?.start).toBe(taken.indexOf('Body'));
    const repeated = '---\ntitle: Loans\n---\n\n# Loans\n\n  Body text.\n';
    expect(parsePostFile(repeated).source.body).toEqual({ start: repeated.indexOf('Body'), text: 'Body text.' });
  });
});
