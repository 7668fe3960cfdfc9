/**
 * Reads a data directory the way the file store of the previous release left it (one JSON file per
 * post, lead, notification, session and image record, `blog.json`, `staff.json`, monthly audit files),
 * for its one-time import into the SQL store. It only reads: every file is parsed and checked with the
 * schemas that store used, and a file that cannot be used comes back named with the reason instead of
 * stopping the import, so one damaged file costs that file only. The layout is written down here on
 * purpose: the file store's own code is gone, and this is the one place that still knows it.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { DeliveryRecord, LeadRecord } from '../../../contract/leads';
import { MEDIA_ID_PATTERN } from '../../../contract/media';
import type { AuditEntry, SessionRecord, StaffRecord } from '../../../contract/staff';
import {
  auditEntrySchema,
  staffRecordSchema,
  deliveryRecordSchema,
  type KeyRecord,
  keyRecordSchema,
  leadRecordSchema,
  type MediaRecord,
  mediaRecordSchema,
  type PostRecord,
  postRecordSchema,
  REVISIONS_FORMAT,
  revisionsFileSchema,
  STORE_FORMAT,
  STORE_VERSION,
  type StoredRevision,
} from '../records';
import { errorCode } from '../store-error';

/** The file store's files and folders in DATA_DIR (media/ also holds media/files/, which stays). */
export const LEGACY_FILES = {
  manifest: 'blog.json',
  indexSnapshot: 'posts-index.json',
  staff: 'staff.json',
  posts: 'posts',
  revisions: 'revisions',
  leads: 'leads',
  outbox: 'outbox',
  sessions: 'sessions',
  audit: 'audit',
  media: 'media',
  quarantine: 'quarantine',
} as const;

/** A file, or a part of one, that could not be used, and why. */
export interface DamagedFile {
  file: string;
  reason: string;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

/** `.name.<random>.tmp`: what a write the file store's crash interrupted left behind (never data). */
export function isTempFileName(name: string): boolean {
  return name.startsWith('.') && name.endsWith('.tmp');
}

const staffDocumentSchema = z.object({ format: z.literal('blogpost-staff'), version: z.literal(1), staff: z.array(z.unknown()) });

const sessionRecordSchema = z.object({
  idHash: z.string().regex(/^[0-9a-f]{64}$/),
  staffId: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
  ip: z.string(),
  userAgent: z.string(),
}) satisfies z.ZodType<SessionRecord>;

/** blog.json with its keys unchecked, so one bad key costs that key only. */
const manifestEnvelopeSchema = z.object({
  format: z.literal(STORE_FORMAT),
  version: z.literal(STORE_VERSION),
  createdAt: z.string(),
  demoKeyIssuedAt: z.string().nullable(),
  keys: z.array(z.unknown()),
});

const quarantineNoteSchema = z.object({ originalPath: z.string(), reason: z.string(), movedAt: z.string() });

const AUDIT_FILE = /^audit-\d{4}-\d{2}\.jsonl$/;
/** A notification id, as the file store named its file (and the SQL store still checks). */
const SAFE_NAME = /^[A-Za-z0-9_.-]+$/;

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function checked<T>(raw: unknown, schema: z.ZodType<T>): Parsed<T> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  return { ok: false, reason: `unexpected content at ${issue ? `${issue.path.join('.') || '(top level)'}: ${issue.message}` : 'an unknown place'}` };
}

function parsedText<T>(text: string, schema: z.ZodType<T>): Parsed<T> {
  if (text.trim() === '') return { ok: false, reason: `the file is empty (${text.length} bytes), as a write cut off by a power loss leaves it` };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `not valid JSON: ${message(error)}` };
  }
  return checked(raw, schema);
}

/** One file parsed and checked; null when it does not exist; why not, when it cannot be read or used. */
export async function readChecked<T>(file: string, schema: z.ZodType<T>): Promise<Parsed<T> | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    return { ok: false, reason: `cannot be read: ${message(error)}` };
  }
  return parsedText(text, schema);
}

/** The `.json` files of a folder, sorted (none when it does not exist), never a temporary file. */
async function jsonFiles(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((name) => name.endsWith('.json') && !isTempFileName(name)).sort();
  } catch (error) {
    if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') return [];
    throw error;
  }
}

