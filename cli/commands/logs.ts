/**
 * `blogpost logs` and `blogpost logs tail`: the server's request log in the data directory (every
 * /api request: time, request id, status, error code, key id, client), filtered by key, status, code,
 * time, request id and client; a table for people, JSON lines for scripts. A page says how many older
 * requests match and how to see them (--before, --limit); the CLI's own checks are hidden unless --all. `tail` follows new requests
 * as they are logged until interrupted, like `stripe logs tail`.
 */
import path from 'node:path';
import { ERROR_CATALOGUE, isErrorCode } from '../../contract/errors';
import { API_KEY_PREFIX, checkApiKey } from '../../contract/keys';
import { openRequestLogReader, type RequestLogEntry, type RequestLogQuery, resolveDataDir, type StatusFilter } from '../../api/operations';
import type { CommandContext } from '../context';
import { CliError, ExitCode } from '../exit-codes';
import { interruption } from '../io';


export interface LogFilterOptions {
  dataDir?: string;
  key?: string;
  status?: string;
  code?: string;
  since?: string;
  requestId?: string;
  client?: string;
  json?: boolean;
}

export interface LogsOptions extends LogFilterOptions {
  limit: number;
  /** Page back: only requests logged before the one with this id. */
  before?: string;
  /** Include the requests the CLI made to check its own work (hidden by default). */
  all?: boolean;
}

/** One page of the log: the rows shown, how many older ones match, how many CLI checks were set aside. */
export interface LogPage {
  entries: RequestLogEntry[];
  older: number;
  hiddenChecks: number;
}

/**
 * Pages through matching entries, newest last: `before` cuts the list at a request id (a request id
 * the log does not hold is a usage error, not an empty page), CLI checks are set aside unless `all`.
 */
export function pageOf(matching: readonly RequestLogEntry[], options: { limit: number; before?: string; all?: boolean }): LogPage {
  let upTo = matching.length;
  if (options.before !== undefined) {
    const id = options.before.trim();
    upTo = matching.findIndex((entry) => entry.requestId === id);
    if (upTo < 0) {
      throw new CliError(`--before takes the request id of a row this search shows (the first REQUEST ID of the previous page); no matching request has the id "${id}".`, ExitCode.Usage);
    }
  }
  const earlier = matching.slice(0, upTo);
  const shown = options.all ? earlier : earlier.filter((entry) => entry.check !== true);
  const entries = shown.slice(Math.max(0, shown.length - options.limit));
  return { entries, older: shown.length - entries.length, hiddenChecks: earlier.length - shown.length };
}

/** What the table's footer says: how many more match and how to see them, and what was hidden. */
export function pageFooter(page: LogPage, options: { limit: number; filters: string }): string[] {
  const lines: string[] = [];
  const first = page.entries[0];
  if (page.older > 0 && first) {
    const more = page.older === 1 ? '1 older matching request is' : `${page.older} older matching requests are`;
    lines.push(`${more} not shown: page back with blogpost logs${options.filters} --before ${first.requestId}, or show more with --limit ${options.limit + Math.min(page.older, 1000)}.`);
  }
  if (page.hiddenChecks > 0) {
    const hidden = page.hiddenChecks === 1 ? '1 request the CLI made to check its own work (X-Blogpost-Check) is' : `${page.hiddenChecks} requests the CLI made to check its own work (X-Blogpost-Check) are`;
    lines.push(`${hidden} hidden: add --all to show them.`);
  }
  return lines;
}

/** The filters as they were typed, so the paging hint repeats them. */
function filterArguments(options: LogFilterOptions): string {
  const parts: string[] = [];
  const add = (flag: string, value: string | undefined) => {
    if (value !== undefined) parts.push(` ${flag} ${/^[\w.:,/+-]+$/.test(value) ? value : JSON.stringify(value)}`);
  };
  add('--key', options.key);
  add('--status', options.status);
  add('--code', options.code);
  add('--since', options.since);
  add('--client', options.client);
  add('--data-dir', options.dataDir);
  return parts.join('');
}

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function logsDataDir(options: { dataDir?: string }, ctx: CommandContext): string {
  return options.dataDir ? path.resolve(ctx.io.cwd, options.dataDir) : resolveDataDir(ctx.io.env);
}

/** `--status`: a class (`4xx`) or statuses (`401` or `401,403`). */
export function parseStatus(text: string): StatusFilter {
  const value = text.trim().toLowerCase();
  const family = /^([1-5])xx$/.exec(value);
  if (family?.[1]) return { kind: 'class', hundreds: Number(family[1]) };
  const statuses = value.split(',').map((part) => part.trim());
  if (statuses.length > 0 && statuses.every((part) => /^[1-5]\d\d$/.test(part))) return { kind: 'exact', statuses: statuses.map(Number) };
  throw new CliError(`--status takes a class like 4xx or statuses like 401 or 401,403; got "${text}".`, ExitCode.Usage);
}

