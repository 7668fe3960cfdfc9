/**
 * Staff accounts as `blogpost staff` (and later the staff pages) change them: add, list, disable,
 * reset a password. Every change is written to the audit log with who made it (`cli:<user>`,
 * `staff:<email>`); disabling an account or resetting its password ends its sessions. Rules broken
 * are a StaffError with a problem code and a message that says what to do. Passwords go only to
 * passwords.ts: never into a record, a message or the audit log.
 */
import { closest, distance } from 'fastest-levenshtein';
import { z } from 'zod';
import type { AuditEntry, StaffRecord } from '../../contract/staff';
import { randomBase62 } from '../services/keys';
import type { AuditLog, SessionRepository, StaffRepository } from '../store/store';
import { hashPassword, passwordProblem } from './passwords';

const EMAIL = z.email();
const EMAIL_MAX = 254;
const NAME_MAX = 100;
const STAFF_ID_LENGTH = 16;

/** An account as it is shown: everything but the password hash. */
export type StaffSummary = Omit<StaffRecord, 'passwordHash'>;

export type StaffProblem = 'invalid_email' | 'invalid_name' | 'email_taken' | 'weak_password' | 'not_found' | 'already_disabled';

export class StaffError extends Error {
  override readonly name = 'StaffError';
  readonly problem: StaffProblem;

  constructor(problem: StaffProblem, message: string) {
    super(message);
    this.problem = problem;
  }
}

export interface StaffStores {
  staff: StaffRepository;
  sessions: SessionRepository;
  audit: AuditLog;
}

export interface NewStaff {
  email: string;
  name: string;
  password: string;
}

export function summaryOfStaff(record: StaffRecord): StaffSummary {
  return {
    id: record.id,
    email: record.email,
    name: record.name,
    createdAt: record.createdAt,
    passwordChangedAt: record.passwordChangedAt,
    disabledAt: record.disabledAt,
    ...(record.takesLeads === false ? { takesLeads: false } : {}),
  };
}

