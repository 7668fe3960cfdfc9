/**
 * What a real `blogpost` process loads (decision 0035): `--help`, `--version`, `help <command>` and
 * `completion` run the built CLI's entry alone, which holds commander and the commands' wiring and
 * none of the libraries or command code; `validate` loads its own code and not the store, the mail
 * or HTTP clients. A loader hook records every module file the process imports, and each file's
 * source map names what it was built from.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/server';

const work = mkdtempSync(path.join(os.tmpdir(), 'iul-cli-loads-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Loader hooks (run by Node in their own thread) that append each file: URL loaded to $LOADS_FILE. */
const HOOKS = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  if (url.startsWith('file:')) appendFileSync(process.env.LOADS_FILE, url + '\\n');
  return next(url, context);
}`;
const REGISTER = `import { register } from 'node:module';
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOKS)}`)});`;

/** Libraries a command that only prints help or the version has no use for. */
const HEAVY = /node_modules\/(zod|postcss|esprima|marked|sanitize-html|gray-matter|js-yaml|kysely|pg|better-sqlite3|undici|turndown|nodemailer|file-type|fflate|csv-stringify)\//;

interface Loads {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The built files the process imported, relative to the project. */
  files: string[];
  /** What those files were built from (their source maps' sources), relative to the project. */
  sources: string[];
}

let runs = 0;

function loadsOf(args: readonly string[]): Loads {
  const loadsFile = path.join(work, `loads-${runs++}.txt`);
  const result = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(REGISTER)}`, path.join(ROOT, 'cli/bin.js'), ...args], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', LOADS_FILE: loadsFile },
    encoding: 'utf8',
  });
  let urls: string[] = [];
  try {
    urls = readFileSync(loadsFile, 'utf8').trim().split('\n');
  } catch {
    // nothing loaded from a file
  }
  const files = urls.map((url) => path.relative(ROOT, fileURLToPath(url)));
  const sources = files
    .filter((file) => file.startsWith('build/app/'))
    .flatMap((file) => {
      // A chunk of the bundler's own helpers has no map: it was built from nothing of ours.
      if (!existsSync(path.join(ROOT, `${file}.map`))) return [];
      const map = JSON.parse(readFileSync(path.join(ROOT, `${file}.map`), 'utf8')) as { sources: string[] };
      return map.sources.map((source) => path.relative(ROOT, path.resolve(path.dirname(path.join(ROOT, file)), source)).replace(/^.*node_modules\//, 'node_modules/'));
    });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, files, sources };
}

describe('what a blogpost process loads', () => {
  it('runs the built CLI, not the TypeScript sources (the build is fresh)', () => {
    const { code, files } = loadsOf(['--version']);
    expect(code).toBe(0);
    expect(files).toContain('build/app/cli.js');
    expect(files.filter((file) => file.endsWith('.ts'))).toEqual([]);
  });

  it.each([['--help'], ['--version'], ['help', 'publish'], ['completion', 'bash']])('blogpost %s loads the entry alone: commander and the wiring, no library and no command code', (...args) => {
    const { code, stdout, files, sources } = loadsOf(args);
    expect(code).toBe(0);
    expect(stdout.length).toBeGreaterThan(0);
    expect(files.filter((file) => file.startsWith('build/'))).toEqual(['build/app/cli.js']);
    expect(sources.filter((source) => HEAVY.test(source))).toEqual([]);
    expect(sources.filter((source) => source.startsWith('api/'))).toEqual([]);
    // Only the commands that are wiring themselves (help, version, completion) are in the entry.
    expect(sources.filter((source) => source.startsWith('cli/commands/')).sort()).toEqual(['cli/commands/completion.ts', 'cli/commands/help.ts', 'cli/commands/version.ts']);
    expect(sources).toContain('cli/wiring/publish.ts');
  });

  it('blogpost validate loads its own code and what checks a post, not the store, mail or HTTP clients', () => {
    const post = path.join(ROOT, 'tests/cli/fixtures/policy-loans.md');
    const { code, stderr, sources } = loadsOf(['validate', post]);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('Valid: "How Policy Loans Work in an IUL"');
    expect(sources).toContain('cli/commands/validate.ts');
    expect(sources.filter((source) => /node_modules\/(kysely|pg|better-sqlite3|undici|nodemailer|turndown|esprima)\//.test(source))).toEqual([]);
    expect(sources.filter((source) => /^api\/(store|staff|leads|analytics)\//.test(source))).toEqual([]);
    expect(sources.filter((source) => /^cli\/commands\/(?!validate)/.test(source))).toEqual(['cli/commands/completion.ts', 'cli/commands/help.ts', 'cli/commands/version.ts']);
  });
});
