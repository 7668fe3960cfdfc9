/**
 * Everything a store holds, as one file and back (`blogpost export` and `blogpost import`): the way to
 * move between SQLite and PostgreSQL, and a backup format. JSON Lines, one record a line, so a
 * large store streams: a header, then the keys, staff accounts, media (their files in base64), posts
 * (each with its kept versions), leads (each with its notifications), the audit log, the advertising
 * archive (its records as stored, so its hash chain verifies after a move; decision 0028) and what
 * WordPress imports remember (items by guid, old addresses: decision 0029), the analytics (raw page
 * views in lines of at most 1,000, the daily roll-ups, and each quote request's attribution on its
 * lead's line: decision 0032; the Core Web Vitals events and their roll-ups: decision 0037), then an `end` line with the counts, which tells a complete export from a
 * cut-off one. Version 1 files (without the archive and imports) and version 2 files (without the
 * analytics) are still read. Everything goes through the store seam, so either kind of store exports
 * and imports the same way.
 *
 * Not exported: staff sign-in sessions (people sign in again after a move), rate-limit buckets and
 * request logs (each server's own, in its DATA_DIR), and the day's analytics salt (after a move the
 * day's visitors get new hashes, so one of them may count twice that day; earlier days' hashes come
 * along as stored, and can no more be traced back than before). The file holds personal data of leads and the
 * hashes of keys and passwords: the CLI writes it readable by its owner only.
 */
import { z } from 'zod';
import { auditEntrySchema, deliveryRecordSchema, keyRecordSchema, leadRecordSchema, mediaRecordSchema, postRecordSchema, staffRecordSchema, storedRevisionSchema } from './records';
import { ARCHIVE_EVENTS } from './archive';
import { VITAL_METRICS } from '../../contract/vitals';
import type { PageView, Store, VitalDaily, VitalEvent } from './store';

export const EXPORT_FORMAT = 'blogpost-export';
export const EXPORT_VERSION = 3;
/** Raw page views per line of an export. */
const VIEWS_PER_LINE = 1_000;

const headerLine = z.object({
  kind: z.literal('header'),
  format: z.literal(EXPORT_FORMAT),
  version: z.union([z.literal(1), z.literal(2), z.literal(EXPORT_VERSION)]),
  exportedAt: z.string(),
  demoKeyIssuedAt: z.string().nullable(),
});

const countsSchema = z.object({
  keys: z.number().int().nonnegative(),
  staff: z.number().int().nonnegative(),
  media: z.number().int().nonnegative(),
  posts: z.number().int().nonnegative(),
  leads: z.number().int().nonnegative(),
  audit: z.number().int().nonnegative(),
  // Since version 2.
  archive: z.number().int().nonnegative().default(0),
  imported: z.number().int().nonnegative().default(0),
  // Since version 3: raw page views, daily roll-up rows and rolled-up days, quote requests with an attribution.
  views: z.number().int().nonnegative().default(0),
  rolledUp: z.number().int().nonnegative().default(0),
  attributions: z.number().int().nonnegative().default(0),
  // Core Web Vitals: raw events and rolled-up rows (decision 0037).
  vitals: z.number().int().nonnegative().default(0),
});
export type TransferCounts = z.infer<typeof countsSchema>;

const archiveRecordSchema = z.object({
  seq: z.number().int().positive(),
  subject: z.string(),
  kind: z.enum(['post', 'page']),
  event: z.enum(ARCHIVE_EVENTS),
  path: z.string(),
  title: z.string(),
  html: z.string(),
  text: z.string(),
  contentHash: z.string(),
  liveFrom: z.string(),
  liveTo: z.string().nullable(),
  findings: z.array(z.object({ rule: z.string(), severity: z.string(), match: z.string() })),
  madeBy: z.string().nullable(),
  approver: z.string().nullable(),
  approvalCode: z.string().nullable(),
  recordedAt: z.string(),
  prevHash: z.string(),
  hash: z.string(),
});
const importedUrlSchema = z.union([z.object({ path: z.string(), postId: z.string() }), z.object({ path: z.string(), target: z.string() })]);
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a day, YYYY-MM-DD');
const device = z.enum(['mobile', 'tablet', 'desktop']);
const pageViewSchema = z.object({
  day,
  at: z.string(),
  route: z.string(),
  slug: z.string().nullable(),
  referrerHost: z.string().nullable(),
  utmSource: z.string().nullable(),
  utmMedium: z.string().nullable(),
  utmCampaign: z.string().nullable(),
  device,
  visitor: z.string().nullable(),
}) satisfies z.ZodType<PageView>;
const rolledUpSchema = z.object({ day, route: z.string(), slug: z.string().nullable(), referrerHost: z.string().nullable(), utmSource: z.string().nullable(), device, views: z.number().int().nonnegative() });
const visitorDaySchema = z.object({ day, views: z.number().int().nonnegative(), visitors: z.number().int().nonnegative() });
const vitalRating = z.enum(['good', 'needs-improvement', 'poor']);
const vitalEventSchema = z.object({ day, route: z.string(), device, metric: z.enum(VITAL_METRICS), value: z.number().nonnegative(), rating: vitalRating, build: z.string(), attribution: z.string().nullable() }) satisfies z.ZodType<VitalEvent>;
const vitalDailySchema = z.object({
  day,
  route: z.string(),
  device,
  metric: z.enum(VITAL_METRICS),
  build: z.string(),
  p75: z.number().nonnegative(),
  events: z.number().int().nonnegative(),
  good: z.number().int().nonnegative(),
  needsImprovement: z.number().int().nonnegative(),
  poor: z.number().int().nonnegative(),
}) satisfies z.ZodType<VitalDaily>;
/** A quote request's attribution, on its lead's line (the lead's id is the line's). */
const attributionSchema = z.object({ day, landing: z.string().nullable(), articles: z.array(z.string()), utmSource: z.string().nullable() });
const importedItemSchema = z.object({ source: z.string(), guid: z.string(), state: z.enum(['pending', 'done']), slug: z.string(), postId: z.string().nullable(), at: z.string() });

