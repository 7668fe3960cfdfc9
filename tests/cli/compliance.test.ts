/**
 * The compliance rules in the `blogpost` CLI (through the CLI's own entry, tests/support/cli.ts): `lint` over files and folders (the
 * line and column of each finding in the Markdown source, exit codes, --json), findings in `validate`,
 * and against real servers in each COMPLIANCE_MODE, `publish` (findings, a post held for review, a
 * 422 refusal) and `list` (held and sent-back posts).
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blogpost } from '../support/cli';
import { startTestServer, type TestServer } from '../support/server';

const FIXTURES = path.join(path.dirname(new URL(import.meta.url).pathname), 'fixtures');
const COMPLIANCE = path.join(FIXTURES, 'compliance');

/** Where the fixtures' findings are, counted by hand in the files. */
const CLAIMS_TITLE = 'claims.md:2:9 high guaranteed-returns "Guaranteed Returns"';
const CLAIMS_BODY = 'claims.md:12:31 high guaranteed-returns "guaranteed returns"';

interface JsonFinding {
  rule: string;
  severity: string;
  line: number | null;
  column: number | null;
  location: { field: string } | null;
  accepted?: { reason: string };
}

interface LintJson {
  success: boolean;
  files: { file: string; findings: JsonFinding[]; warnings: string[]; error?: string }[];
  summary: { files: number; high: number; medium: number; info: number; accepted: number };
}

let tmp: string;

beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'blogpost-compliance-'));
});
afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

