/**
 * Compliance findings at the author's line and column, the same from every command (decision 0022):
 * for 20 generated posts with risky phrases put at known places (the title, the excerpt, a wrapped
 * paragraph, a list, a blockquote, a table cell), `blogpost lint`, `validate` and `publish` (whose
 * findings are the server's, found in the Markdown it was sent) report the same rules at the same line
 * and column of the file, which is where the phrase is; and after publish has added `id` and
 * `revision` to the front matter, the next publish's findings are where `lint` now finds them.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blogpost as runBlogpost, type CliRun } from '../support/cli';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let key: string;
let tmp: string;

beforeAll(async () => {
  server = await startTestServer({ api: { writesPerMinute: 0, validationsPerMinute: 0 } });
  key = await server.createKey('Evelyn laptop', ['blog:write'], 'Evelyn Hartwell');
  tmp = mkdtempSync(path.join(os.tmpdir(), 'blogpost-places-'));
});
afterAll(async () => {
  await server.close();
  rmSync(tmp, { recursive: true, force: true });
});

function blogpost(args: string[]): Promise<CliRun> {
  return runBlogpost(args, { cwd: tmp, env: { BLOGPOST_URL: server.url, BLOGPOST_API_KEY: key, BLOGPOST_STATE_FILE: path.join(tmp, 'state.json') } });
}

interface Placed {
  rule: string;
  line: number | null;
  column: number | null;
}

/** The findings of a command's JSON as `rule@line:column`, sorted. */
function places(findings: readonly Placed[]): string[] {
  return findings.map((finding) => `${finding.rule}@${finding.line ?? '-'}:${finding.column ?? '-'}`).sort();
}

function json(run: CliRun): Record<string, unknown> {
  expect(run.stdout.trim(), run.stderr).not.toBe('');
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

/** Risky sentences, each with the words the rule matches (where its finding is) and the rule. */
const PHRASES = [
  { sentence: 'Some say it is guaranteed returns.', text: 'guaranteed returns', rule: 'guaranteed-returns' },
  { sentence: 'Some call it risk-free.', text: 'risk-free', rule: 'risk-free' },
  { sentence: 'Some say you can never lose money.', text: 'can never lose', rule: 'risk-free' },
] as const;

const filler = fc.constantFrom('The cap limits the credit in a good year.', 'A floor keeps a bad year at zero.', 'Policy charges apply every month.', 'Loans accrue interest at 5.5%.', 'Ask for an in-force illustration.');
const slot = fc.constantFrom('paragraph', 'list', 'quote', 'table', 'excerpt');

/** A post with one risky phrase in each chosen slot; the expected places are found in the text itself. */
const post: fc.Arbitrary<PostSpec> = fc.record({
  phrases: fc.array(fc.tuple(fc.constantFrom(...PHRASES), slot), { minLength: 1, maxLength: 4 }),
  fillers: fc.array(filler, { minLength: 3, maxLength: 8 }),
  wrapAt: fc.integer({ min: 2, max: 5 }),
  titleRisk: fc.boolean(),
});

interface PostSpec {
  phrases: Array<[(typeof PHRASES)[number], string]>;
  fillers: string[];
  wrapAt: number;
  titleRisk: boolean;
}

function postFile(n: number, spec: PostSpec): string {
  const inSlot = (name: string) => spec.phrases.filter(([, where]) => where === name).map(([phrase]) => phrase.sentence);
  const excerpt = inSlot('excerpt').join(' ') || 'What a policy loan costs in a down year.';
  const sentences = [...spec.fillers, ...inSlot('paragraph')];
  // Hard-wrapped: a few sentences a line.
  const lines: string[] = [];
  for (let i = 0; i < sentences.length; i += spec.wrapAt) lines.push(sentences.slice(i, i + spec.wrapAt).join(' '));
  const list = inSlot('list').map((sentence) => `- ${sentence}`);
  const quote = inSlot('quote').map((sentence) => `> ${sentence}`);
  const table = inSlot('table').map((sentence, index) => `| ${index + 1} | ${sentence} |`);
  return [
    '---',
    `title: "Post ${n}: ${spec.titleRisk ? 'Risk-Free Growth' : 'Loans in a Down Year'}"`,
    'category: IUL Strategies',
    `excerpt: "${excerpt}"`,
    'author:',
    '  name: Evelyn Hartwell',
    'status: draft',
    '---',
    '',
    lines.join('\n'),
    ...(list.length > 0 ? ['', ...list] : []),
    ...(quote.length > 0 ? ['', ...quote] : []),
    ...(table.length > 0 ? ['', '| Year | Note |', '|:---:|---:|', ...table] : []),
    '',
  ].join('\n');
}

/** Where each risky phrase is written in the file, line and column from 1. */
function written(text: string, phrase: string): Array<{ line: number; column: number }> {
  const found: Array<{ line: number; column: number }> = [];
  text.split('\n').forEach((line, index) => {
    for (let at = line.toLowerCase().indexOf(phrase.toLowerCase()); at !== -1; at = line.toLowerCase().indexOf(phrase.toLowerCase(), at + 1)) found.push({ line: index + 1, column: at + 1 });
  });
  return found;
}

describe('compliance findings at the author\'s line and column', () => {
  it('are the same from lint, validate and publish for 20 generated posts, before and after publish writes the id', async () => {
    const specs = fc.sample(post, { numRuns: 20, seed: 22 });
    for (const [index, spec] of specs.entries()) {
      const name = `post-${index}.md`;
      const file = path.join(tmp, name);
      writeFileSync(file, postFile(index, spec));
      const text = readFileSync(file, 'utf8');

      const lint = json(await blogpost(['lint', name, '--json']));
      const linted = places(((lint.files as Array<{ findings: Placed[] }>)[0]?.findings ?? []));
      const validated = places(json(await blogpost(['validate', name, '--json'])).findings as Placed[]);
      const published = places(json(await blogpost(['publish', name, '--json'])).findings as Placed[]);
      expect(validated, `validate ${name}`).toEqual(linted);
      expect(published, `publish ${name} (the server's findings)`).toEqual(linted);

      // Every phrase is reported where it is written.
      for (const [phrase] of spec.phrases) {
        const at = written(text, phrase.text);
        expect(at.length, `${phrase.text} in ${name}`).toBeGreaterThan(0);
        for (const place of at) expect(linted, `${phrase.text} in ${name}`).toContain(`${phrase.rule}@${place.line}:${place.column}`);
      }

      // The file now has its id and revision: the next publish's findings are where lint finds them now.
      const updated = readFileSync(file, 'utf8');
      expect(updated).toMatch(/^---\nid: .+\nrevision: 1\n/);
      const relinted = places(((json(await blogpost(['lint', name, '--json'])).files as Array<{ findings: Placed[] }>)[0]?.findings ?? []));
      const republished = json(await blogpost(['publish', name, '--json']));
      expect(places(republished.findings as Placed[]), `publish ${name} again`).toEqual(relinted);
      expect(relinted).not.toEqual(linted);
    }
  });

  it('never says the server\'s rules may be newer when they are the same', async () => {
    writeFileSync(path.join(tmp, 'risky.md'), postFile(99, { phrases: [[PHRASES[0], 'paragraph']], fillers: ['A floor keeps a bad year at zero.'], wrapAt: 2, titleRisk: false }));
    const run = await blogpost(['publish', 'risky.md']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('guaranteed-returns');
    expect(run.stderr).not.toMatch(/newer/);
    expect(run.stderr).not.toContain('The server also found');
  });
});