const recordLine = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('key'), record: keyRecordSchema }),
  z.object({ kind: z.literal('staff'), record: staffRecordSchema }),
  z.object({ kind: z.literal('media'), record: mediaRecordSchema, files: z.record(z.string(), z.string()) }),
  z.object({ kind: z.literal('post'), record: postRecordSchema, revisions: z.array(storedRevisionSchema) }),
  z.object({ kind: z.literal('lead'), record: leadRecordSchema, deliveries: z.array(deliveryRecordSchema), attribution: attributionSchema.optional() }),
  z.object({ kind: z.literal('audit'), entry: auditEntrySchema }),
  z.object({ kind: z.literal('archive'), record: archiveRecordSchema }),
  // Where the archive's chain starts (records removed after their retention) and the approval codes' counter.
  z.object({ kind: z.literal('archive_state'), base: z.object({ seq: z.number().int().nonnegative(), hash: z.string() }).nullable(), approvalNumber: z.number().int().nonnegative() }),
  z.object({ kind: z.literal('imported'), items: z.array(importedItemSchema), urls: z.array(importedUrlSchema) }),
  z.object({ kind: z.literal('views'), views: z.array(pageViewSchema).max(VIEWS_PER_LINE) }),
  z.object({ kind: z.literal('rolled_up'), daily: z.array(rolledUpSchema), days: z.array(visitorDaySchema) }),
  z.object({ kind: z.literal('vitals'), events: z.array(vitalEventSchema).max(VIEWS_PER_LINE) }),
  z.object({ kind: z.literal('vitals_rolled_up'), daily: z.array(vitalDailySchema) }),
  z.object({ kind: z.literal('end'), counts: countsSchema }),
]);
type RecordLine = z.infer<typeof recordLine>;

/** Adds what one record line holds to `counts` (the end line's figures, checked on import). */
function tally(counts: TransferCounts, line: Exclude<RecordLine, { kind: 'end' }>): void {
  switch (line.kind) {
    case 'key':
      counts.keys++;
      return;
    case 'staff':
      counts.staff++;
      return;
    case 'media':
      counts.media++;
      return;
    case 'post':
      counts.posts++;
      return;
    case 'lead':
      counts.leads++;
      if (line.attribution) counts.attributions++;
      return;
    case 'audit':
      counts.audit++;
      return;
    case 'archive':
      counts.archive++;
      return;
    case 'archive_state':
      return;
    case 'imported':
      counts.imported++;
      return;
    case 'views':
      counts.views += line.views.length;
      return;
    case 'rolled_up':
      counts.rolledUp += line.daily.length + line.days.length;
      return;
    case 'vitals':
      counts.vitals += line.events.length;
      return;
    case 'vitals_rolled_up':
      counts.vitals += line.daily.length;
      return;
  }
}

/** An export that cannot be imported: what is wrong, and on which line. */
export class TransferError extends Error {
  override readonly name = 'TransferError';
}

const emptyCounts = (): TransferCounts => ({ keys: 0, staff: 0, media: 0, posts: 0, leads: 0, audit: 0, archive: 0, imported: 0, views: 0, rolledUp: 0, attributions: 0, vitals: 0 });

