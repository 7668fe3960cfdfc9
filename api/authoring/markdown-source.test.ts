import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePostFile, setFrontMatterFields } from './post-file';
import { postSourceFile, renderSource, sourceBody, sourceFindings, sourceKey } from './markdown-source';

const FILE = '---\ntitle: Loans\n# a comment the author keeps\nstatus: scheduled\npublish_at: 2030-01-01T09:00:00-05:00\nauthor:\n  name: E\n---\n\nA loan\nwrapped by hand, -8.1%.\n\n![Chart](img/chart.png)\n\n<img src=\'img/raw.png\' alt="Raw">\n';
const ID = 'a'.repeat(32);
const RAW = 'b'.repeat(32);

describe('a post\'s Markdown source', () => {
  it('renders with each uploaded picture in place of its local path, however its src is quoted', () => {
    const { content } = renderSource(FILE, { 'img/chart.png': ID, 'img/raw.png': RAW }, new Date('2031-01-01T00:00:00Z'));
    expect(content).toContain(`<img src="${ID}" alt="Chart">`);
    expect(content).toContain(`<img src="${RAW}" alt="Raw">`);
    expect(content).toContain('A loan\nwrapped by hand, -8.1%.');
  });

  it('reads no publish time from the file (it may have passed since)', () => {
    expect(() => renderSource(FILE, {}, new Date('2031-01-01T00:00:00Z'))).not.toThrow();
    expect(() => parsePostFile(FILE, { kind: 'markdown', now: new Date('2031-01-01T00:00:00Z') })).toThrow(/in the past/);
  });

  it('comes back with only id, revision, status and the publish time set', () => {
    const post = { id: 'p-1', revision: 3, status: 'scheduled' as const, publish_at: '2030-01-01T14:00:00.000Z', review: undefined, source: { text: FILE } };
    const scheduled = postSourceFile(post);
    expect(scheduled).toBe(setFrontMatterFields(FILE, { id: 'p-1', revision: 3, status: 'scheduled', publish_at: '2030-01-01T14:00:00.000Z' }));
    expect(sourceKey(scheduled)).toBe(sourceKey(FILE));
    const live = postSourceFile({ ...post, status: 'published', publish_at: null });
    expect(live).not.toContain('publish_at');
    expect(live).toContain('# a comment the author keeps\nstatus: published\nauthor:');
    expect(sourceBody(live)).toBe(sourceBody(FILE));
    const held = postSourceFile({ ...post, status: 'in_review', publish_at: null, review: { state: 'pending', requested_status: 'published', requested_publish_at: null, submitted_at: '', rules: [], note: null, decided_at: null } });
    expect(held).toContain('status: published\n');
  });

  it('writing the file again changes nothing: the same bytes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.constantFrom('draft', 'published'), (revision, status) => {
        const once = postSourceFile({ id: 'p-1', revision, status, publish_at: null, review: undefined, source: { text: FILE } });
        expect(postSourceFile({ id: 'p-1', revision, status, publish_at: null, review: undefined, source: { text: once } })).toBe(once);
      }),
    );
  });

  it('finds compliance findings at their line and column in the file', () => {
    const text = '---\ntitle: Caps\nauthor:\n  name: E\n---\n\nFirst line.\nSome call it risk-free.\n';
    const findings = sourceFindings(text) ?? [];
    expect(findings.map((finding) => [finding.rule, finding.source])).toEqual([['risk-free', { line: 8, column: 14 }]]);
    expect(sourceFindings('---\ntitle: [unclosed\n---\nx')).toBeNull();
  });
});
