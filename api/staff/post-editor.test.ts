/** The editor's file: the form's fields written into the author's front matter, the body after it, and the findings moved to the body's lines. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePostFile } from '../authoring/post-file';
import { sourceBody, sourceFindings } from '../authoring/markdown-source';
import type { PostRecord } from '../store/store';
import { composeSource, placeFindings, tagsOf } from './post-editor';

const FILE = `---
# written by hand
title: Old title
excerpt: >-
  An old excerpt
  folded over two lines
category: Tax Benefits
tags:
  - old
  - tags
author:
  name: Jane Author
---
# Old title

Body text.
`;

function withSource(text: string): PostRecord {
  return { source: { format: 'markdown', text, images: {} } } as unknown as PostRecord;
}

const fields = { title: 'New title', excerpt: 'A new excerpt.', category: 'iul-strategies', tags: 'one, two words', body: 'New body.\n' };

describe('composeSource', () => {
  it("writes the form's fields into the author's front matter in place, keeps every other line, and puts the body after it as typed", () => {
    const text = composeSource(withSource(FILE), fields);
    expect(text).toBe(`---
# written by hand
title: New title
excerpt: A new excerpt.
category: iul-strategies
tags: ["one","two words"]
author:
  name: Jane Author
---
New body.
`);
  });

  it('drops the tags line when the form has none, and adds a front matter to a file without one', () => {
    expect(composeSource(withSource(FILE), { ...fields, tags: ' , ' })).not.toContain('tags');
    const text = composeSource(withSource('# A heading only\n\nText.\n'), { ...fields, body: 'Text.\n' });
    expect(parsePostFile(text, { kind: 'markdown', withoutPublication: true }).payload).toMatchObject({ title: 'New title', excerpt: 'A new excerpt.', category: 'iul-strategies', tags: ['one', 'two words'] });
  });

  it('any title, excerpt and tags read back from the file as typed, and the body is the file after its front matter', () => {
    const line = fc.string({ minLength: 1, maxLength: 60 }).filter((text) => text.trim() !== '' && !/[\r\n]/.test(text));
    const tag = fc.string({ minLength: 1, maxLength: 20 }).filter((text) => text.trim() !== '' && !/[,\r\n]/.test(text));
    fc.assert(
      fc.property(line, line, fc.array(tag, { maxLength: 4 }), fc.string({ maxLength: 200 }), (title, excerpt, tags, body) => {
        const text = composeSource(withSource(FILE), { title, excerpt, category: 'tax-benefits', tags: tags.join(','), body });
        expect(sourceBody(text)).toBe(body);
        const front = parsePostFile(`${text.slice(0, text.length - sourceBody(text).length)}Body.\n`, { kind: 'markdown', withoutPublication: true }).payload;
        expect(front.title).toBe(title.trim());
        expect(front.excerpt).toBe(excerpt.trim());
        expect(front.tags ?? []).toEqual(tagsOf(tags.join(',')));
      }),
      { numRuns: 200 },
    );
  });
});

describe('placeFindings', () => {
  it('moves a finding from its line in the file to its line in the body, and puts title findings beside the title', () => {
    const text = composeSource(withSource(FILE), { ...fields, title: 'Guaranteed returns for life', body: 'First line.\n\nIt pays guaranteed returns every year.\n' });
    const placed = placeFindings(sourceFindings(text) ?? [], text);
    expect(placed).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ rule: 'guaranteed-returns', where: 'title', line: null }),
        expect.objectContaining({ rule: 'guaranteed-returns', where: 'body', line: 3, column: 9, severity: 'high' }),
      ]),
    );
  });
});