/** Writes the whole store, line by line, to `write`; the counts written. */
export async function exportStore(store: Store, write: (line: string) => Promise<void>, now: Date = new Date()): Promise<TransferCounts> {
  const counts = emptyCounts();
  const writeLine = async (line: object) => write(`${JSON.stringify(line)}\n`);
  const emit = async (line: Exclude<RecordLine, { kind: 'end' }>) => {
    tally(counts, line);
    await writeLine(line);
  };
  await writeLine({ kind: 'header', format: EXPORT_FORMAT, version: EXPORT_VERSION, exportedAt: now.toISOString(), demoKeyIssuedAt: await store.keys.demoKeyIssuedAt() });
  for (const record of await store.keys.list()) await emit({ kind: 'key', record });
  for (const record of await store.staff.list()) await emit({ kind: 'staff', record });
  // Oldest first, the order they were uploaded in.
  for (const record of (await store.media.list()).reverse()) {
    const files: Record<string, string> = {};
    for (const variant of record.variants) {
      const bytes = await store.media.read(variant.file);
      if (!bytes) throw new TransferError(`The file ${variant.file} of medium ${record.id} is missing from the store: run \`blogpost doctor\`, then export again.`);
      files[variant.file] = Buffer.from(bytes).toString('base64');
    }
    await emit({ kind: 'media', record, files });
  }
  const everyPost = async (status: 'any' | 'trashed') => (await store.posts.list({ status, limit: Number.MAX_SAFE_INTEGER })).entries;
  const entries = [...(await everyPost('any')), ...(await everyPost('trashed'))].sort((a, b) => a.seq - b.seq);
  for (const entry of entries) {
    const record = await store.posts.getById(entry.id);
    if (!record) continue; // purged while the export ran
    await emit({ kind: 'post', record, revisions: await store.posts.revisions(entry.id) });
  }
  for (const record of (await store.leads.list({ spam: 'any' })).reverse()) {
    const conversion = await store.analytics.conversion(record.id);
    const attribution = conversion ? { day: conversion.day, landing: conversion.landing, articles: conversion.articles, utmSource: conversion.utmSource } : undefined;
    await emit({ kind: 'lead', record, deliveries: await store.outbox.forLead(record.id), ...(attribution ? { attribution } : {}) });
  }
  for (const entry of await store.audit.list()) await emit({ kind: 'audit', entry });
  for (const record of await store.archive.list()) await emit({ kind: 'archive', record });
  await emit({ kind: 'archive_state', base: await store.archive.base(), approvalNumber: await store.archive.approvalNumber() });
  const imported = await store.imports.everything();
  if (imported.items.length + imported.urls.length > 0) await emit({ kind: 'imported', ...imported });
  for (let after = 0; ; ) {
    const page = await store.analytics.rawViews(after, VIEWS_PER_LINE);
    if (page.views.length === 0) break;
    await emit({ kind: 'views', views: page.views });
    after = page.lastId;
  }
  const rolledUp = await store.analytics.rolledUp();
  if (rolledUp.daily.length + rolledUp.days.length > 0) await emit({ kind: 'rolled_up', ...rolledUp });
  for (let after = 0; ; ) {
    const page = await store.analytics.rawVitals(after, VIEWS_PER_LINE);
    if (page.events.length === 0) break;
    await emit({ kind: 'vitals', events: page.events });
    after = page.lastId;
  }
  const vitalsDaily = await store.analytics.vitalsRolledUp();
  if (vitalsDaily.length > 0) await emit({ kind: 'vitals_rolled_up', daily: vitalsDaily });
  await writeLine({ kind: 'end', counts });
  return counts;
}

function parseLine(text: string, number: number): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new TransferError(`Line ${number} is not JSON: this is not a complete \`blogpost export\` file (was it cut off or edited?).`);
  }
}

/**
 * Checks a whole export before anything is imported: the header, every record, and the `end` line
 * with counts that match. Returns the records in order, without the header and the end line.
 */
async function readExport(lines: AsyncIterable<string>): Promise<{ header: z.infer<typeof headerLine>; records: Exclude<RecordLine, { kind: 'end' }>[] }> {
  let header: z.infer<typeof headerLine> | undefined;
  const records: Exclude<RecordLine, { kind: 'end' }>[] = [];
  const counts = emptyCounts();
  let end: TransferCounts | undefined;
  let number = 0;
  for await (const text of lines) {
    number++;
    if (text.trim() === '') continue;
    if (end) throw new TransferError(`Line ${number} comes after the export's end line: the file holds more than one export, or was edited.`);
    const raw = parseLine(text, number);
    if (!header) {
      const parsed = headerLine.safeParse(raw);
      if (!parsed.success) throw new TransferError(`Line ${number} is not the header of a \`blogpost export\` file (format "${EXPORT_FORMAT}", version ${EXPORT_VERSION}).`);
      header = parsed.data;
      continue;
    }
    const parsed = recordLine.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new TransferError(`Line ${number} is not a valid export record (${issue ? `${issue.path.join('.') || 'the line'}: ${issue.message}` : 'unknown shape'}).`);
    }
    const line = parsed.data;
    if (line.kind === 'end') end = line.counts;
    else {
      records.push(line);
      tally(counts, line);
    }
  }
  if (!header) throw new TransferError('The file is empty: it is not a `blogpost export` file.');
  if (records.some((line) => line.kind === 'archive') && !records.some((line) => line.kind === 'archive_state')) {
    throw new TransferError('The export holds advertising archive records but not where its chain starts (its archive_state line): it was edited or damaged.');
  }
  if (!end) throw new TransferError(`The export has no end line after line ${number}: it was cut off. Export again (nothing was imported).`);
  for (const name of Object.keys(counts) as (keyof TransferCounts)[]) {
    if (counts[name] !== end[name]) throw new TransferError(`The export's end line counts ${end[name]} ${name} but the file holds ${counts[name]}: it was edited or damaged.`);
  }
  return { header, records };
}

