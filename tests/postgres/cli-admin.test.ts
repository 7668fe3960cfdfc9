/**
 * `blogpost keys|staff|leads|audit|seed|doctor|backup` on PostgreSQL (through the CLI's own entry, tests/support/cli.ts) with DATABASE_URL set and
 * no --data-dir, beside an app server started on the same database (each test on a new database): a
 * key made by the CLI publishes a post on that server and gets 401 once revoked; a staff account added
 * by the CLI signs in there; the demo articles seeded by the CLI are served by its /api/blog at once;
 * a quote request sent to its form is listed, shown, changed and deleted by the CLI; and `blogpost audit`
 * shows what the CLI did, from the database; `blogpost doctor` finds it reachable and migrated, and
 * `blogpost backup` points at pg_dump. DATA_DIR points at a folder that must stay missing: no
 * command falls back to a data directory the servers do not read.
 */
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, inject } from 'vitest';
import type { AuditEntry } from '../../contract/staff';
import { redactedUrl } from '../../api/store/redacted-url';
import { openPostgresStore } from '../../api/store/sql/sql-store';
import { validPost } from '../api/support';
import { blogpost as runBlogpost, type CliRun } from '../support/cli';
import { postQuoteForm } from '../support/leads';
import { freshDatabase } from '../support/postgres-cluster';
import { makeTempDir, startTestServer, type TestServer } from '../support/server';
import { loginTokenOf, staffClient } from '../support/staff-client';

const work = makeTempDir('iul-cli-admin-');
/** The data directory the commands would use without DATABASE_URL: never made. */
const unusedDataDir = path.join(work, 'data');
afterAll(() => rmSync(work, { recursive: true, force: true }));

const PASSWORD = 'correct horse battery staple 42';
/** Runs `test` with a new database, the CLI pointed at it, and an app server on it; closes the server after. */
async function onFreshDatabase(label: string, test: (cli: (args: string[], input?: string) => Promise<CliRun>, server: TestServer, databaseUrl: string) => Promise<void>): Promise<void> {
  const databaseUrl = await freshDatabase(inject('postgresUrl'), label);
  const server = await startTestServer({ openStore: () => openPostgresStore(databaseUrl, redactedUrl(databaseUrl)), leads: { settings: { minFillMs: 0, perHour: 0 } } });
  const cli = (args: string[], input?: string) => runBlogpost(args, { env: { DATABASE_URL: databaseUrl, DATA_DIR: unusedDataDir }, ...(input === undefined ? {} : { input }) });
  try {
    await test(cli, server, databaseUrl);
  } finally {
    await server.close();
  }
  expect(existsSync(unusedDataDir)).toBe(false);
}

async function auditEntries(cli: (args: string[]) => Promise<CliRun>): Promise<AuditEntry[]> {
  const run = await cli(['audit', '--json']);
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as AuditEntry[];
}

