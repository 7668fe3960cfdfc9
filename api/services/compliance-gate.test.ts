/**
 * The compliance gate as an author meets it in each COMPLIANCE_MODE: which posts pass, which are held
 * for review (and the review they carry), which are a 422 naming the findings (recorded first), and
 * that a draft or an admin's post is never held.
 */
import { describe, expect, it } from 'vitest';
import type { ComplianceFinding } from '../../contract/compliance';
import { ApiError } from '../../contract/errors';
import { applyGate, findingsOf, gate, type GateRequest, heldMessage, pendingReview } from './compliance-gate';

const NOW = new Date('2026-11-25T10:00:00.000Z');

function finding(rule: string, severity: ComplianceFinding['severity'], accepted?: string): ComplianceFinding {
  return { rule, severity, message: 'm', why: 'w', suggestion: 's', location: null, ...(accepted ? { accepted: { reason: accepted } } : {}) };
}

const HIGH = finding('guaranteed-returns', 'high');
const HIGH_2 = finding('risk-free', 'high');
const ACCEPTED = finding('guaranteed-returns', 'high', 'quoted from a regulator');
const MEDIUM = finding('past-performance', 'medium');

function request(overrides: Partial<GateRequest>): GateRequest {
  return { mode: 'review', findings: [], requested: 'published', publishAt: null, admin: false, now: NOW, subject: 'post', ...overrides };
}