/** What the store holds already; an import needs it empty. */
async function contentsOf(store: Store): Promise<string[]> {
  const counts = await store.posts.counts();
  const held: Array<[number, string]> = [
    [counts.published + counts.drafts + counts.scheduled + counts.inReview + counts.trashed, 'post(s)'],
    [(await store.keys.list()).length, 'API key(s)'],
    [(await store.staff.list()).length, 'staff account(s)'],
    [(await store.media.list()).length, 'image(s)'],
    [(await store.leads.list({ spam: 'any' })).length, 'quote request(s)'],
    [(await store.archive.list()).length, 'advertising archive record(s)'],
  ];
  const described = held.filter(([n]) => n > 0).map(([n, what]) => `${n} ${what}`);
  if ((await store.analytics.rawViews(0, 1)).views.length > 0 || (await store.analytics.rolledUp()).days.length > 0) described.push('counted page views');
  return described;
}

/**
 * Imports a whole export into an empty store (checked first, line by line, so a damaged file imports
 * nothing); the counts imported. A TransferError says what is wrong with the file or the store.
 */
export async function importStore(store: Store, lines: AsyncIterable<string>): Promise<TransferCounts> {
  const { header, records } = await readExport(lines);
  const held = await contentsOf(store);
  if (held.length > 0) throw new TransferError(`The store is not empty (it holds ${held.join(', ')}): import into a new data directory or an empty database. Nothing was imported.`);
  const counts = emptyCounts();
  let done = 0;
  // The archive goes in whole, with where its chain starts: gathered, then restored at its state line.
  const archive: z.infer<typeof archiveRecordSchema>[] = [];
  try {
    for (const line of records) {
      if (line.kind === 'archive') archive.push(line.record);
      else if (line.kind === 'archive_state') await store.archive.restore({ records: archive, base: line.base, approvalNumber: line.approvalNumber });
      else await importRecord(store, line);
      tally(counts, line);
      done++;
    }
    if (header.demoKeyIssuedAt) await store.keys.markDemoKeyIssued(new Date(header.demoKeyIssuedAt));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new TransferError(
      `The import stopped at record ${done + 1} of ${records.length} (${records[done]?.kind ?? 'the end'}): ${reason} The store now holds the ${done} record(s) before it: empty it (a new data directory or database) before importing again.`,
    );
  }
  return counts;
}

async function importRecord(store: Store, line: Exclude<RecordLine, { kind: 'end' | 'archive' | 'archive_state' }>): Promise<void> {
  switch (line.kind) {
    case 'key':
      // As exported, names unchecked: an export made before names were checked atomically may hold two active keys with one name.
      return store.keys.restore(line.record);
    case 'staff':
      return store.staff.add(line.record);
    case 'media': {
      const files = new Map(Object.entries(line.files).map(([name, base64]) => [name, new Uint8Array(Buffer.from(base64, 'base64'))]));
      await store.media.save(line.record, files);
      return;
    }
    case 'post':
      return store.posts.restore(line.record, line.revisions);
    case 'lead':
      await store.leads.create(line.record, line.deliveries);
      if (line.attribution) await store.analytics.addConversion({ leadId: line.record.id, ...line.attribution });
      // The visitor's "stop contacting me" also holds for their address (migration 0004).
      if (line.record.optOut && line.record.email) {
        await store.leads.addOptOut({ address: line.record.email, leadId: line.record.id, at: line.record.optOut.at, channel: line.record.optOut.channel });
      }
      return;
    case 'audit':
      return store.audit.append(line.entry);
    case 'imported':
      return store.imports.restore({ items: line.items, urls: line.urls });
    case 'views':
      return store.analytics.addViews(line.views);
    case 'rolled_up':
      return store.analytics.restoreRolledUp({ daily: line.daily, days: line.days });
    case 'vitals':
      return store.analytics.addVitals(line.events);
    case 'vitals_rolled_up':
      return store.analytics.restoreVitalsRolledUp(line.daily);
  }
}
