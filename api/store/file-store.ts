/**
 * The embedded file store, the default implementation of the store seam (store.ts): `blog.json` (format
 * marker and key hashes) and `posts/<id>.json` (one document per post) in the data directory, with the
 * leads, their notifications, the staff accounts (`staff.json`), their sessions (`sessions/`) and the
 * audit log (`audit/`) and uploaded images (`media/`) beside them, every write durable (file/durable-writer.ts). Opening removes what a crash left (temporary files), moves
 * damaged post files to `quarantine/` with one log line each, and builds the post index, from the
 * snapshot the last close left when it still matches posts/, else from every post file.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { DurableWriter, nodeFileSystem, type WriterFileSystem } from './file/durable-writer';
import { AUDIT_DIR, FileAuditLog } from './file/audit-file';
import { KeyFile } from './file/key-file';
import { removeLeftoverTemps } from './file/leftover-temps';
import { readIndexSnapshot, writeIndexSnapshot } from './file/index-snapshot';
import { listPostFiles, loadPosts, orderPosts, POSTS_DIR } from './file/post-files';
import { FileLeadRepository, FileOutboxRepository, LEADS_DIR, OUTBOX_DIR } from './file/lead-files';
import { FilePostRepository } from './file/post-repository';
import { REVISIONS_DIR } from './file/revision-files';
import { listQuarantine, quarantineFile, restoreCommand } from './file/quarantine';
import { FileMediaRepository, MEDIA_DIR, MEDIA_FILES_DIR } from './file/media-files';
import { FileSessionRepository, SESSIONS_DIR } from './file/session-files';
import { FileStaffRepository, STAFF_FILE } from './file/staff-file';
import type { AuditLog, KeyRepository, LeadRepository, OutboxRepository, SessionRepository, StaffRepository, Store } from './store';
import { unwritable } from './store-error';

export { checkDataDir, type DataDirCheck } from './file/data-dir-check';
export { listQuarantine, restoreCommand } from './file/quarantine';

export interface OpenFileStoreOptions {
  now?: () => Date;
  /** Where the store says what it did on its own (a file quarantined); the server's log. */
  log?: (line: string) => void;
  /** The file-system calls of writes (tests inject failures through it). */
  fileSystem?: WriterFileSystem;
}

async function ensureDir(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    throw unwritable(dir, error);
  }
}

/** Opens (creating when empty) the whole store; throws a StoreError with an operator-readable message. */
export async function openFileStore(dataDir: string, options: OpenFileStoreOptions = {}): Promise<Store> {
  const now = options.now ?? (() => new Date());
  const log = options.log ?? (() => undefined);
  const writer = new DurableWriter(options.fileSystem ?? nodeFileSystem);
  const postsDir = path.join(dataDir, POSTS_DIR);
  const revisionsDir = path.join(dataDir, REVISIONS_DIR);
  const leadsDir = path.join(dataDir, LEADS_DIR);
  const outboxDir = path.join(dataDir, OUTBOX_DIR);
  const sessionsDir = path.join(dataDir, SESSIONS_DIR);
  const auditDir = path.join(dataDir, AUDIT_DIR);
  const mediaDir = path.join(dataDir, MEDIA_DIR);
  const mediaFilesDir = path.join(dataDir, MEDIA_FILES_DIR);
  for (const dir of [postsDir, revisionsDir, leadsDir, outboxDir, sessionsDir, auditDir, mediaDir, mediaFilesDir]) await ensureDir(dir);
  const leftovers = await removeLeftoverTemps([dataDir, postsDir, revisionsDir, leadsDir, outboxDir, sessionsDir, auditDir, mediaDir, mediaFilesDir]);
  if (leftovers > 0) log(`Removed ${leftovers} temporary file(s) left in ${dataDir} by an interrupted write (never a stored post).`);

  const opened = await KeyFile.open(dataDir, { create: true, now, writer });
  if (!opened) throw new Error('unreachable: the key file is created when missing');
  const names = await listPostFiles(postsDir);
  const snapshot = await readIndexSnapshot(dataDir, postsDir, names);
  const loaded = snapshot ? { entries: snapshot, damaged: [] } : orderPosts(postsDir, loadPosts(postsDir, names));
  for (const damaged of loaded.damaged.sort((a, b) => a.file.localeCompare(b.file))) {
    const moved = await quarantineFile(dataDir, damaged.file, damaged.reason, now(), writer);
    log(
      `Moved the damaged post file ${moved.originalFile} (${moved.reason}) to ${moved.file}; every other post is served. ` +
        `To restore it, repair the file, run \`${restoreCommand(moved)}\` and restart the server (blogpost doctor lists quarantined files).`,
    );
  }
  // Posts stored before keys had owners belong to the owner of the key that created them.
  const owners = new Map((await opened.keys.list()).map((key) => [key.id, key.owner ?? key.name]));
  const entries = loaded.entries.map((entry) => (entry.owner === null && entry.createdByKeyId ? { ...entry, owner: owners.get(entry.createdByKeyId) ?? null } : entry));
  const posts = new FilePostRepository({ posts: postsDir, revisions: revisionsDir }, entries, writer, now);
  const outbox = new FileOutboxRepository(outboxDir, writer);
  const leads = new FileLeadRepository(leadsDir, writer, outbox);
  const staffStore = staffStoreIn(dataDir, writer);
  const flush = async () => {
    await Promise.all([posts.flush(), opened.keys.flush()]);
  };
  return {
    posts,
    keys: opened.keys,
    leads,
    outbox,
    ...staffStore,
    media: new FileMediaRepository(mediaDir, writer),
    created: opened.created,
    quarantined: () => listQuarantine(dataDir),
    flush,
    close: async () => {
      await flush();
      // A cache for the next start: when it cannot be written, that start reads every post file.
      await writeIndexSnapshot(dataDir, postsDir, posts.entries(), writer).catch(() => undefined);
    },
  };
}

