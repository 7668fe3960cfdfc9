/**
 * `blogpost staff add|list|disable|takes-leads|reset-password`: the staff accounts of the staff area, managed in
 * the store the servers use (a data directory's SQLite database, or PostgreSQL: see cli/data-dir.ts), beside running
 * servers, like `blogpost keys`. A password is read from
 * standard input when it is not a terminal or with `--password-stdin` (as `docker login` does), else
 * asked twice without echo; it is never printed, and only its hash is stored. Every change is in the
 * audit log as `cli:<user>`.
 */
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { StaffError, StaffService, type StaffSummary, type StoreLocation } from '../../api/operations';
import { type CommandContext, readInput } from '../context';
import { type LocationOptions, placeOf, storeLocationOf, withExistingStoreAt } from '../data-dir';
import { CliError, ExitCode } from '../exit-codes';
import type { CliIO } from '../io';
import { table } from '../output';
import { cliUser } from './keys';

export interface DataDirOptions extends LocationOptions {
  json?: boolean;
}

export interface AddOptions extends DataDirOptions {
  email: string;
  name: string;
  passwordStdin?: boolean;
}

export interface DisableOptions extends DataDirOptions {
  reason?: string;
}

export interface ResetOptions extends DataDirOptions {
  passwordStdin?: boolean;
}

function noStore(dataDir: string): string {
  return `There is no store in ${dataDir} yet (no store.sqlite). Point --data-dir or DATA_DIR at the server's data directory (the server creates it at its first start).`;
}

const USAGE_PROBLEMS = new Set(['invalid_email', 'invalid_name', 'weak_password']);

/**
 * Opens the staff accounts, their sessions and the audit log of the store at `location` and runs
 * `work`, turning store problems into exit code 4 and broken rules into 1 or 2.
 */
async function withStaff<T>(location: StoreLocation, work: (service: StaffService) => Promise<T>): Promise<T> {
  let done: { result: T } | null;
  try {
    done = await withExistingStoreAt(location, async (store) => ({ result: await work(new StaffService(store)) }));
  } catch (error) {
    if (error instanceof StaffError) throw new CliError(error.message, USAGE_PROBLEMS.has(error.problem) ? ExitCode.Usage : ExitCode.Failed);
    throw error;
  }
  if (!done) throw new CliError(noStore(placeOf(location)), ExitCode.Local);
  return done.result;
}

/** Asks for one line on stderr with nothing echoed (the terminal's own echo is off while readline reads). */
async function askHidden(io: CliIO, question: string): Promise<string> {
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
  io.stderr.write(question);
  const lines = createInterface({ input: io.stdin, output: silent, terminal: true });
  try {
    return await new Promise<string>((resolve, reject) => {
      lines.once('line', resolve);
      lines.once('SIGINT', () => reject(new CliError('Cancelled: no password was set.', ExitCode.Usage)));
      lines.once('close', () => reject(new CliError('Cancelled: no password was set.', ExitCode.Usage)));
    });
  } finally {
    lines.close();
    io.stderr.write('\n');
  }
}

/** The password from one line of standard input (its newline dropped), or asked twice on a terminal. */
async function readPassword(options: { passwordStdin?: boolean }, ctx: CommandContext, who: string): Promise<string> {
  if (options.passwordStdin || ctx.io.stdin.isTTY !== true) {
    const { text } = await readInput('-', ctx.io);
    const password = text.replace(/\r?\n$/, '');
    if (!password) {
      throw new CliError(`No password on standard input. Pipe it in, e.g.: printf '%s' "$PASSWORD" | blogpost staff ... --password-stdin`, ExitCode.Usage);
    }
    // A password is one line: a second one is a typing mistake (the password given twice, as the
    // terminal prompt asks for it), and stored as it is the account could never sign in.
    if (/[\r\n]/.test(password)) {
      throw new CliError(
        `Standard input holds more than one line; the password is read from exactly one line, given once. Nothing was changed. Pipe the password alone, e.g.: printf '%s' "$PASSWORD" | blogpost staff ... --password-stdin`,
        ExitCode.Usage,
      );
    }
    return password;
  }
  const first = await askHidden(ctx.io, `Password for ${who} (at least 12 characters; not shown): `);
  const second = await askHidden(ctx.io, 'The same password again: ');
  if (first !== second) throw new CliError('The two passwords differ; nothing was changed. Run the command again.', ExitCode.Usage);
  return first;
}

