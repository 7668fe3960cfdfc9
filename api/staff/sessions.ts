/**
 * Staff sign-in sessions: an opaque random id in an HttpOnly, SameSite=Lax cookie (`__Host-` prefixed
 * and Secure over HTTPS), stored only as its SHA-256; a new id at every sign-in; an idle expiry and an
 * absolute one; sign-out of one session or all of them. Every state-changing staff form carries a
 * CSRF token derived from the session id (an HMAC, so nothing more is stored), and the sign-in form a
 * token paired with a short-lived cookie (double submit). Failed sign-ins are throttled per account
 * and address, per address, and per account for devices it never signed in on (sign-in-throttle.ts):
 * a sign-in leaves a year-long device cookie, signed with the account's password hash (so a new
 * password ends every one), which exempts that device from failures made elsewhere. The answer never
 * says whether the e-mail exists.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SessionRecord, StaffRecord } from '../../contract/staff';
import type { AuditLog, SessionRepository, StaffRepository } from '../store/store';
import { DUMMY_PASSWORD_HASH, verifyPassword } from './passwords';
import { SignInThrottle, type ThrottleSettings } from './sign-in-throttle';

/** A session ends after this long without a request... */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
/** ...and this long after sign-in, however active. */
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
/** How long the sign-in form's token stays good. */
const LOGIN_TOKEN_SECONDS = 60 * 60;
/** How long a device stays known to the sign-in throttle after a sign-in on it. */
export const DEVICE_MS = 365 * 24 * 60 * 60 * 1000;

export interface CookieNames {
  session: string;
  login: string;
  device: string;
}

/** `__Host-` names need Secure, so plain HTTP (development, tests) uses the bare names. */
export function cookieNames(secure: boolean): CookieNames {
  return secure
    ? { session: '__Host-staff_session', login: '__Host-staff_login', device: '__Host-staff_device' }
    : { session: 'staff_session', login: 'staff_login', device: 'staff_device' };
}

export function hashSessionId(id: string): string {
  return createHash('sha256').update(id, 'utf8').digest('hex');
}

function token(secret: string, purpose: string): string {
  return createHmac('sha256', secret).update(purpose).digest('base64url');
}

/** The CSRF token of a session: every staff form posts it as `_csrf`. */
export function csrfTokenFor(sessionId: string): string {
  return token(sessionId, 'staff-csrf');
}

/** The sign-in form's token for the value of its cookie. */
export function loginTokenFor(cookieValue: string): string {
  return token(cookieValue, 'staff-login');
}