/** E-mails are kept trimmed and lower-cased, so one address is one account whatever its case. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

function checkEmail(raw: string): string {
  const email = normaliseEmail(raw);
  if (email.length > EMAIL_MAX || !EMAIL.safeParse(email).success) {
    throw new StaffError('invalid_email', `"${raw.trim()}" is not an e-mail address; give the staff member's address, like jane@example.com.`);
  }
  return email;
}

function checkName(raw: string): string {
  const name = raw.trim().replace(/\s+/g, ' ');
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  if (!name || name.length > NAME_MAX || /[\u0000-\u001F\u007F-\u009F]/.test(name)) {
    throw new StaffError('invalid_name', `Give the staff member's name, 1 to ${NAME_MAX} characters, like --name "Jane Agent".`);
  }
  return name;
}

function emailTaken(address: string): StaffError {
  return new StaffError('email_taken', `A staff account for ${address} exists already; to give it a new password run: blogpost staff reset-password ${address}`);
}

export class StaffService {
  readonly #stores: StaffStores;
  readonly #now: () => Date;

  constructor(stores: StaffStores, now: () => Date = () => new Date()) {
    this.#stores = stores;
    this.#now = now;
  }

  async #audit(action: AuditEntry['action'], actor: string, target: string, detail: AuditEntry['detail'] = {}): Promise<void> {
    await this.#stores.audit.append({ at: this.#now().toISOString(), actor, action, target, detail, ip: null });
  }

  /** Adds an account (the password checked, then hashed); refuses a taken e-mail. */
  async add(input: NewStaff, actor: string): Promise<StaffSummary> {
    const email = checkEmail(input.email);
    const name = checkName(input.name);
    if (await this.#stores.staff.findByEmail(email)) throw emailTaken(email);
    const problem = passwordProblem(input.password, { email, name });
    if (problem) throw new StaffError('weak_password', problem);
    const at = this.#now().toISOString();
    const record: StaffRecord = {
      id: `stf_${randomBase62(STAFF_ID_LENGTH)}`,
      email,
      name,
      passwordHash: await hashPassword(input.password),
      createdAt: at,
      passwordChangedAt: at,
      disabledAt: null,
    };
    await this.#stores.staff.add(record);
    await this.#audit('staff.added', actor, email, { id: record.id });
    return summaryOfStaff(record);
  }

  /** Every account, in the order they were added. */
  async list(): Promise<StaffSummary[]> {
    return (await this.#stores.staff.list()).map(summaryOfStaff);
  }

  /** The account with this e-mail (any case) or id, or a not-found error that suggests the closest e-mail. */
  async find(emailOrId: string): Promise<StaffRecord> {
    const wanted = emailOrId.trim();
    const found = wanted.startsWith('stf_') ? await this.#stores.staff.findById(wanted) : await this.#stores.staff.findByEmail(wanted);
    if (found) return found;
    const emails = (await this.#stores.staff.list()).map((record) => record.email);
    const near = emails.length > 0 ? closest(normaliseEmail(wanted), emails) : undefined;
    const hint = near && distance(normaliseEmail(wanted), near) <= 3 ? ` Did you mean ${near}?` : '';
    throw new StaffError('not_found', `No staff account has the e-mail or id "${wanted}".${hint} List the accounts with: blogpost staff list`);
  }

  /** Disables an account: it cannot sign in any more, and its sessions end now. */
  async disable(emailOrId: string, actor: string, reason?: string): Promise<{ staff: StaffSummary; sessionsEnded: number }> {
    const record = await this.find(emailOrId);
    if (record.disabledAt !== null) {
      throw new StaffError('already_disabled', `The staff account ${record.email} was disabled already (${record.disabledAt}); nothing changed.`);
    }
    const updated = await this.#stores.staff.update(record.id, { disabledAt: this.#now().toISOString() });
    if (!updated) throw new StaffError('not_found', `The staff account ${record.email} was removed meanwhile; nothing changed.`);
    const sessionsEnded = await this.#stores.sessions.deleteForStaff(record.id);
    const why = reason?.trim();
    await this.#audit('staff.disabled', actor, record.email, { id: record.id, sessionsEnded, ...(why ? { reason: why } : {}) });
    return { staff: summaryOfStaff(updated), sessionsEnded };
  }

  /** Whether new leads are given to this account in turn (round robin among those who take leads). */
  async setTakesLeads(emailOrId: string, takesLeads: boolean, actor: string): Promise<StaffSummary> {
    const record = await this.find(emailOrId);
    const updated = await this.#stores.staff.update(record.id, { takesLeads });
    if (!updated) throw new StaffError('not_found', `The staff account ${record.email} was removed meanwhile; nothing changed.`);
    if ((record.takesLeads !== false) !== takesLeads) await this.#audit('staff.takes_leads_changed', actor, record.email, { id: record.id, takesLeads });
    return summaryOfStaff(updated);
  }

  /** Gives an account a new password (checked like a new one) and ends its sessions. */
  async resetPassword(emailOrId: string, password: string, actor: string): Promise<{ staff: StaffSummary; sessionsEnded: number }> {
    const record = await this.find(emailOrId);
    const problem = passwordProblem(password, record);
    if (problem) throw new StaffError('weak_password', problem);
    const updated = await this.#stores.staff.update(record.id, { passwordHash: await hashPassword(password), passwordChangedAt: this.#now().toISOString() });
    if (!updated) throw new StaffError('not_found', `The staff account ${record.email} was removed meanwhile; nothing changed.`);
    const sessionsEnded = await this.#stores.sessions.deleteForStaff(record.id);
    await this.#audit('staff.password_reset', actor, record.email, { id: record.id, sessionsEnded });
    return { staff: summaryOfStaff(updated), sessionsEnded };
  }
}
