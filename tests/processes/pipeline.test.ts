/**
 * `blogpost` in a shell pipeline, as real processes: a reader that closes the pipe early ends it
 * quietly with 0; numeric options out of range are usage errors; the version; completion scripts.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../cli/main';
import { Output } from '../../cli/output';
import type { CliIO } from '../../cli/io';
import { blogpost } from '../support/cli';
import { ROOT } from '../support/server';

const BIN = path.join(ROOT, 'cli/bin.js');
const VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
let tmp: string;

beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'blogpost-pipeline-'));
});
afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

/** Runs a bash script with `set -o pipefail`: its exit status and what it wrote. */
function shell(script: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `set -o pipefail\n${script}`], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', BLOGPOST_URL: '', BLOGPOST_API_KEY: '' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** The names of the program's commands, from the program itself. */
function commandNames(): string[] {
  const io: CliIO = { stdout: { write: () => true }, stderr: { write: () => true }, stdin: process.stdin, env: {}, cwd: ROOT, sleep: async () => {} };
  const program = buildProgram({ io, out: new Output(io), exit: () => {} });
  return program.commands.map((command) => command.name());
}

describe('a closed pipe', () => {
  it('--help | head -1 exits 0 with nothing on stderr in 50 runs of 50', async () => {
    const runs = Array.from({ length: 50 }, (_, i) => i);
    const results: Array<{ code: number; stdout: string; stderr: string }> = [];
    // Five at a time: 2 cores are shared.
    for (let i = 0; i < runs.length; i += 5) {
      results.push(...(await Promise.all(runs.slice(i, i + 5).map(() => shell(`node ${BIN} --help | head -1`)))));
    }
    const passed = results.filter((result) => result.code === 0 && result.stderr === '' && result.stdout === 'Examples:\n');
    expect(passed.length).toBe(50);
  }, 180_000);

  it('exits 0 quietly when the reader never reads (the write hits EPIPE), for long outputs too', async () => {
    for (const args of ['--help', 'help exit-codes', 'completion bash', 'diagnose --help']) {
      const result = await shell(`node ${BIN} ${args} | true`);
      expect(result.code, args).toBe(0);
      expect(result.stderr, args).toBe('');
    }
    const head = await shell(`node ${BIN} help exit-codes | head -1`);
    expect(head).toEqual({ code: 0, stdout: 'Exit codes of blogpost:\n', stderr: '' });
  });
});

describe('numeric options', () => {
  const bad = ['abc', '-1', '0', '2.5', '1e3', '99999999999', ''];

  it('refuses a --retries that is not a whole number from 1 to 10 with exit code 2', async () => {
    for (const value of bad) {
      const result = await blogpost(['publish', 'post.md', '--retries', value, '--url', 'http://127.0.0.1:9']);
      expect(result.code, value).toBe(2);
      expect(result.stderr, value).toContain('--retries takes a whole number from 1 to 10.');
    }
  });

  it('refuses a --timeout that is not a whole number of seconds from 1 to 600, on every command that has it', async () => {
    for (const command of [['publish', 'post.md'], ['test', 'python'], ['diagnose']]) {
      for (const value of ['soon', '-5', '0', '100000']) {
        const result = await blogpost([...command, '--timeout', value, '--url', 'http://127.0.0.1:9']);
        expect(result.code, `${command[0]} ${value}`).toBe(2);
        expect(result.stderr, `${command[0]} ${value}`).toContain('--timeout takes a whole number from 1 to 600.');
      }
    }
  });

  it('takes values in range (an unreachable server then answers exit code 3, after one attempt)', async () => {
    const post = path.join(ROOT, 'tests/cli/fixtures/policy-loans.md');
    const result = await blogpost(['publish', post, '--retries', '1', '--timeout', '5', '--key', 'bpk_0000000000_00000000000000000000000000000000000000', '--url', 'http://127.0.0.1:9']);
    expect(result.stderr).not.toContain('takes a whole number');
  });
});

describe('version', () => {
  it('prints the version of package.json for -v, --version and version', async () => {
    for (const args of [['-v'], ['--version'], ['version']]) {
      const result = await blogpost(args);
      expect(result.code, args[0]).toBe(0);
      expect(result.stdout, args[0]).toBe(`${VERSION}\n`);
    }
  });
});

describe('completion', () => {
  it('prints a script for bash, zsh and fish naming every command', async () => {
    const names = commandNames();
    expect(names).toEqual(
      expect.arrayContaining(['publish', 'list', 'get', 'unpublish', 'delete', 'restore', 'history', 'revert', 'schedule', 'validate', 'media', 'diagnose', 'test', 'keys', 'seed', 'backup', 'doctor', 'help', 'version', 'completion']),
    );
    for (const shellName of ['bash', 'zsh', 'fish']) {
      const result = await blogpost(['completion', shellName]);
      expect(result.code, shellName).toBe(0);
      for (const name of names) expect(result.stdout, `${shellName} ${name}`).toMatch(new RegExp(`(^|[\\s'"|(])${name}([\\s'"|):]|$)`, 'm'));
      for (const option of ['--url', '--send', '--validate-only', '--data-dir', '--timeout', '--retries']) {
        expect(result.stdout, `${shellName} ${option}`).toContain(shellName === 'fish' ? `-l ${option.slice(2)}` : option);
      }
    }
    const unknown = await blogpost(['completion', 'powershell']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('bash, zsh, fish');
  });

  it("bash's script passes bash -n and completes commands, subcommands and options", async () => {
    const script = path.join(tmp, 'blogpost.bash');
    writeFileSync(script, (await blogpost(['completion', 'bash'])).stdout);
    expect((await shell(`bash -n ${script}`)).code).toBe(0);
    const complete = (words: string) =>
      shell(`source ${script}\nCOMP_WORDS=(${words}); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _blogpost; echo "\${COMPREPLY[*]}"`).then((r) => r.stdout.trim());
    expect(await complete('blogpost pub')).toBe('publish');
    expect(await complete('blogpost d')).toBe('delete diagnose doctor');
    expect(await complete('blogpost ba')).toBe('backup');
    expect(await complete('blogpost re')).toBe('restore revert review');
    expect(await complete('blogpost review ap')).toBe('approve');
    expect((await complete('blogpost list --f')).split(' ')).toEqual(['--format']);
    expect(await complete('blogpost get slug --mark')).toBe('--markdown');
    expect((await complete('blogpost publish --re')).split(' ')).toEqual(['--retries']);
    expect(await complete('blogpost keys cr')).toBe('create');
    expect(await complete("blogpost media ''")).toBe('upload list delete');
    expect((await complete('blogpost media upload --j')).split(' ')).toEqual(['--json']);
    expect(await complete('blogpost diagnose --url http://x --val')).toBe('--validate-only');
    expect(await complete('blogpost completion z')).toBe('zsh');
    expect(await complete('blogpost help exit')).toBe('exit-codes');
  });
});
