/**
 * `blogpost leads list|show|set|delete`: the quote requests visitors sent from /get-quote, read and
 * changed in the store the servers use (a data directory's SQLite database, or PostgreSQL: see
 * cli/data-dir.ts; like `blogpost keys`, beside running servers), for an agency without a staff area
 * yet. Leads are personal data: they go to this terminal or a file the user redirects to, and messages
 * about a change name the lead by id only. Changes and deletions are written to the same store's audit
 * log (`blogpost audit`) by lead id and status only, never what the lead or note says.
 */
import { closest, distance } from 'fastest-levenshtein';
import { CONTACT_OUTCOME_LABELS, type DeliveryRecord, type LeadRecord, type SpamReason } from '../../contract/leads';
import { HEALTH_RATING_LABELS, LEAD_STATUSES, type LeadStatus } from '../../contract/quote-request';
import { type LeadRepository, leadsCsv, leadsCsvChunks, notificationSummary, yesNo, type OutboxRepository, type StoreLocation } from '../../api/operations';
import type { CommandContext } from '../context';
import { type LocationOptions, placeOf, storeExists, storeLocationOf, withStoreAt } from '../data-dir';
import { CliError, ExitCode } from '../exit-codes';
import { printable, table } from '../output';
import { NOTE_MAX } from '../wiring/values';
import { appendAudit, type AuditTarget, storeAuditTarget } from './audit';
import { cliUser } from './keys';

/** The leads, their notifications and the audit log of one store. */
interface LeadStore {
  leads: LeadRepository;
  outbox: OutboxRepository;
  audit: AuditTarget;
}

export interface DataDirOptions extends LocationOptions {
  json?: boolean;
}

export interface ListOptions extends DataDirOptions {
  status?: LeadStatus;
  spam?: boolean;
  format?: 'table' | 'csv';
}

export interface SetOptions extends DataDirOptions {
  status?: LeadStatus;
  note?: string;
  by?: string;
}

export interface DeleteOptions extends DataDirOptions {
  yes?: boolean;
}

const BY_MAX = 60;
const LIST_HINT = 'List the ids with: blogpost leads list (add --spam for the requests kept aside as spam).';

const SPAM_REASONS: Record<SpamReason, string> = {
  honeypot: 'honeypot filled (a robot)',
  'too-fast': 'sent too soon after the page loaded',
  'no-form-time': 'no form time (not sent from the page)',
};

/**
 * Opens the leads (null, and nothing made, when a data directory has no store yet), turning store
 * problems into exit code 4.
 */
async function withLeads<T>(location: StoreLocation, work: (store: LeadStore | null) => Promise<T>): Promise<T> {
  if (!storeExists(location)) return work(null);
  return withStoreAt(location, (store) => work({ leads: store.leads, outbox: store.outbox, audit: storeAuditTarget(store, location) }));
}

function noStore(where: string): string {
  return `There is no store in ${where} yet (no store.sqlite). Point --data-dir or DATA_DIR at the server's data directory.`;
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO time in the local time zone, to the minute (or the second). */
function localTime(iso: string, seconds = false): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return printable(iso);
  const day = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
  return `${day} ${pad(at.getHours())}:${pad(at.getMinutes())}${seconds ? `:${pad(at.getSeconds())}` : ''}`;
}