/** `--since`: a duration back from `now` (30m, 2h, 1d) or a time (2026-11-24T10:00:00Z). */
export function parseSince(text: string, now: Date): Date {
  const duration = /^(\d+)\s*([smhd])$/i.exec(text.trim());
  if (duration?.[1] && duration[2]) return new Date(now.getTime() - Number(duration[1]) * (UNIT_MS[duration[2].toLowerCase()] ?? 0));
  if (/^\d{4}-\d{2}-\d{2}/.test(text.trim())) {
    const time = Date.parse(text.trim());
    if (!Number.isNaN(time)) return new Date(time);
  }
  throw new CliError(`--since takes a duration like 30m, 2h or 1d, or an ISO time like 2026-11-24T10:00:00Z; got "${text}".`, ExitCode.Usage);
}

/** `--key`: a key id, or a whole key (only its public id is used; the secret is never printed). */
function parseKeyId(text: string): string {
  const value = text.trim();
  if (/^[0-9A-Za-z]{10}$/.test(value)) return value;
  const whole = checkApiKey(value);
  if (whole.ok) return whole.publicId;
  const shown = value.startsWith(API_KEY_PREFIX) ? `${API_KEY_PREFIX}…` : `"${value}"`;
  throw new CliError(`--key takes a key id (10 letters and digits, as blogpost keys list shows it); ${shown} is not one.`, ExitCode.Usage);
}

export function queryOf(options: LogFilterOptions, now: Date): RequestLogQuery {
  const query: RequestLogQuery = {};
  if (options.key !== undefined) query.keyId = parseKeyId(options.key);
  if (options.status !== undefined) query.status = parseStatus(options.status);
  if (options.code !== undefined) {
    if (!isErrorCode(options.code)) {
      throw new CliError(`--code takes an error code of the API, one of: ${Object.keys(ERROR_CATALOGUE).join(', ')}; got "${options.code}".`, ExitCode.Usage);
    }
    query.code = options.code;
  }
  if (options.since !== undefined) query.since = parseSince(options.since, now);
  if (options.requestId !== undefined) query.requestId = options.requestId.trim();
  if (options.client !== undefined) query.client = options.client;
  return query;
}

function tableRow(entry: RequestLogEntry): string[] {
  return [
    entry.time.slice(0, 19).replace('T', ' '),
    entry.requestId,
    entry.method,
    entry.path,
    String(entry.status),
    entry.code ?? '-',
    entry.keyId ?? '-',
    entry.client,
    String(Math.round(entry.durationMs)),
  ];
}

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd()).join('\n');
}

const HEADER = ['TIME (UTC)', 'REQUEST ID', 'METHOD', 'PATH', 'STATUS', 'CODE', 'KEY', 'CLIENT', 'MS'];

export async function logsCommand(options: LogsOptions, ctx: CommandContext): Promise<ExitCode> {
  const dataDir = logsDataDir(options, ctx);
  // Every match is read (the log keeps 14 days), so the page can say how many more there are.
  const query = queryOf(options, new Date());
  const reader = openRequestLogReader(dataDir);
  const page = pageOf(await reader.find(query), options);
  const { entries } = page;
  const footer = pageFooter(page, { limit: options.limit, filters: filterArguments(options) });
  if (options.json) {
    for (const entry of entries) ctx.out.data(JSON.stringify(entry));
    // stdout stays JSON lines for scripts; the paging hint goes to stderr.
    for (const line of footer) ctx.out.info(line);
    return ExitCode.Ok;
  }
  if (entries.length === 0) {
    for (const line of footer) ctx.out.info(line);
    const extent = await reader.extent();
    ctx.out.info(
      extent.oldest
        ? `No logged request matches in ${extent.location} (it goes back to ${extent.oldest}).`
        : `No request log in ${extent.location} yet: the server writes one as it answers /api requests.`,
    );
    return ExitCode.Ok;
  }
  ctx.out.data(table([HEADER, ...entries.map(tableRow)]));
  for (const line of footer) ctx.out.info(line);
  return ExitCode.Ok;
}

export async function tailLogsCommand(options: LogFilterOptions, ctx: CommandContext, signal: AbortSignal = interruption()): Promise<ExitCode> {
  const dataDir = logsDataDir(options, ctx);
  const query = queryOf(options, new Date());
  const reader = openRequestLogReader(dataDir);
  const { location } = await reader.extent();
  ctx.out.info(`Following the request log in ${location} (Ctrl-C to stop)...`);
  if (!options.json) ctx.out.data(table([HEADER]));
  await reader.follow(
    query,
    (entry) => {
      if (options.json) ctx.out.data(JSON.stringify(entry));
      else ctx.out.data(tableRow(entry).join('  '));
    },
    signal,
  );
  return ExitCode.Ok;
}
