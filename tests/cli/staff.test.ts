/**
 * `blogpost staff add|list|disable|reset-password` (through the CLI's own entry, tests/support/cli.ts) on a data directory: the password
 * read from standard input and never shown or stored (the whole data directory is searched for it),
 * weak passwords refused with nothing stored, sessions ended by disable and reset-password, exit codes.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffRecord } from '../../contract/staff';
import { verifyPassword } from '../../api/staff/passwords';
import { sessionRecord } from '../support/store-contract';
import { blogpost as runBlogpost, type CliRun } from '../support/cli';
import { makeTempDir } from '../support/server';
import { inStore } from './data-dir-store';

const dataDir = makeTempDir('iul-cli-staff-');
const at = ['--data-dir', dataDir];
const PASSWORD = 'a quiet harbour at dawn';
const NEW_PASSWORD = 'seven green lanterns by the river';

function blogpost(args: string[], input = ''): Promise<CliRun> {
  return runBlogpost([...args, ...at], { input });
}

/** Every file under the data directory (the database, its write-ahead log), read byte for byte as text. */
function everyFile(dir: string): Array<{ file: string; text: string }> {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? everyFile(file) : [{ file, text: readFileSync(file, 'latin1') }];
  });
}

/** The staff accounts stored, in the order they were added. */
function storedStaff(): Promise<StaffRecord[]> {
  return inStore(dataDir, async (store) => (await store.staff.list()).sort((a, b) => a.createdAt.localeCompare(b.createdAt)));
}

const hashOf = (id: string) => createHash('sha256').update(id).digest('hex');

/** A live session of `staffId`, started now, stored under the hash of `id`. */
const session = (id: string, staffId: string) => sessionRecord(hashOf(id), { staffId, createdAt: new Date().toISOString() });

const outputs: CliRun[] = [];
async function run(args: string[], input = ''): Promise<CliRun> {
  const result = await blogpost(args, input);
  outputs.push(result);
  return result;
}

