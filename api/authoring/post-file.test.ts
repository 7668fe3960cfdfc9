import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCreatePostBody } from '../../contract/blog';
import { detectPostFileKind, parsePostFile, PostFileError } from './post-file';

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
    expect(file.publishedAt).toBe('2025-03-14T15:00:00.000Z');
    expect(file.payload.content).toContain('<h2>How it works</h2>');
    expect(file.payload.content).toContain('<strong>without</strong>');
    expect(file.payload.excerpt).toBe('A policy loan lets you use cash value without selling it.');
    expect(file.notes).toEqual(['excerpt taken from the first paragraph']);
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
});