/** Every record of a folder of one-record files, checked, and whose name matches `nameOf(record)`. */
async function readFolder<T>(dir: string, schema: z.ZodType<T>, nameOf: (record: T) => string, what: string): Promise<{ records: T[]; damaged: DamagedFile[] }> {
  const records: T[] = [];
  const damaged: DamagedFile[] = [];
  for (const name of await jsonFiles(dir)) {
    const file = path.join(dir, name);
    const parsed = await readChecked(file, schema);
    if (parsed === null) continue;
    if (!parsed.ok) damaged.push({ file, reason: parsed.reason });
    else if (`${nameOf(parsed.value)}.json` !== name) damaged.push({ file, reason: `its ${what} "${nameOf(parsed.value)}" does not match the file name` });
    else records.push(parsed.value);
  }
  return { records, damaged };
}

/** What blog.json holds besides its format marker. */
export interface LegacyManifest {
  demoKeyIssuedAt: string | null;
  keys: KeyRecord[];
}

/** blog.json: the keys and when the demo key was issued; null when it is missing or damaged as a whole. */
export async function readManifest(dataDir: string, damaged: DamagedFile[]): Promise<LegacyManifest | null> {
  const file = path.join(dataDir, LEGACY_FILES.manifest);
  const parsed = await readChecked(file, manifestEnvelopeSchema);
  if (parsed === null) return null;
  if (!parsed.ok) {
    damaged.push({ file, reason: `${parsed.reason}; no API key or demo-key date was imported from it` });
    return null;
  }
  const keys: KeyRecord[] = [];
  parsed.value.keys.forEach((raw, index) => {
    const key = checked(raw, keyRecordSchema);
    if (key.ok) keys.push(key.value);
    else damaged.push({ file: `${file} (key ${index + 1})`, reason: key.reason });
  });
  return { demoKeyIssuedAt: parsed.value.demoKeyIssuedAt, keys };
}

/** What planning the posts needs of one: everything but the body, which is read again when it is imported. */
export interface LegacyPostEntry {
  file: string;
  id: string;
  seq: number;
  slug: string;
  title: string;
  previousSlugs: string[];
  owner: string | null;
  createdByKeyId: string | null;
}

/** One post file, checked (its id must match its name). */
export async function readPost(file: string): Promise<Parsed<PostRecord>> {
  const parsed = (await readChecked(file, postRecordSchema)) ?? { ok: false, reason: 'the file disappeared while it was being imported' };
  if (parsed.ok && `${parsed.value.id}.json` !== path.basename(file)) return { ok: false, reason: `its id "${parsed.value.id}" does not match the file name` };
  return parsed;
}

/** Every post file's entry (bodies are not kept), in no particular order. */
export async function scanPosts(dataDir: string, damaged: DamagedFile[]): Promise<LegacyPostEntry[]> {
  const dir = path.join(dataDir, LEGACY_FILES.posts);
  const entries: LegacyPostEntry[] = [];
  for (const name of await jsonFiles(dir)) {
    const file = path.join(dir, name);
    const parsed = await readPost(file);
    if (!parsed.ok) {
      damaged.push({ file, reason: parsed.reason });
      continue;
    }
    const { id, seq, slug, title, previousSlugs, owner, createdByKeyId } = parsed.value;
    entries.push({ file, id, seq, slug, title, previousSlugs, owner, createdByKeyId });
  }
  return entries;
}

/** A post's kept versions, newest first (none when it has no file); why not, when its file is damaged. */
export async function readRevisions(dataDir: string, postId: string): Promise<Parsed<StoredRevision[]> & { file: string }> {
  const file = path.join(dataDir, LEGACY_FILES.revisions, `${postId}.json`);
  const parsed = await readChecked(file, revisionsFileSchema);
  if (parsed === null) return { ok: true, value: [], file };
  if (!parsed.ok) return { ...parsed, file };
  if (parsed.value.format !== REVISIONS_FORMAT || parsed.value.postId !== postId) return { ok: false, reason: `it belongs to post ${parsed.value.postId}`, file };
  return { ok: true, value: parsed.value.revisions, file };
}

/** The revision files of posts that are not among `postIds` (their post is damaged or gone). */
export async function strayRevisionFiles(dataDir: string, postIds: ReadonlySet<string>): Promise<string[]> {
  const dir = path.join(dataDir, LEGACY_FILES.revisions);
  return (await jsonFiles(dir)).filter((name) => !postIds.has(name.slice(0, -'.json'.length))).map((name) => path.join(dir, name));
}

/** The quote requests of leads/ (a file per lead, named by its id). */
export async function readLeads(dataDir: string): Promise<{ records: LeadRecord[]; damaged: DamagedFile[] }> {
  return readFolder(path.join(dataDir, LEGACY_FILES.leads), leadRecordSchema, (lead) => lead.id, 'id');
}