export function sameToken(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function newRandomId(): string {
  return randomBytes(32).toString('base64url');
}

/** A `Set-Cookie` value: HttpOnly, SameSite=Lax, Path=/, Secure over HTTPS; `maxAgeSeconds` 0 clears it. */
export function cookie(name: string, value: string, options: { secure: boolean; maxAgeSeconds: number }): string {
  return `${name}=${value}; Path=/; Max-Age=${options.maxAgeSeconds}; HttpOnly; SameSite=Lax${options.secure ? '; Secure' : ''}`;
}

export function loginCookie(value: string, secure: boolean): string {
  return cookie(cookieNames(secure).login, value, { secure, maxAgeSeconds: LOGIN_TOKEN_SECONDS });
}

export function sessionCookie(value: string, secure: boolean): string {
  return cookie(cookieNames(secure).session, value, { secure, maxAgeSeconds: SESSION_ABSOLUTE_MS / 1000 });
}

export function deviceCookie(value: string, secure: boolean): string {
  return cookie(cookieNames(secure).device, value, { secure, maxAgeSeconds: DEVICE_MS / 1000 });
}

/** `<staff id>.<issued, ms in base 36>.<HMAC keyed with the account's password hash>`: says this device signed in as that account. */
function deviceToken(staff: StaffRecord, issuedAt: number): string {
  const issued = issuedAt.toString(36);
  return `${staff.id}.${issued}.${token(staff.passwordHash, `staff-device:${staff.id}:${issued}`)}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return cookie(cookieNames(secure).session, '', { secure, maxAgeSeconds: 0 });
}

export interface ActiveSession {
  sessionId: string;
  session: SessionRecord;
  staff: StaffRecord;
}

export interface Client {
  ip: string;
  userAgent: string;
}

export type SignInResult = { ok: true; sessionId: string; staff: StaffRecord; deviceToken: string } | { ok: false; retryAfterSeconds: number | null };

export interface StaffSessionsOptions {
  now?: () => Date;
  throttle?: Partial<ThrottleSettings>;
}

export class StaffSessions {
  readonly #staff: StaffRepository;
  readonly #sessions: SessionRepository;
  readonly #audit: AuditLog;
  readonly #now: () => Date;
  readonly #throttle: SignInThrottle;

  constructor(store: { staff: StaffRepository; sessions: SessionRepository; audit: AuditLog }, options: StaffSessionsOptions = {}) {
    this.#staff = store.staff;
    this.#sessions = store.sessions;
    this.#audit = store.audit;
    this.#now = options.now ?? (() => new Date());
    this.#throttle = new SignInThrottle(options.throttle, () => this.#now().getTime());
  }

  /** The session this id names, when it is still good (its staff member enabled); touched. */
  async resolve(sessionId: string | undefined): Promise<ActiveSession | null> {
    if (!sessionId || sessionId.length > 200) return null;
    const idHash = hashSessionId(sessionId);
    const session = await this.#sessions.get(idHash);
    if (!session) return null;
    const now = this.#now();
    const idle = now.getTime() - Date.parse(session.lastSeenAt) > SESSION_IDLE_MS;
    if (idle || now.toISOString() >= session.expiresAt) {
      await this.#sessions.delete(idHash);
      return null;
    }
    const staff = await this.#staff.findById(session.staffId);
    if (!staff || staff.disabledAt) {
      await this.#sessions.delete(idHash);
      return null;
    }
    await this.#sessions.touch(idHash, now.toISOString());
    return { sessionId, session, staff };
  }

  /** `device`: the value of the device cookie the browser sent, if any. */
  async signIn(email: string, password: string, client: Client, device?: string): Promise<SignInResult> {
    const account = email.trim().toLowerCase();
    const wait = this.#throttle.waitSeconds(account, client.ip, await this.#knownDevice(account, device));
    const staff = account ? await this.#staff.findByEmail(account) : undefined;
    if (wait > 0) {
      await this.#failed(account, staff, 'throttled', client);
      return { ok: false, retryAfterSeconds: wait };
    }
    // An unknown e-mail costs the same hash as a wrong password, so timing tells nothing either.
    const matches = await verifyPassword(password, staff?.passwordHash ?? DUMMY_PASSWORD_HASH);
    if (!staff || staff.disabledAt || !matches) {
      this.#throttle.failed(account, client.ip);
      await this.#failed(account, staff, staff?.disabledAt ? 'disabled' : 'wrong', client);
      return { ok: false, retryAfterSeconds: null };
    }
    this.#throttle.succeeded(account, client.ip);
    const sessionId = newRandomId();
    const now = this.#now();
    await this.#sessions.create({
      idHash: hashSessionId(sessionId),
      staffId: staff.id,
      createdAt: now.toISOString(),
      lastSeenAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_MS).toISOString(),
      ip: client.ip,
      userAgent: client.userAgent.slice(0, 512),
    });
    await this.#record(`staff:${staff.email}`, 'staff.signed_in', staff.email, {}, client);
    return { ok: true, sessionId, staff, deviceToken: deviceToken(staff, now.getTime()) };
  }

  /** Whether `device` is a device cookie this account was given at a sign-in in the last year, with its current password. */
  async #knownDevice(account: string, device: string | undefined): Promise<boolean> {
    const [id, issued, mac, ...rest] = (device ?? '').split('.');
    if (!id || !issued || !mac || rest.length > 0 || device === undefined || device.length > 200) return false;
    const issuedAt = parseInt(issued, 36);
    const age = this.#now().getTime() - issuedAt;
    if (!Number.isSafeInteger(issuedAt) || age < 0 || age > DEVICE_MS) return false;
    const staff = await this.#staff.findById(id);
    if (!staff || staff.disabledAt || staff.email !== account) return false;
    return sameToken(deviceToken(staff, issuedAt), device);
  }

  async signOut(active: ActiveSession, everywhere: boolean, client: Client): Promise<void> {
    if (everywhere) await this.#sessions.deleteForStaff(active.staff.id);
    else await this.#sessions.delete(hashSessionId(active.sessionId));
    await this.#record(`staff:${active.staff.email}`, everywhere ? 'staff.signed_out_everywhere' : 'staff.signed_out', active.staff.email, {}, client);
  }

  /** Sessions past their time go (hourly, from the server). */
  purgeExpired(): Promise<number> {
    const now = this.#now();
    return this.#sessions.purgeExpired(now.toISOString(), new Date(now.getTime() - SESSION_IDLE_MS).toISOString());
  }

  /**
   * A failed sign-in in the audit: the account when the e-mail names one; otherwise only a keyed hash of
   * what was typed (`emailHash`, the same for the same text, so repeated tries show), never the text.
   */
  async #failed(account: string, staff: StaffRecord | undefined, reason: 'throttled' | 'disabled' | 'wrong', client: Client): Promise<void> {
    if (staff) return this.#record('visitor', 'staff.sign_in_failed', staff.email, { reason }, client);
    const emailHash = createHmac('sha256', await this.#audit.pseudonymKey()).update(`sign-in-email:${account}`).digest('hex').slice(0, 16);
    return this.#record('visitor', 'staff.sign_in_failed', null, { reason: reason === 'wrong' ? 'unknown_email' : reason, emailHash }, client);
  }

  #record(actor: string, action: 'staff.signed_in' | 'staff.sign_in_failed' | 'staff.signed_out' | 'staff.signed_out_everywhere', target: string | null, detail: Record<string, string>, client: Client): Promise<void> {
    return this.#audit.append({ at: this.#now().toISOString(), actor, action, target, detail, ip: client.ip });
  }
}