function dollars(amount: number): string {
  return `$${amount.toLocaleString('en-US')}`;
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The preferred way to reach the visitor and its value: "email jane@example.com". */
function contact(lead: LeadRecord): string {
  const value = lead.preferredContactMethod === 'email' ? lead.email : lead.phone;
  return `${lead.preferredContactMethod} ${printable(value ?? '(missing)')}`;
}

function leadsTable(leads: readonly LeadRecord[], deliveries: ReadonlyMap<string, DeliveryRecord[]>, spam: boolean): string {
  const last = spam ? 'SPAM REASON' : 'NOTIFIED';
  return table([
    ['ID', 'RECEIVED', 'STATUS', 'NAME', 'CONTACT', 'AGE', 'YEARLY', last],
    ...leads.map((lead) => [
      lead.id, localTime(lead.createdAt), lead.status, shorten(printable(lead.name), 30), shorten(contact(lead), 40), String(lead.age),
      dollars(lead.annualContribution), spam && lead.spam ? SPAM_REASONS[lead.spam] : notificationSummary(deliveries.get(lead.id) ?? []),
    ]),
  ]);
}

function emptyListMessage(options: ListOptions, where: string): string {
  if (options.spam) return `No requests were kept aside as spam${options.status ? ` with status ${options.status}` : ''} in ${where}.`;
  if (options.status) return `No quote requests with status ${options.status} in ${where}. Without --status: blogpost leads list`;
  return `No quote requests in ${where} yet. They arrive when visitors send the quote form on the site (/get-quote).`;
}

function countLine(count: number, options: ListOptions): string {
  const status = options.status ? ` with status ${options.status}` : '';
  if (options.spam) return `${plural(count, 'request')} kept aside as spam${status} (never notified), newest first.`;
  return `${plural(count, 'quote request')}${status}, newest first. Details: blogpost leads show <id>`;
}

export async function listLeadsCommand(options: ListOptions, ctx: CommandContext): Promise<ExitCode> {
  if (options.json && options.format) throw new CliError('Pass either --json or --format, not both.', ExitCode.Usage);
  const location = storeLocationOf(options, ctx);
  const where = placeOf(location);
  if (options.format === 'csv') {
    // Written a batch of leads at a time, as the staff area's export: any number of leads in bounded memory.
    const stored = await withLeads(location, async (store) => {
      if (!store) return false;
      for await (const chunk of leadsCsvChunks(store, { spam: options.spam === true, ...(options.status ? { status: options.status } : {}) })) ctx.io.stdout.write(chunk);
      return true;
    });
    if (!stored) {
      // A CSV of no rows: the header alone, for a script that reads it.
      ctx.io.stdout.write(leadsCsv([], new Map()));
      ctx.out.info(`${noStore(where)} Quote requests are kept there once visitors send the form on /get-quote.`);
    }
    return ExitCode.Ok;
  }
  const found = await withLeads(location, async (store) => {
    if (!store) return null;
    const leads = await store.leads.list({ spam: options.spam === true, ...(options.status ? { status: options.status } : {}) });
    const deliveries = await store.outbox.forLeads(leads.map((lead) => lead.id));
    return { leads, deliveries };
  });
  const leads = found?.leads ?? [];
  const deliveries = found?.deliveries ?? new Map<string, DeliveryRecord[]>();
  if (options.json) ctx.out.json(leads);
  else if (leads.length > 0) {
    ctx.out.data(leadsTable(leads, deliveries, options.spam === true));
    ctx.out.info(countLine(leads.length, options));
  }
  if (!found) ctx.out.info(`${noStore(where)} Quote requests are kept there once visitors send the form on /get-quote.`);
  else if (leads.length === 0 && !options.json) ctx.out.info(emptyListMessage(options, where));
  return ExitCode.Ok;
}

/** The id a mistyped one was probably meant to be: one of `known` a few edits away (or missing its `lead_`). */
function suggestId(typed: string, known: readonly string[]): string | undefined {
  if (known.length === 0) return undefined;
  const candidate = typed.startsWith('lead_') ? typed : `lead_${typed}`;
  const best = closest(candidate, [...known]);
  return distance(candidate, best) <= 3 ? best : undefined;
}

/** The lead with this id, or a not-found error (exit 1) that says how to find the right id. */
async function findLead(store: LeadStore | null, id: string, where: string): Promise<{ store: LeadStore; lead: LeadRecord }> {
  if (!store) throw new CliError(`No quote request "${printable(id)}": ${noStore(where)}`, ExitCode.Failed);
  const lead = await store.leads.get(id);
  if (lead) return { store, lead };
  const suggestion = suggestId(id, (await store.leads.list({ spam: 'any' })).map((known) => known.id));
  const hint = suggestion ? ` Did you mean ${suggestion}?` : '';
  throw new CliError(`No quote request "${printable(shorten(id, 60))}" in ${where}.${hint} ${LIST_HINT}`, ExitCode.Failed);
}

/** Label-value lines, the values aligned; a value's further lines are indented under its first. */
function labelled(rows: ReadonlyArray<readonly [string, string]>): string[] {
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value.replace(/\n/g, `\n${' '.repeat(width + 4)}`)}`);
}

function section(title: string, rows: ReadonlyArray<readonly [string, string]>): string[] {
  return [title, ...labelled(rows)];
}

function deliveryLine(delivery: DeliveryRecord): readonly [string, string] {
  if (delivery.sentAt) return [delivery.channel, `sent ${localTime(delivery.sentAt, true)} (${plural(delivery.attempts, 'attempt')})`];
  const error = delivery.lastError ? `, last error: ${printable(delivery.lastError)}` : '';
  const next = delivery.nextAttemptAt ? `, next attempt ${localTime(delivery.nextAttemptAt, true)}` : '';
  return [delivery.channel, `pending: ${plural(delivery.attempts, 'attempt')}${error}${next}`];
}

function leadText(lead: LeadRecord, deliveries: readonly DeliveryRecord[]): string {
  const { consent } = lead;
  const optional = (value: string | number | null | undefined, show: (v: string | number) => string = String) => (value === null || value === undefined ? '-' : show(value));
  const lines = [
    ...section(`Quote request ${lead.id}`, [
      ['Status', lead.status],
      ['Reference', optional(lead.reference)],
      ['Received', localTime(lead.createdAt, true)],
      ['Updated', localTime(lead.updatedAt, true)],
      ['Spam', lead.spam ? `kept aside: ${SPAM_REASONS[lead.spam]}` : 'no'],
    ]),
    ...section('Visitor', [
      ['Name', printable(lead.name)],
      ['E-mail', optional(lead.email, (v) => printable(String(v)))],
      ['Phone', optional(lead.phone, (v) => printable(String(v)))],
      ['Preferred contact', lead.preferredContactMethod],
      ['Age', String(lead.age)],
      ['Yearly contribution', dollars(lead.annualContribution)],
      ['Retirement age', optional(lead.retirementAge)],
      ['Current savings', optional(lead.currentRetirementSavings, (v) => dollars(Number(v)))],
      ['Health rating', lead.healthRating ? HEALTH_RATING_LABELS[lead.healthRating] : '-'],
      ['Tobacco user', yesNo(lead.tobaccoUser) || '-'],
      ['Notes', optional(lead.additionalNotes, (v) => printable(String(v), true))],
    ]),
    ...section('Follow-up', [
      ['Assigned to', lead.assignee ? `${printable(lead.assignee.name)} <${printable(lead.assignee.email)}> (${lead.assignee.by === 'round-robin' ? 'in turn' : printable(lead.assignee.by)}, ${localTime(lead.assignee.at, true)})` : 'nobody'],
      ['Escalated', lead.escalatedAt ? localTime(lead.escalatedAt, true) : 'no'],
      ['Stop contacting', lead.optOut ? `asked ${localTime(lead.optOut.at, true)} (${lead.optOut.channel === 'phone' ? 'by phone' : 'through the e-mail link'})` : 'no'],
    ]),
    'Contact attempts',
    ...((lead.contactAttempts ?? []).length === 0
      ? ['  (none)']
      : (lead.contactAttempts ?? []).map((attempt) => `  ${localTime(attempt.at)} by ${printable(attempt.by)}: ${attempt.channel}, ${CONTACT_OUTCOME_LABELS[attempt.outcome]}${attempt.note ? `: ${printable(attempt.note)}` : ''}`)),
    'Agent notes',
    ...(lead.agentNotes.length === 0 ? ['  (none)'] : lead.agentNotes.map((note) => `  ${localTime(note.at)} by ${printable(note.by)}: ${printable(note.text, true).replace(/\n/g, '\n    ')}`)),
    ...section('Consent', [
      ['Given', consent.given ? 'yes: calls and texts about the request may use automated technology' : 'no'],
      ['Text shown', `"${printable(consent.text)}"`],
      ['Version', printable(consent.version)],
      ['Text SHA-256', printable(consent.textSha256)],
      ['At', `${localTime(consent.at, true)} (${printable(consent.at)})`],
      ['IP', printable(consent.ip)],
      ['User agent', printable(consent.userAgent)],
      ['Page', printable(consent.page)],
      ['GPC', consent.globalPrivacyControl ? 'yes (Sec-GPC: 1): no marketing use' : 'no'],
      ['Contact only by', consent.contactOnlyBy ?? 'any way (consent given)'],
    ]),
    'Notifications',
    ...(deliveries.length === 0 ? [lead.spam ? '  (none: spam is never delivered)' : '  (none)'] : labelled(deliveries.map(deliveryLine))),
  ];
  return lines.join('\n');
}

export async function showLeadCommand(id: string, options: DataDirOptions, ctx: CommandContext): Promise<ExitCode> {
  const location = storeLocationOf(options, ctx);
  const { lead, deliveries } = await withLeads(location, async (opened) => {
    const { store, lead: found } = await findLead(opened, id, placeOf(location));
    return { lead: found, deliveries: await store.outbox.forLead(found.id) };
  });
  if (options.json) ctx.out.json({ lead, notifications: deliveries });
  else ctx.out.data(leadText(lead, deliveries));
  return ExitCode.Ok;
}

/** The checked --note and --by of `set`: a usage error (exit 2) before anything is read or stored. */
function checkSetOptions(options: SetOptions): { note: string | null; by: string } {
  if (options.status === undefined && options.note === undefined) {
    throw new CliError(`Say what to change: --status ${LEAD_STATUSES.join('|')}, --note "text", or both.`, ExitCode.Usage);
  }
  const note = options.note === undefined ? null : options.note.trim();
  if (note !== null && !note) throw new CliError('The note is empty: write it after --note, in quotes, e.g. --note "Called, sent the illustration".', ExitCode.Usage);
  if (note !== null && note.length > NOTE_MAX) throw new CliError(`The note has ${note.length} characters; shorten it to at most ${NOTE_MAX}.`, ExitCode.Usage);
  const by = (options.by ?? 'cli').trim();
  if (!by || by.length > BY_MAX) throw new CliError(`--by takes who wrote the note, 1-${BY_MAX} characters, e.g. --by "Jane Agent".`, ExitCode.Usage);
  return { note, by };
}

export async function setLeadCommand(id: string, options: SetOptions, ctx: CommandContext): Promise<ExitCode> {
  const { note, by } = checkSetOptions(options);
  const location = storeLocationOf(options, ctx);
  const outcome = await withLeads(location, async (opened) => {
    const { store, lead } = await findLead(opened, id, placeOf(location));
    const statusChange = options.status !== undefined && options.status !== lead.status;
    if (!statusChange && note === null) return { before: lead, after: lead, audited: ExitCode.Ok };
    const at = new Date().toISOString();
    const after = await store.leads.update(lead.id, (current) => ({
      ...current,
      status: options.status ?? current.status,
      agentNotes: note === null ? current.agentNotes : [...current.agentNotes, { at, by, text: note }],
      updatedAt: at,
    }));
    if (!after) throw new CliError(`The quote request ${lead.id} was deleted meanwhile; nothing was changed. ${LIST_HINT}`, ExitCode.Failed);
    return { before: lead, after, audited: await auditLeadChange(store.audit, ctx, lead, after, note === null ? null : by) };
  });
  const { before, after, audited } = outcome;
  if (options.json) {
    ctx.out.json(after);
    return audited;
  }
  if (before === after) {
    ctx.out.warn(`Quote request ${after.id} is already ${after.status}; nothing changed.`);
    return ExitCode.Ok;
  }
  const changes = [
    before.status === after.status ? `status stays ${after.status}` : `status ${before.status} → ${after.status}`,
    ...(note === null ? [] : [`note added by ${printable(by)} (${after.agentNotes.length} in all)`]),
  ];
  ctx.out.success(`Quote request ${after.id}: ${changes.join('; ')}; updated ${localTime(after.updatedAt, true)}.`);
  return audited;
}

/** The audit entries of `leads set`: the status change (from, to) and the note added (by whom, never its text). */
async function auditLeadChange(audit: AuditTarget, ctx: CommandContext, before: LeadRecord, after: LeadRecord, noteBy: string | null): Promise<ExitCode> {
  const actor = cliUser(ctx.io.env);
  let code: ExitCode = ExitCode.Ok;
  if (after.status !== before.status) {
    code = await appendAudit(audit, ctx, { actor, action: 'lead.status_changed', target: before.id, detail: { from: before.status, to: after.status } });
  }
  if (noteBy !== null && code === ExitCode.Ok) code = await appendAudit(audit, ctx, { actor, action: 'lead.noted', target: before.id, detail: { by: noteBy } });
  return code;
}

export async function deleteLeadCommand(id: string, options: DeleteOptions, ctx: CommandContext): Promise<ExitCode> {
  const location = storeLocationOf(options, ctx);
  const removed = await withLeads(location, async (opened) => {
    const { store, lead } = await findLead(opened, id, placeOf(location));
    const notifications = (await store.outbox.forLead(lead.id)).length;
    if (!options.yes) {
      throw new CliError(
        `Not deleted: this removes quote request ${lead.id} and its ${plural(notifications, 'notification')} for good (for a visitor who asked to be forgotten). ` +
          `To confirm, run: blogpost leads delete ${lead.id} --yes`,
        ExitCode.Usage,
      );
    }
    await store.leads.delete(lead.id);
    // Only the id: what was deleted must not live on in the log.
    const audited = await appendAudit(store.audit, ctx, { actor: cliUser(ctx.io.env), action: 'lead.deleted', target: lead.id, detail: {} });
    return { id: lead.id, notifications, audited };
  });
  const { audited } = removed;
  if (options.json) ctx.out.json({ success: true, id: removed.id, notificationsRemoved: removed.notifications });
  else ctx.out.success(`Deleted quote request ${removed.id} and its ${plural(removed.notifications, 'notification')} for good.`);
  return audited;
}