/** The notifications of outbox/ (`<lead id>.<channel>.json`), sent or waiting; an id the database would refuse is named. */
export async function readDeliveries(dataDir: string): Promise<{ records: DeliveryRecord[]; damaged: DamagedFile[] }> {
  const read = await readFolder(path.join(dataDir, LEGACY_FILES.outbox), deliveryRecordSchema, (delivery) => delivery.id, 'id');
  const records = read.records.filter((record) => {
    if (SAFE_NAME.test(record.id)) return true;
    read.damaged.push({ file: path.join(dataDir, LEGACY_FILES.outbox, `${record.id}.json`), reason: `"${record.id}" is not a notification id` });
    return false;
  });
  return { records, damaged: read.damaged };
}

/** The sign-in sessions of sessions/, named by the hash of their id. */
export async function readSessions(dataDir: string): Promise<{ records: SessionRecord[]; damaged: DamagedFile[] }> {
  return readFolder(path.join(dataDir, LEGACY_FILES.sessions), sessionRecordSchema, (session) => session.idHash, 'id hash');
}

/** staff.json's accounts (none when it is missing); a damaged account costs that account only. */
export async function readStaff(dataDir: string, damaged: DamagedFile[]): Promise<StaffRecord[]> {
  const file = path.join(dataDir, LEGACY_FILES.staff);
  const parsed = await readChecked(file, staffDocumentSchema);
  if (parsed === null) return [];
  if (!parsed.ok) {
    damaged.push({ file, reason: `${parsed.reason}; no staff account was imported from it` });
    return [];
  }
  const staff: StaffRecord[] = [];
  parsed.value.staff.forEach((raw, index) => {
    const record = checked(raw, staffRecordSchema);
    if (record.ok) staff.push(record.value);
    else damaged.push({ file: `${file} (account ${index + 1})`, reason: record.reason });
  });
  return staff;
}

/** The audit log's entries, oldest first (as the file store read them); damaged lines named by file and line. */
export async function readAudit(dataDir: string, damaged: DamagedFile[]): Promise<AuditEntry[]> {
  const dir = path.join(dataDir, LEGACY_FILES.audit);
  const names = await readdir(dir).catch((error: unknown) => {
    if (errorCode(error) === 'ENOENT') return [] as string[];
    throw error;
  });
  const entries: AuditEntry[] = [];
  for (const name of names.filter((candidate) => AUDIT_FILE.test(candidate)).sort()) {
    const file = path.join(dir, name);
    const text = await readFile(file, 'utf8');
    text.split('\n').forEach((line, index) => {
      if (line.trim() === '') return;
      const parsed = parsedText(line, auditEntrySchema);
      if (parsed.ok) entries.push(parsed.value);
      else damaged.push({ file: `${file} (line ${index + 1})`, reason: parsed.reason });
    });
  }
  // Two processes appended to one file: their lines may be a few milliseconds out of order (a stable sort keeps the rest).
  return entries.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}

/** The image records (media/<id>.json); their variants' bytes stay in media/files/. */
export async function readMedia(dataDir: string): Promise<{ records: MediaRecord[]; damaged: DamagedFile[] }> {
  const read = await readFolder(path.join(dataDir, LEGACY_FILES.media), mediaRecordSchema, (record) => record.id, 'id');
  return { records: read.records.filter((record) => MEDIA_ID_PATTERN.test(record.id)), damaged: read.damaged };
}

export interface LegacyQuarantinedFile {
  /** Where it is (inside quarantine/). */
  file: string;
  /** Where it was before the file store moved it aside. */
  originalFile: string;
  reason: string;
}

/** What the file store had moved to quarantine/ (damaged files it would not serve): reported, never imported. */
export async function readQuarantine(dataDir: string): Promise<LegacyQuarantinedFile[]> {
  const root = path.join(dataDir, LEGACY_FILES.quarantine);
  const names = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  const found: LegacyQuarantinedFile[] = [];
  for (const entry of names) {
    if (!entry.isFile() || entry.name.endsWith('.note.json')) continue;
    const file = path.join(entry.parentPath, entry.name);
    const note = await readChecked(`${file}.note.json`, quarantineNoteSchema);
    found.push(
      note?.ok
        ? { file, originalFile: path.join(dataDir, note.value.originalPath), reason: note.value.reason }
        : { file, originalFile: path.join(dataDir, path.relative(root, file)), reason: 'unknown (its note is missing)' },
    );
  }
  return found.sort((a, b) => a.file.localeCompare(b.file));
}