beforeAll(async () => {
  await inStore(dataDir, async () => undefined);
});
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe('blogpost staff', () => {
  it('is listed in the help, with its subcommands', async () => {
    const help = await runBlogpost(['--help']);
    expect(help.stdout).toMatch(/staff\s+Manage staff accounts/);
    const staff = await runBlogpost(['staff', '--help']);
    expect(staff.code).toBe(0);
    for (const command of ['add [options]', 'list [options]', 'disable [options] <email>', 'reset-password [options] <email>']) expect(staff.stdout).toContain(command);
  });

  it('add reads the password from standard input and stores only its hash', async () => {
    const added = await run(['staff', 'add', '--email', ' Jane@Example.COM ', '--name', 'Jane Agent', '--password-stdin'], `${PASSWORD}\n`);
    expect(added.code).toBe(0);
    expect(added.stderr).toContain('Added staff account jane@example.com ("Jane Agent"');
    const [jane] = await storedStaff();
    expect(jane).toMatchObject({ email: 'jane@example.com', name: 'Jane Agent', disabledAt: null });
    expect(jane?.id).toMatch(/^stf_[A-Za-z0-9]{16}$/);
    expect(jane?.passwordHash).toMatch(/^scrypt\$65536\$8\$1\$/);
    // The trailing newline is not part of the password.
    expect(await verifyPassword(PASSWORD, jane?.passwordHash ?? '')).toBe(true);
  });

  it('add reads standard input without --password-stdin when it is not a terminal, and --json names no hash', async () => {
    const added = await run(['staff', 'add', '--email', 'sam@example.com', '--name', 'Sam Writer', '--json'], NEW_PASSWORD);
    expect(added.code).toBe(0);
    const out = JSON.parse(added.stdout) as { success: boolean; staff: Record<string, unknown> };
    expect(out).toMatchObject({ success: true, staff: { email: 'sam@example.com', name: 'Sam Writer', disabledAt: null } });
    expect(out.staff).not.toHaveProperty('passwordHash');
  });

  it('refuses short, common and guessable passwords, and the e-mail as password, with exit code 2 and nothing stored', async () => {
    const cases: Array<[string, string]> = [
      ['short pw', 'at least 12'],
      ['password1234', 'list of common passwords'],
      ['qwertyuiopasdfgh', 'easy to guess'],
      ['pat@example.com', "the account's e-mail address or name"],
      ['', 'No password on standard input'],
      // Typed twice, as the terminal prompt asks: stored as it was, the account could never sign in.
      [`${PASSWORD}\n${PASSWORD}\n`, 'more than one line'],
      [`${PASSWORD}\r\n${PASSWORD}`, 'more than one line'],
    ];
    for (const [password, message] of cases) {
      const refused = await run(['staff', 'add', '--email', 'pat@example.com', '--name', 'Pat', '--password-stdin'], password);
      expect(refused.code, password).toBe(2);
      expect(refused.stderr).toContain(message);
      expect(refused.stdout).toBe('');
    }
    expect((await storedStaff()).map((s) => s.email)).toEqual(['jane@example.com', 'sam@example.com']);
  });

  it('refuses a taken e-mail in any case (1) and an invalid e-mail (2)', async () => {
    const taken = await run(['staff', 'add', '--email', 'JANE@example.com', '--name', 'Jane Again'], 'a different long harbour');
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('A staff account for jane@example.com exists already');
    expect(taken.stderr).toContain('blogpost staff reset-password jane@example.com');
    const invalid = await run(['staff', 'add', '--email', 'not-an-address', '--name', 'X'], PASSWORD);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain('is not an e-mail address');
    expect(await storedStaff()).toHaveLength(2);
  });

  it('list shows every account as a table or JSON, never a hash', async () => {
    const table = await run(['staff', 'list']);
    expect(table.code).toBe(0);
    const lines = table.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^EMAIL\s+NAME\s+STATUS\s+CREATED\s+PASSWORD CHANGED$/);
    expect(lines[1]).toMatch(/^jane@example\.com\s+Jane Agent\s+active\s+\d{4}-\d{2}-\d{2}\s+\d{4}-\d{2}-\d{2}$/);
    expect(lines).toHaveLength(3);
    const json = await run(['staff', 'list', '--json']);
    expect((JSON.parse(json.stdout) as Array<{ email: string }>).map((s) => s.email)).toEqual(['jane@example.com', 'sam@example.com']);
    expect(json.stdout).not.toContain('scrypt');
  });

  it('disable ends the account\'s sessions, keeps the others, and is harmless twice', async () => {
    const [jane, sam] = await storedStaff();
    await inStore(dataDir, async ({ sessions }) => {
      await sessions.create(session('jane-laptop', jane?.id ?? ''));
      await sessions.create(session('jane-phone', jane?.id ?? ''));
      await sessions.create(session('sam-laptop', sam?.id ?? ''));
    });
    const disabled = await run(['staff', 'disable', 'jane@example.com', '--reason', 'left the agency']);
    expect(disabled.code).toBe(0);
    expect(disabled.stderr).toContain('Disabled staff account jane@example.com: it can no longer sign in, and 2 sessions were ended.');
    await inStore(dataDir, async ({ sessions }) => {
      expect(await sessions.get(hashOf('jane-laptop'))).toBeNull();
      expect(await sessions.get(hashOf('jane-phone'))).toBeNull();
      expect(await sessions.get(hashOf('sam-laptop'))).not.toBeNull();
    });
    expect((await storedStaff())[0]?.disabledAt).not.toBeNull();
    const list = await run(['staff', 'list']);
    expect(list.stdout).toMatch(/jane@example\.com\s+Jane Agent\s+disabled \d{4}-\d{2}-\d{2}/);
    const again = await run(['staff', 'disable', 'jane@example.com']);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('was disabled already');
  });

  it('disable and reset-password of an unknown account fail with 1 and suggest the closest e-mail', async () => {
    const unknown = await run(['staff', 'disable', 'sam@exmaple.com']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No staff account has the e-mail or id "sam@exmaple.com". Did you mean sam@example.com?');
    const reset = await run(['staff', 'reset-password', 'nobody@example.com'], NEW_PASSWORD);
    expect(reset.code).toBe(1);
    expect(reset.stderr).toContain('blogpost staff list');
  });

  it('reset-password sets a new password, ends the sessions, and refuses a weak one', async () => {
    const sam = (await storedStaff())[1];
    const before = sam?.passwordHash ?? '';
    const weak = await run(['staff', 'reset-password', 'sam@example.com', '--password-stdin'], 'samwriter');
    expect(weak.code).toBe(2);
    expect((await storedStaff())[1]?.passwordHash).toBe(before);
    const reset = await run(['staff', 'reset-password', 'SAM@example.com', '--password-stdin'], `${PASSWORD}\n`);
    expect(reset.code).toBe(0);
    expect(reset.stderr).toContain('New password set for sam@example.com; 1 session was ended');
    const after = (await storedStaff())[1];
    expect(await verifyPassword(PASSWORD, after?.passwordHash ?? '')).toBe(true);
    expect(await verifyPassword(NEW_PASSWORD, after?.passwordHash ?? '')).toBe(false);
    expect(after?.passwordChangedAt).not.toBe(sam?.passwordChangedAt);
    expect(await inStore(dataDir, ({ sessions }) => sessions.get(hashOf('sam-laptop')))).toBeNull();
  });

  it('never shows or stores a password: not in any output, nor in any file of the data directory', async () => {
    for (const password of [PASSWORD, NEW_PASSWORD, 'password1234', 'qwertyuiopasdfgh']) {
      for (const output of outputs) {
        expect(output.stdout).not.toContain(password);
        expect(output.stderr).not.toContain(password);
      }
      for (const { file, text } of everyFile(dataDir)) expect(text, file).not.toContain(password);
    }
    const actions = await inStore(dataDir, async (store) => (await store.audit.list()).map((entry) => entry.action));
    expect(actions).toEqual(expect.arrayContaining(['staff.added', 'staff.disabled', 'staff.password_reset']));
  });

  it('reports a data directory without a store with exit code 4', async () => {
    const empty = makeTempDir('iul-cli-staff-empty-');
    try {
      const run = await runBlogpost(['staff', 'list', '--data-dir', path.join(empty, 'none')]);
      expect(run.code).toBe(4);
      expect(run.stderr).toContain('There is no store in');
      expect(readdirSync(empty)).toEqual([]);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