describe('blogpost lint', () => {
  it('reports "guaranteed returns" at its line and column in the body and in the front-matter title, and exits 1', async () => {
    const run = await blogpost(['lint', 'claims.md'], { cwd: COMPLIANCE });
    expect(run.code).toBe(1);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toContain(CLAIMS_TITLE);
    expect(lines[1]).toContain('→ Say what is guaranteed and by whom');
    expect(lines[2]).toContain(CLAIMS_BODY);
    expect(run.stderr).toContain('1 file, 2 high. Exit 1: 2 findings of severity high not accepted.');
  });

  it('passes a clean file with exit 0', async () => {
    const run = await blogpost(['lint', 'nested/clean.md'], { cwd: COMPLIANCE });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('1 file, no findings.');
  });

  it('shows an accepted finding with its reason and exits 0; the reason itself is never read as copy', async () => {
    const run = await blogpost(['lint', 'accepted.md'], { cwd: COMPLIANCE });
    expect(run.code).toBe(0);
    // The body's "risk-free" is accepted; the front matter's reason quotes "risk-free" and "guaranteed returns" on line 11 and is no finding.
    expect(run.stdout.split('\n').filter((line) => line.startsWith('accepted.md:'))).toEqual([expect.stringContaining('accepted.md:14:49 high (accepted) risk-free')]);
    expect(run.stdout).toContain('accepted: Quotes the regulator\'s alert about "risk-free"');
    expect(run.stderr).toContain('1 file, no open findings (1 accepted).');
  });

  it('walks folders for post files, and sums up every file', async () => {
    const run = await blogpost(['lint', 'compliance'], { cwd: FIXTURES });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`compliance/${CLAIMS_BODY}`);
    expect(run.stdout).toContain('compliance/accepted.md:14:49');
    expect(run.stderr).toContain('3 files, 2 high (1 accepted).');
  });

  it('prints every file with its findings, source positions and a summary with --json', async () => {
    const run = await blogpost(['lint', '.', '--json'], { cwd: COMPLIANCE });
    expect(run.code).toBe(1);
    const out = JSON.parse(run.stdout) as LintJson;
    expect(out.success).toBe(false);
    expect(out.summary).toEqual({ files: 3, high: 2, medium: 0, info: 0, accepted: 1 });
    expect(out.files.map((file) => file.file)).toEqual(['accepted.md', 'claims.md', path.join('nested', 'clean.md')]);
    const claims = out.files[1]?.findings.map((finding) => [finding.rule, finding.location?.field, finding.line, finding.column]);
    expect(claims).toEqual([
      ['guaranteed-returns', 'title', 2, 9],
      ['guaranteed-returns', 'content', 12, 31],
    ]);
    expect(out.files[0]?.findings[0]?.accepted?.reason).toContain('to debunk them');
  });

  it('fails on medium findings with --fail-on medium, and exits 2 for a path that does not exist', async () => {
    writeFileSync(path.join(tmp, 'tax.md'), '---\ntitle: Loans\nstatus: draft\n---\n\nPolicy loans are tax-free.\n');
    const relaxed = await blogpost(['lint', 'tax.md'], { cwd: tmp });
    expect(relaxed.code).toBe(0);
    expect(relaxed.stdout).toContain('tax.md:6:18 medium tax-free-unqualified');
    const strict = await blogpost(['lint', 'tax.md', '--fail-on', 'medium'], { cwd: tmp });
    expect(strict.code).toBe(1);
    const missing = await blogpost(['lint', 'tax.md', 'no-such.md'], { cwd: tmp });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Cannot lint no-such.md: no such file or folder.');
  });

  it('names the line of a bad compliance entry, and lists the rules for an unknown one', async () => {
    const bad = path.join(tmp, 'bad-accept.md');
    writeFileSync(bad, '---\ntitle: Loans\nstatus: draft\ncompliance:\n  accept:\n    - rule: risk-free\n      reason: ok\n---\n\nText.\n');
    const run = await blogpost(['lint', bad]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('compliance.accept[0].reason (line 7): must say in at least 10 characters why the finding is acceptable');
    const validate = await blogpost(['validate', bad]);
    expect(validate.code).toBe(1);
    expect(validate.stderr).toContain('(line 7)');

    const typo = path.join(tmp, 'typo-accept.md');
    writeFileSync(typo, '---\ntitle: Loans\nstatus: draft\ncompliance:\n  accept:\n    - rule: risk-fre\n      reason: The post quotes a regulator warning.\n---\n\nIt is risk-free, they said.\n');
    const warned = await blogpost(['lint', typo]);
    expect(warned.code).toBe(1);
    expect(warned.stdout).toContain('compliance.accept[0] (line 6) names the rule "risk-fre", which is not a rule, so it accepts nothing. Did you mean risk-free?');
    expect(warned.stdout).toContain('The rules are: guaranteed-returns, risk-free,');
    expect(warned.stdout).toContain('typo-accept.md:10:7 high risk-free');
  });
});

describe('blogpost lint in help and completion', () => {
  it('is listed in the help and completed by the shells', async () => {
    const help = await blogpost(['--help']);
    expect(help.stdout).toMatch(/^ {2}lint \[options\] <paths\.\.\.>/m);
    const bash = await blogpost(['completion', 'bash']);
    expect(bash.stdout).toMatch(/"lint"\) args=""; opts="--fail-on --json -h --help"/);
    const fish = await blogpost(['completion', 'fish']);
    expect(fish.stdout).toContain("-a 'lint'");
  });
});

describe('blogpost validate', () => {
  it('shows the findings at their place in the file after its report; they fail it only with --strict', async () => {
    const run = await blogpost(['validate', 'claims.md'], { cwd: COMPLIANCE });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('Valid: "Guaranteed Returns in an IUL"');
    expect(run.stderr.indexOf(CLAIMS_BODY)).toBeGreaterThan(run.stderr.indexOf('status published'));
    expect(run.stderr).toContain(CLAIMS_TITLE);
    expect(run.stderr).toContain('2 high findings are not accepted. The post is still valid (findings are not schema errors)');
    const strict = await blogpost(['validate', 'claims.md', '--strict'], { cwd: COMPLIANCE });
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('--strict: 2 high compliance findings not accepted, so the post does not pass.');
    const json = await blogpost(['validate', 'claims.md', '--json'], { cwd: COMPLIANCE });
    expect(json.code).toBe(0);
    const out = JSON.parse(json.stdout) as { success: boolean; findings: JsonFinding[] };
    expect(out.success).toBe(true);
    expect(out.findings.map((finding) => [finding.line, finding.column])).toEqual([
      [2, 9],
      [12, 31],
    ]);
  });
});

