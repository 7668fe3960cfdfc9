/** Staff accounts in staff.json: through the StaffRepository interface, on real files, reopened as another process would. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { StaffRecord } from '../../../contract/staff';
import { staffRecord } from '../store-contract';
import { StoreError } from '../store-error';
import { DurableWriter } from './durable-writer';
import { FileStaffRepository } from './staff-file';

const dirs: string[] = [];
function staffFile(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'iul-staff-file-'));
  dirs.push(dir);
  return path.join(dir, 'staff.json');
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Jane's account, unless told otherwise. */
const account = (overrides: Partial<StaffRecord> = {}): StaffRecord =>
  staffRecord('stf_AAAAAAAAAAAAAAAA', { email: 'jane@example.com', name: 'Jane Agent', ...overrides });

describe('FileStaffRepository', () => {
  it('lists nothing before the file exists', async () => {
    const staff = new FileStaffRepository(staffFile(), new DurableWriter());
    expect(await staff.list()).toEqual([]);
    expect(await staff.findByEmail('jane@example.com')).toBeUndefined();
  });

  it('adds accounts and finds them by id and by e-mail in any case, after a reopen too', async () => {
    const file = staffFile();
    const staff = new FileStaffRepository(file, new DurableWriter());
    await staff.add(account());
    await staff.add(account({ id: 'stf_BBBBBBBBBBBBBBBB', email: 'sam@example.com', name: 'Sam' }));
    const reopened = new FileStaffRepository(file, new DurableWriter());
    expect((await reopened.list()).map((record) => record.email)).toEqual(['jane@example.com', 'sam@example.com']);
    expect((await reopened.findByEmail(' JANE@Example.com '))?.id).toBe('stf_AAAAAAAAAAAAAAAA');
    expect((await reopened.findById('stf_BBBBBBBBBBBBBBBB'))?.name).toBe('Sam');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ format: 'blogpost-staff', version: 1 });
  });

  it("refuses a second account with the same e-mail or id ('conflict'), storing nothing", async () => {
    const staff = new FileStaffRepository(staffFile(), new DurableWriter());
    await staff.add(account());
    await expect(staff.add(account({ id: 'stf_CCCCCCCCCCCCCCCC', email: 'Jane@example.com' }))).rejects.toMatchObject({ problem: 'conflict' });
    await expect(staff.add(account({ email: 'other@example.com' }))).rejects.toBeInstanceOf(StoreError);
    expect(await staff.list()).toHaveLength(1);
  });

  it('updates an account, keeping what the patch does not name; undefined for an unknown id', async () => {
    const file = staffFile();
    const staff = new FileStaffRepository(file, new DurableWriter());
    await staff.add(account());
    const updated = await staff.update('stf_AAAAAAAAAAAAAAAA', { disabledAt: '2026-11-02T00:00:00.000Z', name: undefined });
    expect(updated).toMatchObject({ name: 'Jane Agent', disabledAt: '2026-11-02T00:00:00.000Z' });
    expect(await new FileStaffRepository(file, new DurableWriter()).findById('stf_AAAAAAAAAAAAAAAA')).toEqual(updated);
    expect(await staff.update('stf_ZZZZZZZZZZZZZZZZ', { name: 'Nobody' })).toBeUndefined();
  });

  it('sees a change another process wrote, and applies concurrent changes one at a time', async () => {
    const file = staffFile();
    const server = new FileStaffRepository(file, new DurableWriter());
    const cli = new FileStaffRepository(file, new DurableWriter());
    await server.add(account());
    await cli.update('stf_AAAAAAAAAAAAAAAA', { name: 'Jane A. Agent' });
    expect((await server.findById('stf_AAAAAAAAAAAAAAAA'))?.name).toBe('Jane A. Agent');
    const ids = Array.from({ length: 8 }, (_, i) => `stf_${String(i).repeat(16)}`);
    await Promise.all(ids.map((id, i) => (i % 2 ? server : cli).add(account({ id, email: `${id}@example.com` }))));
    expect(await server.list()).toHaveLength(9);
  });

  it('reports a damaged file and leaves it as it was', async () => {
    const file = staffFile();
    writeFileSync(file, '{"format":"blogpost-staff","version":1,"staff":[{"id":"x"}]}');
    const staff = new FileStaffRepository(file, new DurableWriter());
    await expect(staff.list()).rejects.toMatchObject({ problem: 'corrupt' });
    await expect(staff.add(account())).rejects.toMatchObject({ problem: 'corrupt' });
    expect(readFileSync(file, 'utf8')).toContain('"id":"x"');
  });
});