function day(iso: string): string {
  return iso.slice(0, 10);
}

function status(staff: StaffSummary): string {
  if (staff.disabledAt) return `disabled ${day(staff.disabledAt)}`;
  return staff.takesLeads === false ? 'active, takes no leads' : 'active';
}

function sessionsText(count: number): string {
  return count === 1 ? '1 session was ended' : `${count} sessions were ended`;
}

export async function addStaffCommand(options: AddOptions, ctx: CommandContext): Promise<ExitCode> {
  const location = storeLocationOf(options, ctx);
  const added = await withStaff(location, async (service) => {
    const password = await readPassword(options, ctx, options.email.trim());
    return service.add({ email: options.email, name: options.name, password }, cliUser(ctx.io.env));
  });
  if (options.json) ctx.out.json({ success: true, staff: added });
  else ctx.out.success(`Added staff account ${added.email} ("${added.name}", id ${added.id}) in ${placeOf(location)}. They sign in to the staff area with this e-mail and the password given.`);
  return ExitCode.Ok;
}

export async function listStaffCommand(options: DataDirOptions, ctx: CommandContext): Promise<ExitCode> {
  const location = storeLocationOf(options, ctx);
  const staff = await withStaff(location, (service) => service.list());
  if (options.json) {
    ctx.out.json(staff);
    return ExitCode.Ok;
  }
  if (staff.length === 0) {
    ctx.out.info(`No staff accounts in ${placeOf(location)}. Add one with: blogpost staff add --email EMAIL --name NAME`);
    return ExitCode.Ok;
  }
  ctx.out.data(table([['EMAIL', 'NAME', 'STATUS', 'CREATED', 'PASSWORD CHANGED'], ...staff.map((s) => [s.email, s.name, status(s), day(s.createdAt), day(s.passwordChangedAt)])]));
  return ExitCode.Ok;
}

export async function disableStaffCommand(email: string, options: DisableOptions, ctx: CommandContext): Promise<ExitCode> {
  const outcome = await withStaff(storeLocationOf(options, ctx), async (service) => {
    try {
      return await service.disable(email, cliUser(ctx.io.env), options.reason);
    } catch (error) {
      // Disabling twice is harmless, as revoking a key twice is.
      if (error instanceof StaffError && error.problem === 'already_disabled') return { alreadyDisabled: error.message };
      throw error;
    }
  });
  if ('alreadyDisabled' in outcome) {
    if (options.json) ctx.out.json({ success: true, alreadyDisabled: true });
    ctx.out.warn(outcome.alreadyDisabled);
    return ExitCode.Ok;
  }
  const { staff, sessionsEnded } = outcome;
  if (options.json) ctx.out.json({ success: true, staff, sessionsEnded });
  else ctx.out.success(`Disabled staff account ${staff.email}: it can no longer sign in, and ${sessionsText(sessionsEnded)}.`);
  return ExitCode.Ok;
}

export async function resetPasswordCommand(email: string, options: ResetOptions, ctx: CommandContext): Promise<ExitCode> {
  const { staff, sessionsEnded } = await withStaff(storeLocationOf(options, ctx), async (service) => {
    const account = await service.find(email);
    return service.resetPassword(account.id, await readPassword(options, ctx, account.email), cliUser(ctx.io.env));
  });
  if (options.json) ctx.out.json({ success: true, staff, sessionsEnded });
  else {
    const disabled = staff.disabledAt ? ' The account is still disabled.' : '';
    ctx.out.success(`New password set for ${staff.email}; ${sessionsText(sessionsEnded)}, so it signs in again with the new one.${disabled}`);
  }
  return ExitCode.Ok;
}

export async function takesLeadsCommand(address: string, answer: string, options: DataDirOptions, ctx: CommandContext): Promise<ExitCode> {
  const wanted = answer.trim().toLowerCase();
  if (wanted !== 'yes' && wanted !== 'no') throw new CliError(`Answer yes or no (got "${answer}"): blogpost staff takes-leads ${address} yes`, ExitCode.Usage);
  const staff = await withStaff(storeLocationOf(options, ctx), (service) => service.setTakesLeads(address, wanted === 'yes', cliUser(ctx.io.env)));
  if (options.json) ctx.out.json({ success: true, staff });
  else ctx.out.success(wanted === 'yes' ? `${staff.email} now takes new leads in turn.` : `${staff.email} takes no new leads; the leads they have stay theirs.`);
  return ExitCode.Ok;
}