/** A copy of a fixture in its own folder: publish writes the post's id into the file. */
function copyFixture(name: string, prefix: string): string {
  const target = path.join(tmp, `${prefix}-${name}`);
  copyFileSync(path.join(COMPLIANCE, name), target);
  return target;
}

describe('blogpost publish and list against a server', () => {
  let servers: TestServer[] = [];

  async function server(mode: 'warn' | 'review' | 'block'): Promise<{ server: TestServer; key: string; env: Record<string, string> }> {
    const started = await startTestServer({ api: { writesPerMinute: 0, complianceMode: mode } });
    servers.push(started);
    const key = await started.createKey(`compliance-${mode}`, ['blog:write']);
    return { server: started, key, env: { BLOGPOST_URL: started.url, BLOGPOST_API_KEY: key, BLOGPOST_STATE_FILE: path.join(tmp, 'state.json') } };
  }

  afterAll(async () => {
    await Promise.all(servers.map((started) => started.close()));
    servers = [];
  });

  it('warn: shows the findings at their line before sending, and the server finds no other', async () => {
    const { env } = await server('warn');
    const file = copyFixture('claims.md', 'warn');
    const run = await blogpost(['publish', file], { env, cwd: tmp });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('Compliance (checked offline): 2 findings:');
    expect(run.stderr).toContain(`warn-${CLAIMS_BODY}`);
    expect(run.stderr).toContain('Created "Guaranteed Returns in an IUL" as published');
    expect(run.stderr).not.toContain('The server also found');
    // The server's own findings, placed in the file (a draft: another body, so another create). The
    // first publish wrote id and revision at the top of the front matter: every line moved down two.
    expect(readFileSync(file, 'utf8')).toMatch(/^---\nid: .+\nrevision: 1\ntitle:/);
    const json = await blogpost(['publish', file, '--new', '--status', 'draft', '--json'], { env, cwd: tmp });
    expect(json.code).toBe(0);
    const out = JSON.parse(json.stdout) as { findings?: JsonFinding[] };
    expect(out.findings, 'the server answers a create with its findings').toBeDefined();
    expect(out.findings?.filter((finding) => finding.rule === 'guaranteed-returns').map((finding) => [finding.location?.field, finding.line, finding.column])).toEqual([
      ['title', 4, 9],
      ['content', 14, 31],
    ]);
  });

  it('review: the post is held, not public, and the author sees its state and the reviewer\'s note in list', async () => {
    const { server: site, env } = await server('review');
    const file = copyFixture('claims.md', 'review');
    const run = await blogpost(['publish', file], { env, cwd: tmp });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('Held for compliance review: a staff member approves it at /admin/review; it is not public until then');
    expect((await fetch(`${site.url}/blog/guaranteed-returns-in-an-iul`)).status).toBe(404);

    const held = await blogpost(['list', '--mine', '--status', 'in_review'], { env });
    expect(held.code).toBe(0);
    expect(held.stdout).toMatch(/in_review\s+held /);
    expect(held.stderr).toContain('1 post is held for compliance review: a staff member approves it at /admin/review');

    const id = /^id: (.+)$/m.exec(readFileSync(file, 'utf8'))?.[1] ?? '';
    // A reviewer with a blog:admin key: the author's key may not decide.
    const reviewer = { ...env, BLOGPOST_API_KEY: await site.createKey('reviewer', ['blog:admin']) };
    const queue = await blogpost(['review', 'list'], { env: reviewer });
    expect(queue.code).toBe(0);
    expect(queue.stdout).toMatch(new RegExp(`${id}\\s+Guaranteed Returns in an IUL.*published.*guaranteed-returns`));
    const refused = await blogpost(['review', 'approve', id], { env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('blog:admin');
    const tooShort = await blogpost(['review', 'return', id, '--note', 'Fix it'], { env: reviewer });
    expect(tooShort.code).toBe(1);
    expect(tooShort.stderr).toMatch(/note must say in 10 to 2000 characters/);
    const sentBack = await blogpost(['review', 'return', id, '--note', 'Say what the floor guarantees instead of "guaranteed returns".'], { env: reviewer });
    expect(sentBack.code).toBe(0);
    expect(sentBack.stderr).toContain('Returned "Guaranteed Returns in an IUL" to its author as a draft');
    expect((await site.store.audit.list()).find((entry) => entry.action === 'review.returned' && entry.target === id)).toMatchObject({ actor: expect.stringMatching(/^key:/) });
    const returned = await blogpost(['list', '--mine'], { env });
    expect(returned.stdout).toContain('draft (sent back)');
    expect(returned.stderr).toContain(`${id} "Guaranteed Returns in an IUL": Say what the floor guarantees instead of "guaranteed returns".`);
    const json = await blogpost(['list', '--mine', '--json'], { env });
    const listed = JSON.parse(json.stdout) as { posts: { id: string; review?: { state: string; note: string | null } }[] };
    expect(listed.posts.find((entry) => entry.id === id)?.review).toMatchObject({ state: 'returned', note: 'Say what the floor guarantees instead of "guaranteed returns".' });
  });

  it('review approve: a blog:admin key publishes a held post, which goes public', async () => {
    const { server: site, env } = await server('review');
    const file = copyFixture('claims.md', 'approve');
    expect((await blogpost(['publish', file], { env, cwd: tmp })).code).toBe(0);
    const id = /^id: (.+)$/m.exec(readFileSync(file, 'utf8'))?.[1] ?? '';
    const reviewer = { ...env, BLOGPOST_API_KEY: await site.createKey('approver', ['blog:admin']) };
    // Its high findings were not accepted by its author: the reviewer says why it may go out anyway.
    const unexplained = await blogpost(['review', 'approve', id], { env: reviewer });
    expect(unexplained.code).toBe(1);
    expect(unexplained.stderr).toContain('high findings its author did not accept: to approve it anyway, say why');
    const approved = await blogpost(['review', 'approve', id, '--reason', 'The floor is explained and the quote attributed.', '--json'], { env: reviewer });
    expect(approved.code).toBe(0);
    expect(JSON.parse(approved.stdout)).toMatchObject({ post: { id, status: 'published' } });
    const slug = (JSON.parse(approved.stdout) as { post: { slug: string } }).post.slug;
    expect((await fetch(`${site.url}/blog/${slug}`)).status).toBe(200);
    const empty = await blogpost(['review', 'list'], { env: reviewer });
    expect(empty.stderr + empty.stdout).toContain('No post is waiting for compliance review.');
    // The reason is the approved version's "why" (the table shortens it).
    const history = await blogpost(['history', id], { env: reviewer });
    expect(history.stdout).toContain('approved in compliance review despite high findings: The fl');
  });

  it('block: a 422 shows the findings at their line with the guidance, exit 1', async () => {
    const { server: site, env } = await server('block');
    const file = copyFixture('claims.md', 'block');
    const run = await blogpost(['publish', file], { env, cwd: tmp });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`block-${CLAIMS_BODY}`);
    expect(run.stderr).toContain("The site's compliance rules refuse the post (COMPLIANCE_MODE block): 2 high findings are not accepted, shown above.");
    expect(run.stderr).toContain('Not published: 422 compliance_blocked');
    expect(run.stderr).toContain('→ Rewrite each finding in `findings` as its suggestion says');
    // Shown once, at their place in the file: not again in the refusal.
    expect(run.stderr.split(`block-${CLAIMS_BODY}`)).toHaveLength(2);
    expect(await site.store.posts.counts()).toMatchObject({ published: 0, drafts: 0, scheduled: 0, inReview: 0 });
  });
});