async function refusal(work: Promise<unknown>): Promise<ApiError> {
  const error: unknown = await work.then(() => null, (caught: unknown) => caught);
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

describe('findingsOf', () => {
  it("finds what the rules flag in a post's title, excerpt and content, and marks accepted findings", () => {
    const post = {
      title: 'Plain title',
      excerpt: 'A guaranteed 7% annual return.',
      content: '<p>Nothing to see.</p>',
      isNewsArticle: false,
      author: { name: 'Dana' },
      trust: null,
    };
    const high = (found: ComplianceFinding[]) => found.filter((f) => f.severity === 'high');
    expect(high(findingsOf(post)).map((f) => [f.rule, f.location?.field, Boolean(f.accepted)])).toEqual([['guaranteed-returns', 'excerpt', false]]);
    const accepted = high(findingsOf({ ...post, complianceAccept: [{ rule: 'guaranteed-returns', reason: 'quoted from a regulator' }] }));
    expect(accepted[0]?.accepted).toEqual({ reason: 'quoted from a regulator' });
    const inContent = high(findingsOf({ ...post, excerpt: 'Fine.', content: '<p>A guaranteed 7% annual return.</p>' }));
    expect(inContent.map((f) => f.location?.field)).toEqual(['content']);
    const inTitle = high(findingsOf({ ...post, excerpt: 'Fine.', title: 'A guaranteed 7% annual return' }));
    expect(inTitle.map((f) => f.location?.field)).toEqual(['title']);
    // The content is read as HTML: words in a tag's attributes are not text a reader sees.
    const inAttribute = high(findingsOf({ ...post, excerpt: 'Fine.', content: '<p><a href="https://example.com/a" title="A guaranteed 7% annual return.">Read more</a></p>' }));
    expect(inAttribute).toEqual([]);
    const rules = (found: ComplianceFinding[]) => found.map((f) => f.rule);
    const plain = { ...post, excerpt: 'Fine.' };
    // A news article without a fact-checker is flagged; one with the credentials and checker the rules ask for is not.
    expect(rules(findingsOf({ ...plain, isNewsArticle: true }))).not.toEqual(rules(findingsOf(plain)));
  });
});

describe('gate', () => {
  it('passes everything in warn mode, and every draft', () => {
    expect(gate('warn', [HIGH], 'published', false)).toEqual({ kind: 'pass' });
    expect(gate('block', [HIGH], 'draft', false)).toEqual({ kind: 'pass' });
    expect(gate('review', [HIGH], 'draft', false)).toEqual({ kind: 'pass' });
  });

  it('in review mode holds a post with high findings (each rule once), but not an admin key’s or one with none', () => {
    expect(gate('review', [HIGH, HIGH, HIGH_2, MEDIUM], 'published', false)).toEqual({ kind: 'hold', rules: ['guaranteed-returns', 'risk-free'] });
    expect(gate('review', [ACCEPTED], 'scheduled', false)).toEqual({ kind: 'hold', rules: ['guaranteed-returns'] });
    expect(gate('review', [HIGH], 'published', true)).toEqual({ kind: 'pass' });
    expect(gate('review', [MEDIUM], 'published', false)).toEqual({ kind: 'pass' });
    expect(gate('review', [], 'published', false)).toEqual({ kind: 'pass' });
  });

  it('in block mode refuses unaccepted high findings (even from an admin), and holds accepted ones', () => {
    expect(gate('block', [HIGH, MEDIUM], 'published', true)).toEqual({ kind: 'block', findings: [HIGH] });
    expect(gate('block', [ACCEPTED, MEDIUM], 'published', false)).toEqual({ kind: 'hold', rules: ['guaranteed-returns'] });
    expect(gate('block', [ACCEPTED], 'published', true)).toEqual({ kind: 'pass' });
    expect(gate('block', [MEDIUM], 'published', false)).toEqual({ kind: 'pass' });
  });
});

describe('applyGate', () => {
  it('stores as asked (no review) when the gate passes', async () => {
    expect(await applyGate(request({ mode: 'warn', findings: [HIGH] }))).toBeNull();
    expect(await applyGate(request({ findings: [MEDIUM] }))).toBeNull();
  });

  it('gives a held post a pending review of what its author asked for', async () => {
    expect(await applyGate(request({ findings: [HIGH], requested: 'published', publishAt: '2026-12-01T00:00:00.000Z' }))).toEqual({
      state: 'pending',
      requestedStatus: 'published',
      requestedPublishAt: null,
      submittedAt: '2026-11-25T10:00:00.000Z',
      rules: ['guaranteed-returns'],
      note: null,
      decidedAt: null,
      decidedBy: null,
    });
    expect(await applyGate(request({ findings: [HIGH], requested: 'scheduled', publishAt: '2026-12-01T00:00:00.000Z' }))).toMatchObject({
      requestedStatus: 'scheduled',
      requestedPublishAt: '2026-12-01T00:00:00.000Z',
    });
  });

  it('never holds a draft', async () => {
    expect(await applyGate(request({ findings: [HIGH], requested: 'draft' }))).toBeNull();
  });

  it('refuses a blocked post with 422 compliance_blocked naming the rules, after recording them', async () => {
    const recorded: string[][] = [];
    const error = await refusal(applyGate(request({ mode: 'block', findings: [HIGH, MEDIUM], onBlocked: async (rules) => void recorded.push(rules) })));
    expect(error.status).toBe(422);
    expect(error.code).toBe('compliance_blocked');
    expect(error.message).toBe(
      'The post makes a claim the agency does not publish (guaranteed-returns): see findings for each, with a suggested rewrite.',
    );
    expect(error.extra).toEqual({ findings: [HIGH, MEDIUM] });
    expect(recorded).toEqual([['guaranteed-returns']]);
  });

  it('counts the claims and says a refused change left the post unchanged', async () => {
    const error = await refusal(applyGate(request({ mode: 'block', subject: 'change', findings: [HIGH, HIGH, HIGH_2] })));
    expect(error.message).toBe(
      'The change makes 3 claims the agency does not publish (guaranteed-returns, risk-free): see findings for each, with a suggested rewrite. The post was not changed.',
    );
  });
});

describe('messages and records', () => {
  it('tells the author why the post is held and where to look', () => {
    expect(heldMessage(['guaranteed-returns', 'risk-free'])).toBe(
      'Held for compliance review (guaranteed-returns, risk-free): a staff member approves it before it goes public; until then it is on no public page, list or feed. GET /api/blog/:id shows the review\'s state and any note.',
    );
  });

  it('builds a pending review', () => {
    expect(pendingReview('scheduled', '2026-12-01T00:00:00.000Z', ['x'], NOW)).toMatchObject({ state: 'pending', requestedStatus: 'scheduled', requestedPublishAt: '2026-12-01T00:00:00.000Z', rules: ['x'] });
  });
});
