/**
 * `blogpost diagnose` (through the CLI's own entry, tests/support/cli.ts) against a real server: curl bodies read from @file as curl
 * reads them, revoked and read-only keys named (from the data directory or from the server), probe
 * mode with a revoked key, and `--send` / `--validate-only`, checked against the posts on the server.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyService } from '../../api/services/keys';
import { blogpost } from '../support/cli';
import { makeTempDir, ROOT, startTestServer, type TestServer } from '../support/server';
import { validPost } from '../api/support';

let server: TestServer;
let writer: string;
let reader: string;
let revoked: string;
let tmp: string;
/** A data directory that holds no key: the key is then asked of the server. */
let emptyDataDir: string;

beforeAll(async () => {
  server = await startTestServer({ api: { writesPerMinute: 0 } });
  writer = await server.createKey('diagnose-writer', ['blog:write']);
  reader = await server.createKey('diagnose-reader', ['blog:read']);
  revoked = await server.createKey('diagnose-revoked', ['blog:write']);
  await new KeyService(server.store.keys).revoke('diagnose-revoked');
  tmp = mkdtempSync(path.join(os.tmpdir(), 'blogpost-diagnose-'));
  emptyDataDir = makeTempDir('iul-no-keys-');
});
afterAll(async () => {
  await server.close();
  rmSync(tmp, { recursive: true, force: true });
  rmSync(emptyDataDir, { recursive: true, force: true });
});

/** Runs blogpost in the temporary folder (where the body files are), with no data directory holding keys. */
function run(args: string[], extra: Record<string, string> = {}) {
  return blogpost(args, { cwd: tmp, env: { BLOGPOST_URL: server.url, DATA_DIR: emptyDataDir, ...extra } });
}

/** Writes a curl command into the temporary folder and returns its name. */
function curlFile(name: string, key: string, dataOptions: string, extraHeaders = "-H 'Content-Type: application/json'"): string {
  writeFileSync(path.join(tmp, name), `curl -X POST ${server.url}/api/blog \\\n  -H 'Authorization: Bearer ${key}' \\\n  ${extraHeaders} \\\n  ${dataOptions}\n`);
  return name;
}

/** Every post on the server, drafts included, by slug. */
async function allSlugs(): Promise<string[]> {
  const slugs: string[] = [];
  for (const query of ['status=draft', '']) {
    const response = await fetch(`${server.url}/api/blog?limit=100&${query}`, { headers: { authorization: `Bearer ${reader}` } });
    const body = (await response.json()) as { posts: { slug: string }[] };
    slugs.push(...body.posts.map((post) => post.slug));
  }
  return slugs.sort();
}

describe('curl bodies from files', () => {
  // A raw line break inside a JSON string: curl's -d drops it (valid JSON), --data-binary keeps it (invalid).
  const withBreak = JSON.stringify(validPost({ title: 'Line break title' })).replace('Line break', 'Line\r\nbreak');

  it('reads -d @file and --data @file from the current folder, dropping CR and LF as curl does', async () => {
    writeFileSync(path.join(tmp, 'broken-line.json'), withBreak);
    for (const option of ['-d', '--data']) {
      const result = await run(['diagnose', '--request', curlFile(`d-${option}.sh`, writer, `${option} @broken-line.json`), '--validate-only']);
      expect(result.stderr, option).toContain('The request itself looks right');
      expect(result.stderr, option).toContain('the API accepted the post (validated only, nothing was saved)');
      expect(result.stderr, option).not.toContain('@broken-line.json');
      expect(result.code, option).toBe(0);
    }
  });

  it('keeps the bytes of --data-binary @file and --json @file', async () => {
    const binary = await run(['diagnose', '--request', curlFile('binary.sh', writer, '--data-binary @broken-line.json')]);
    expect(binary.code).toBe(1);
    expect(binary.stderr).toContain('The body is not valid JSON');
    writeFileSync(path.join(tmp, 'post.json'), `${JSON.stringify(validPost(), null, 2)}\n`);
    const json = await run(['diagnose', '--request', curlFile('json.sh', writer, '--json @post.json', '')]);
    expect(json.stderr).toContain('The request itself looks right');
    expect(json.code).toBe(0);
  });

  it('takes --data-raw @file as the literal text', async () => {
    const raw = await run(['diagnose', '--request', curlFile('raw.sh', writer, '--data-raw @post.json')]);
    expect(raw.code).toBe(1);
    expect(raw.stderr).toContain('The body is not valid JSON');
  });

  it('names a body file that is not there, with exit code 4', async () => {
    const missing = await run(['diagnose', '--request', curlFile('missing.sh', writer, '-d @no-such-body.json')]);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain('Cannot read no-such-body.json');
    expect(missing.stderr).toContain('no such file');
    expect(missing.stderr).toContain(path.join(tmp, 'no-such-body.json'));
  });
});