/**
 * Opens only the keys (what `blogpost keys` needs, beside a running server): reads blog.json alone,
 * never the posts. Null when there is no store and `create` is false.
 */
export async function openKeyStore(dataDir: string, options: { create: boolean; now?: () => Date }): Promise<KeyRepository | null> {
  if (options.create) await ensureDir(dataDir);
  const opened = await KeyFile.open(dataDir, { create: options.create, now: options.now ?? (() => new Date()) });
  return opened?.keys ?? null;
}

/**
 * Opens only the leads and their notifications (what `blogpost leads` needs, beside a running server):
 * never the posts or the keys. Null when there is no store yet.
 */
export async function openLeadStore(dataDir: string): Promise<{ leads: LeadRepository; outbox: OutboxRepository } | null> {
  const opened = await KeyFile.open(dataDir, { create: false, now: () => new Date() });
  if (!opened) return null;
  const writer = new DurableWriter();
  const outbox = new FileOutboxRepository(path.join(dataDir, OUTBOX_DIR), writer);
  return { leads: new FileLeadRepository(path.join(dataDir, LEADS_DIR), writer, outbox), outbox };
}

/** The staff accounts, their sessions and the audit log of a data directory. */
export interface StaffStore {
  staff: StaffRepository;
  sessions: SessionRepository;
  audit: AuditLog;
}

function staffStoreIn(dataDir: string, writer: DurableWriter): StaffStore {
  return {
    staff: new FileStaffRepository(path.join(dataDir, STAFF_FILE), writer),
    sessions: new FileSessionRepository(path.join(dataDir, SESSIONS_DIR), writer),
    audit: new FileAuditLog(path.join(dataDir, AUDIT_DIR)),
  };
}

/**
 * Opens only the staff accounts, their sessions and the audit log (what `blogpost staff` and
 * `blogpost audit`, and the commands that write to the audit log, need beside a running server):
 * never the posts. Null when there is no store yet. The audit folder is made at the first append.
 */
export async function openStaffStore(dataDir: string): Promise<StaffStore | null> {
  const opened = await KeyFile.open(dataDir, { create: false, now: () => new Date() });
  if (!opened) return null;
  return staffStoreIn(dataDir, new DurableWriter());
}

/** The audit log of a data directory, for commands that append to it or read it (the folder is made at the first append). */
export function openAuditLog(dataDir: string): FileAuditLog {
  return new FileAuditLog(path.join(dataDir, AUDIT_DIR));
}
