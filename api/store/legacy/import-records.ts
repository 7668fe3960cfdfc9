/**
 * The records of a file store data directory other than its posts (import-posts.ts), into the store:
 * its API keys and the demo key's date, staff accounts and their sessions, images (whose files stay in
 * media/files), quote requests with their notifications, and the audit log. Each is written through the
 * store seam, read back and compared (import-run.ts); what cannot be read is named and skipped.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { DeliveryRecord } from '../../../contract/leads';
import { MEDIA_FILE_PATTERN } from '../../../contract/media';
import { errorCode } from '../store-error';
import { LEGACY_FILES, type LegacyManifest, readAudit, readDeliveries, readLeads, readMedia, readSessions, readStaff } from './file-store-reader';
import { contentHash, ensureRecord, ImportMismatch, type ImportRun } from './import-run';

/**
 * The API keys as blog.json holds them (names unchecked: an old file may hold two active keys of one
 * name, and must still import whole), and the demo key's date, so no second demo key is issued.
 */
export async function importKeys(run: ImportRun, manifest: LegacyManifest | null): Promise<void> {
  const { store, report } = run;
  const seen = new Set<string>();
  for (const key of manifest?.keys ?? []) {
    if (seen.has(key.id)) {
      report.skipped.push({ file: path.join(run.dataDir, LEGACY_FILES.manifest), reason: `the key id ${key.id} is there twice: the second was not imported` });
      continue;
    }
    seen.add(key.id);
    run.doing = `the API key ${key.id} ("${key.name}") of ${LEGACY_FILES.manifest}`;
    await ensureRecord(run.doing, key, () => store.keys.findById(key.id), () => store.keys.restore(key));
    report.counts.keys++;
  }
  const issued = manifest?.demoKeyIssuedAt ?? null;
  if (issued !== null) {
    run.doing = 'the time the demo key was issued';
    const at = new Date(issued);
    await ensureRecord(run.doing, at.toISOString(), async () => {
      const stored = await store.keys.demoKeyIssuedAt();
      return stored === null ? null : new Date(stored).toISOString();
    }, () => store.keys.markDemoKeyIssued(at));
    report.demoKeyIssuedAt = at.toISOString();
  }
}

/** The staff accounts, then their sign-in sessions: a staff member stays signed in across the upgrade. */
export async function importStaff(run: ImportRun): Promise<void> {
  const { store, report, dataDir } = run;
  // The database refuses a second account with an id or e-mail (in any case) another has.
  const taken = new Set<string>();
  for (const account of await readStaff(dataDir, report.skipped)) {
    const email = account.email.trim().toLowerCase();
    if (taken.has(email) || taken.has(account.id)) {
      report.skipped.push({ file: path.join(dataDir, LEGACY_FILES.staff), reason: `the account ${account.id} (${account.email}) has the id or e-mail of an account before it: it was not imported` });
      continue;
    }
    taken.add(email).add(account.id);
    run.doing = `the staff account ${account.email} of ${LEGACY_FILES.staff}`;
    await ensureRecord(run.doing, account, () => store.staff.findById(account.id), () => store.staff.add(account));
    report.counts.staff++;
  }
  const sessions = await readSessions(dataDir);
  report.skipped.push(...sessions.damaged);
  for (const session of sessions.records) {
    run.doing = `the sign-in session ${LEGACY_FILES.sessions}/${session.idHash}.json`;
    await ensureRecord(run.doing, session, () => store.sessions.get(session.idHash), () => store.sessions.create(session), false);
    report.counts.sessions++;
  }
}

/**
 * The image records, each saved with its variants' bytes read from media/files: the store writes them
 * back to the same names (the same content) and notes each file with the record. A variant whose file
 * is gone is named; the image is imported without it, as the file store served it.
 */