describe('blogpost keys, staff, leads, audit and seed with DATABASE_URL', () => {
  it('makes a key that publishes on a server on the same database, lists it, revokes it (then 401), and audits both', async () => {
    await onFreshDatabase('cli_keys', async (cli, server) => {
      const created = await cli(['keys', 'create', '--name', 'Jane Author']);
      expect(created.code).toBe(0);
      expect(created.stderr).toMatch(/Created API key "Jane Author" \(id \w+\) .* in PostgreSQL at postgres:\/\/app@127\.0\.0\.1:\d+\/cli_keys_/);
      const secret = created.stdout.trim();
      const id = /\(id (\w+)\)/.exec(created.stderr)?.[1] ?? '';
      const publish = (title: string) =>
        fetch(`${server.url}/api/blog`, {
          method: 'POST',
          headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
          body: JSON.stringify(validPost({ title, status: 'Published' })),
        });
      expect((await publish('Published With a Key From the CLI')).status).toBe(201);

      const listed = await cli(['keys', 'list']);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toMatch(new RegExp(`${id}\\s+Jane Author\\s+Jane Author\\s+blog:write\\s.*\\sactive`));

      const revoked = await cli(['keys', 'revoke', id, '--reason', 'left the agency']);
      expect(revoked.code).toBe(0);
      expect(revoked.stderr).toContain('Requests with it now get 401.');
      expect((await publish('Refused After the Revocation')).status).toBe(401);

      const entries = await auditEntries(cli);
      expect(entries.map((entry) => [entry.action, entry.actor.startsWith('key:') ? 'key' : entry.target])).toEqual([
        ['key.created', id],
        // The post the key published, logged as the key's (its target is the new post's id).
        ['post.created', 'key'],
        ['key.revoked', id],
      ]);
      expect(entries[1]?.actor).toBe(`key:${id}`);
      expect(entries[2]?.detail).toMatchObject({ reason: 'left the agency' });
    });
  });

  it('adds a staff account that signs in on a server on the same database, and seeds demo posts that server serves at once', async () => {
    await onFreshDatabase('cli_staff', async (cli, server) => {
      const added = await cli(['staff', 'add', '--email', 'agent@example.com', '--name', 'Alex Agent', '--password-stdin'], PASSWORD);
      expect(added.code).toBe(0);
      expect(added.stderr).toMatch(/Added staff account agent@example\.com \("Alex Agent", id stf_\w+\) in PostgreSQL at postgres:\/\/app@/);
      expect((await cli(['staff', 'list'])).stdout).toMatch(/agent@example\.com\s+Alex Agent\s+active/);

      const browser = staffClient(server.url);
      const loginToken = await loginTokenOf(browser);
      const signedIn = await browser.request('/admin/login', { form: { email: 'agent@example.com', password: PASSWORD, loginToken, next: '/admin' } });
      expect(signedIn.status).toBe(303);
      const admin = await browser.request('/admin');
      expect(admin.status).toBe(200);
      expect(await admin.text()).toContain('Alex Agent');

      const total = async () => ((await (await fetch(`${server.url}/api/blog`)).json()) as { total: number }).total;
      expect(await total()).toBe(0);
      const seeded = await cli(['seed']);
      expect(seeded.code).toBe(0);
      const count = Number(/Loaded (\d+) demo articles into PostgreSQL at postgres:\/\/app@.*Running servers show them at once\./.exec(seeded.stderr)?.[1]);
      expect(count).toBeGreaterThan(0);
      // The running server shows them without a restart.
      expect(await total()).toBe(count);
      const again = await cli(['seed']);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('Nothing loaded');
      expect((await auditEntries(cli)).map((entry) => entry.action)).toEqual(expect.arrayContaining(['staff.added', 'staff.signed_in']));
    });
  });

  it('lists, shows, changes and deletes a quote request sent to a server on the same database, and audits it all', async () => {
    await onFreshDatabase('cli_leads', async (cli, server) => {
      const sent = await postQuoteForm(server.url);
      expect(sent.status).toBe(303);

      const listed = await cli(['leads', 'list']);
      expect(listed.code).toBe(0);
      const id = /lead_\w+/.exec(listed.stdout)?.[0] ?? '';
      expect(listed.stdout).toMatch(new RegExp(`${id}\\s.*\\snew\\s+Jane Carter\\s+phone 512-555-0199\\s+45\\s+\\$12,000`));
      const shown = await cli(['leads', 'show', id]);
      expect(shown.code).toBe(0);
      expect(shown.stdout).toMatch(/Quote request lead_\w+\n\s+Status\s+new/);
      expect(shown.stdout).toMatch(/Phone\s+512-555-0199/);

      const set = await cli(['leads', 'set', id, '--status', 'in-progress', '--note', 'Called back', '--by', 'Alex Agent']);
      expect(set.code).toBe(0);
      expect(set.stderr).toContain(`Quote request ${id}: status new → in-progress; note added by Alex Agent (1 in all)`);
      expect(await server.store.leads.get(id)).toMatchObject({ status: 'in-progress', agentNotes: [{ by: 'Alex Agent', text: 'Called back' }] });

      // A visitor who asked to be forgotten: gone from the database the server reads.
      const deleted = await cli(['leads', 'delete', id, '--yes']);
      expect(deleted.code).toBe(0);
      expect(await server.store.leads.get(id)).toBeNull();

      const entries = (await auditEntries(cli)).filter((entry) => entry.target === id);
      expect(entries.map((entry) => [entry.action, entry.detail])).toEqual([
        ['lead.status_changed', { from: 'new', to: 'in-progress' }],
        ['lead.noted', { by: 'Alex Agent' }],
        ['lead.deleted', {}],
      ]);
    });
  });

  it('doctor reports the database reachable at the migration level this version needs; backup points at pg_dump', async () => {
    await onFreshDatabase('cli_doctor', async (cli) => {
      const doctor = await cli(['doctor', '--json']);
      expect(doctor.code, doctor.stderr).toBe(0);
      const report = JSON.parse(doctor.stdout) as { healthy: boolean; engine: string; reachable: boolean; migrations: { applied: string[]; latest: string } };
      expect(report).toMatchObject({ healthy: true, engine: 'postgres', reachable: true });
      expect(report.migrations.applied.at(-1)).toBe(report.migrations.latest);

      const backup = await cli(['backup', path.join(work, 'pg.sqlite')]);
      expect(backup.code).toBe(2);
      expect(backup.stderr).toContain('pg_dump');
      expect(existsSync(path.join(work, 'pg.sqlite'))).toBe(false);
    });
  });
});