describe('keys that cannot write', () => {
  it('says a captured request with a revoked key is revoked: from the data directory, and from the server', async () => {
    writeFileSync(path.join(tmp, 'post.json'), JSON.stringify(validPost()));
    const file = curlFile('revoked.sh', revoked, '-d @post.json');
    const offline = await run(['diagnose', '--request', file, '--offline', '--data-dir', server.dataDir]);
    expect(offline.code).toBe(1);
    expect(offline.stderr).toContain('API key: the key is revoked');
    expect(offline.stderr).toContain(`the data directory ${server.dataDir}`);
    expect(offline.stderr).not.toContain('looks right');
    const asked = await run(['diagnose', '--request', file]);
    expect(asked.code).toBe(1);
    expect(asked.stderr).toContain('API key: the key is revoked');
    expect(asked.stderr).toContain(`${server.url}/api/blog/validate`);
    expect(asked.stderr).toContain("Ask the site's administrator for a new key with blog:write");
    expect(asked.stderr).not.toContain('looks right');
  });

  it('says a key without blog:write lacks it, from the data directory (DATA_DIR) and from the server', async () => {
    const file = curlFile('reader.sh', reader, '-d @post.json');
    const offline = await run(['diagnose', '--request', file, '--offline'], { DATA_DIR: server.dataDir });
    expect(offline.code).toBe(1);
    expect(offline.stderr).toContain('API key: the key lacks blog:write (it holds blog:read)');
    expect(offline.stderr).not.toContain('looks right');
    const asked = await run(['diagnose', '--request', file, '--json']);
    expect(asked.code).toBe(1);
    expect(JSON.parse(asked.stdout)).toMatchObject({ success: false, key: { state: 'lacks_write' } });
  });

  it('says once, in probe mode, that the key is revoked, and runs the probes without it', async () => {
    const result = await run(['diagnose', '--key', revoked]);
    expect(result.code).toBe(1);
    expect(result.stderr.match(/the key is revoked/g)).toHaveLength(1);
    expect(result.stderr).toContain("Ask the site's administrator for a new key with blog:write");
    expect(result.stderr).not.toContain('FAIL');
    expect(result.stderr).not.toContain('created');
    expect(result.stderr).toContain('All 5 probes passed (without the key).');
    const fromDir = await run(['diagnose', '--key', revoked, '--data-dir', server.dataDir, '--json']);
    expect(fromDir.code).toBe(1);
    const report = JSON.parse(fromDir.stdout) as { success: boolean; key: { state: string; revokedAt?: string }; probes: { success: boolean }[] };
    expect(report.key.state).toBe('revoked');
    expect(report.key.revokedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(report.probes.every((probe) => probe.success)).toBe(true);
  });

  it('never says "created" in probe mode with a good key: the probes only validate', async () => {
    const before = await allSlugs();
    const result = await run(['diagnose', '--key', writer]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('API key: active, holds blog:write');
    expect(result.stderr).not.toContain('created');
    expect(await allSlugs()).toEqual(before);
  });
});

describe('--send and --validate-only', () => {
  it('refuses --send without a terminal and without --yes, sending nothing', async () => {
    writeFileSync(path.join(tmp, 'post.json'), JSON.stringify(validPost({ title: 'Sent Without Asking' })));
    const before = await allSlugs();
    const result = await run(['diagnose', '--request', curlFile('send.sh', writer, '-d @post.json'), '--send']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('creates a real post');
    expect(result.stderr).toContain('no terminal to confirm on');
    expect(result.stderr).toContain('--yes');
    expect(result.stderr).toContain('--validate-only');
    expect(await allSlugs()).toEqual(before);
  });

  it('asks on a terminal before --send creates a post, and sends nothing when told no', async () => {
    const before = await allSlugs();
    // util-linux `script` gives the command a terminal; the answer is typed once the question shows.
    const command = `${process.execPath} ${path.join(ROOT, 'cli/bin.js')} diagnose --request send.sh --send`;
    const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: tmp, env: { ...process.env, NO_COLOR: '1', BLOGPOST_URL: server.url, DATA_DIR: emptyDataDir } });
    let output = '';
    let answered = false;
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (!answered && output.includes('Send it? [y/N]')) {
        answered = true;
        child.stdin.write('n\n');
      }
    });
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(output).toContain('the server creates a real post when it accepts it');
    expect(output).toContain('Nothing was sent.');
    expect(code).toBe(0);
    expect(await allSlugs()).toEqual(before);
  });

  it('sends to the validation endpoint with --validate-only and creates nothing', async () => {
    const before = await allSlugs();
    const result = await run(['diagnose', '--request', 'send.sh', '--validate-only']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`${server.url}/api/blog/validate`);
    expect(result.stderr).toContain('nothing was saved');
    expect(result.stderr).not.toContain('created');
    expect(await allSlugs()).toEqual(before);
  });

  it('with --send --yes creates the post, says so from the 201, and reports the server warnings', async () => {
    writeFileSync(path.join(tmp, 'odd-category.json'), JSON.stringify(validPost({ title: 'Filed Somewhere Else', category: 'Not A Real Category' })));
    const before = await allSlugs();
    const result = await run(['diagnose', '--request', curlFile('warned.sh', writer, '-d @odd-category.json'), '--send', '--yes']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('creates a real post');
    expect(result.stderr).toContain('The server answered 201: the API created the post "filed-somewhere-else" as draft');
    expect(result.stderr).toMatch(/Server warning: .*Not A Real Category/);
    expect(await allSlugs()).toEqual([...before, 'filed-somewhere-else'].sort());
  });
});