export async function importMedia(run: ImportRun): Promise<void> {
  const { store, report, dataDir } = run;
  const media = await readMedia(dataDir);
  report.skipped.push(...media.damaged);
  const filesDir = path.join(dataDir, LEGACY_FILES.media, 'files');
  for (const record of media.records) {
    const files = new Map<string, Uint8Array>();
    for (const variant of record.variants) {
      const file = path.join(filesDir, variant.file);
      if (MEDIA_FILE_PATTERN.exec(variant.file)?.[1] !== record.id) {
        report.skipped.push({ file: path.join(dataDir, LEGACY_FILES.media, `${record.id}.json`), reason: `"${variant.file}" is not a file name of the image ${record.id}: that variant is not served` });
        continue;
      }
      try {
        files.set(variant.file, new Uint8Array(await readFile(file)));
      } catch (error) {
        if (errorCode(error) !== 'ENOENT') throw error;
        report.skipped.push({ file, reason: `the file of a variant of the image ${record.id} is missing: the image is imported without it, as the file store served it` });
      }
    }
    run.doing = `the image ${LEGACY_FILES.media}/${record.id}.json`;
    await ensureRecord(run.doing, record, () => store.media.get(record.id), () => store.media.save(record, files), false);
    for (const [name, bytes] of files) {
      const stored = await store.media.read(name);
      if (!stored || Buffer.compare(stored, bytes) !== 0) {
        throw new ImportMismatch(`the file media/files/${name} reads back from the store differently from what was imported`);
      }
    }
    report.counts.media++;
    report.counts.mediaFiles += files.size;
  }
}

/**
 * The quote requests, each with its notifications in one write, then the state of those already tried
 * (sent, or failing and waiting for their next attempt). Notifications whose lead cannot be imported
 * are named and left out, as the outbox itself dropped them.
 */
export async function importLeads(run: ImportRun): Promise<void> {
  const { store, report, dataDir } = run;
  const leads = await readLeads(dataDir);
  const deliveries = await readDeliveries(dataDir);
  report.skipped.push(...leads.damaged, ...deliveries.damaged);
  const byLead = new Map<string, DeliveryRecord[]>();
  for (const delivery of deliveries.records) byLead.set(delivery.leadId, [...(byLead.get(delivery.leadId) ?? []), delivery]);
  const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  for (const lead of leads.records) {
    const own = (byLead.get(lead.id) ?? []).sort((a, b) => byText(a.channel, b.channel) || byText(a.id, b.id));
    byLead.delete(lead.id);
    run.doing = `the quote request ${LEGACY_FILES.leads}/${lead.id}.json`;
    await ensureRecord(
      run.doing,
      { lead, deliveries: own },
      async () => {
        const stored = await store.leads.get(lead.id);
        return stored ? { lead: stored, deliveries: await store.outbox.forLead(lead.id) } : null;
      },
      async () => {
        await store.leads.create(lead, own);
        // A notification's state after its attempts (sent, or failing and waiting): stored as the outbox stores it.
        for (const delivery of own) if (delivery.attempts > 0 || delivery.sentAt !== null) await store.outbox.save(delivery);
      },
      false,
    );
    report.counts.leads++;
    report.counts.notifications += own.length;
  }
  for (const [leadId, orphans] of byLead) {
    for (const orphan of orphans) {
      report.skipped.push({ file: path.join(dataDir, LEGACY_FILES.outbox, `${orphan.id}.json`), reason: `its quote request ${leadId} is missing or damaged (the outbox dropped such notifications too)` });
    }
  }
}

/** The audit log, oldest first; a resumed import appends only what the database lacks. */
export async function importAudit(run: ImportRun): Promise<void> {
  const { store, report } = run;
  const entries = await readAudit(run.dataDir, report.skipped);
  run.doing = 'the audit log';
  // A resumed import: the entries appended before it stopped are the first ones of the files.
  const before = await store.audit.list();
  if (before.some((entry, index) => contentHash(entry) !== contentHash(entries[index]))) {
    throw new ImportMismatch(`the audit log in the database (${before.length} entries) is not the start of the file store's (${entries.length} entries)`);
  }
  for (const [index, entry] of entries.slice(before.length).entries()) {
    run.doing = `the audit entry ${before.length + index + 1} of ${entries.length} (${entry.action} at ${entry.at})`;
    await store.audit.append(entry);
  }
  run.doing = 'reading the audit log back';
  const stored = await store.audit.list();
  if (stored.length !== entries.length || stored.some((entry, index) => contentHash(entry) !== contentHash(entries[index]))) {
    throw new ImportMismatch(`the audit log reads back from the database differently from its files (${stored.length} entries, ${entries.length} expected)`);
  }
  report.counts.audit = entries.length;
}

