/**
 * API keys: generated from a secure random source in the format of contract/keys.ts, stored only as
 * a SHA-256 hash (the secret has ~190 bits of entropy, so a fast hash is enough, as for GitHub tokens),
 * verified by id lookup and a constant-time hash comparison, listed and revoked (with who and why). A
 * key's last use, and its last failure (a request that named it and was refused), are recorded at most
 * once a minute, as bookkeeping that never fails or delays the request.
 */
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  API_KEY_ID_LENGTH,
  API_KEY_NAME_PATTERN,
  API_KEY_SECRET_LENGTH,
  type ApiKeySummary,
  type ApiPermission,
  BASE62_ALPHABET,
  checkApiKey,
  formatApiKey,
} from '../../contract/keys';
import type { KeyRecord, KeyRepository } from '../store/store';

/** Only record a key's use (or a failure like the last) when the last record is older than this, so busy keys do not rewrite the file. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** A key with its bookkeeping, as `blogpost keys list` and `blogpost diagnose <request-id>` show it. */
export interface KeyDetails extends ApiKeySummary {
  lastFailedAt: string | null;
  lastFailureCode: string | null;
  revokedBy: string | null;
  revokeReason: string | null;
  /** What kind of key: a site API key, one issued through IndieAuth, or a Ghost Admin API key. */
  kind: 'api' | 'indieauth' | 'ghost';
}

export function detailsOf(record: KeyRecord): KeyDetails {
  return {
    ...summaryOf(record),
    lastFailedAt: record.lastFailedAt ?? null,
    lastFailureCode: record.lastFailureCode ?? null,
    revokedBy: record.revokedBy ?? null,
    revokeReason: record.revokeReason ?? null,
    kind: record.ghost ? 'ghost' : record.indieAuth ? 'indieauth' : 'api',
  };
}

/** Who revoked a key and why. */
export interface Revocation {
  /** `cli:<user>` or a staff account. */
  by: string;
  reason?: string | undefined;
}

export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 * 62: rejecting the top values keeps every character equally likely.
      if (byte < 248 && out.length < length) out += BASE62_ALPHABET[byte % 62];
    }
  }
  return out;
}

export function hashApiKey(key: string): string {
  return `sha256:${hash('sha256', key.trim(), 'hex')}`;
}

/** Whether two hashes are the same, in constant time: their own digests are compared, so any two lengths compare. */
function hashesEqual(a: string, b: string): boolean {
  return timingSafeEqual(hash('sha256', a, 'buffer'), hash('sha256', b, 'buffer'));
}

export function summaryOf(record: KeyRecord): ApiKeySummary {
  return {
    id: record.id,
    name: record.name,
    owner: record.owner ?? record.name,
    permissions: [...record.permissions],
    createdAt: record.createdAt,
    lastUsedAt: record.lastUsedAt,
    revokedAt: record.revokedAt,
  };
}

export class KeyError extends Error {
  override readonly name = 'KeyError';
  readonly problem: 'invalid_name' | 'duplicate_name' | 'no_permissions' | 'not_found' | 'ambiguous';

  constructor(problem: KeyError['problem'], message: string) {
    super(message);
    this.problem = problem;
  }
}

export type KeyVerification =
  | { ok: true; key: ApiKeySummary }
  | { ok: false; reason: 'malformed'; message: string }
  | { ok: false; reason: 'unknown' | 'revoked'; /** The key id the request named. */ publicId: string };

export class KeyService {
  readonly #store: KeyRepository;
  readonly #now: () => Date;

  constructor(store: KeyRepository, now: () => Date = () => new Date()) {
    this.#store = store;
    this.#now = now;
  }

  /** Creates a key; the returned secret exists nowhere else and cannot be shown again. */
  /** Creates a key; `owner` (default: its name) decides whose posts it may change. */
  /** `indieAuth`: the app and scopes of a key issued through IndieAuth (its token endpoint answers them). */
  async create(input: { name: string; permissions: readonly ApiPermission[]; owner?: string; indieAuth?: { clientId: string; scope: string } }): Promise<{ key: ApiKeySummary; secret: string }> {
    const name = input.name.trim();
    if (!API_KEY_NAME_PATTERN.test(name)) {
      throw new KeyError('invalid_name', 'A key name is 1 to 60 letters, digits, spaces or . _ - @ : characters.');
    }
    const owner = input.owner?.trim() || name;
    if (!API_KEY_NAME_PATTERN.test(owner)) {
      throw new KeyError('invalid_name', 'An owner is 1 to 60 letters, digits, spaces or . _ - @ : characters.');
    }
    const permissions = [...new Set(input.permissions)];
    if (permissions.length === 0) throw new KeyError('no_permissions', 'A key needs at least one permission.');
    const id = randomBase62(API_KEY_ID_LENGTH);
    const secret = formatApiKey(id, randomBase62(API_KEY_SECRET_LENGTH));
    const record: KeyRecord = {
      id,
      name,
      owner,
      permissions,
      hash: hashApiKey(secret),
      createdAt: this.#now().toISOString(),
      lastUsedAt: null,
      revokedAt: null,
      ...(input.indieAuth ? { indieAuth: { ...input.indieAuth } } : {}),
    };
    // The store checks the name as it adds the key, atomically: a key of this name created meanwhile
    // by the CLI or another server counts.
    if ((await this.#store.add(record)) === 'name_taken') {
      throw new KeyError('duplicate_name', `An active key is already named "${name}"; pick another name or revoke that key first.`);
    }
    return { key: summaryOf(record), secret };
  }

  /**
   * Creates a Ghost Admin API key (decision 0033): a 24-hex id, its secret `secretOf(id)` (derived, so
   * it is not stored: the record keeps only the hash of `id:secret`, as for any key). Returns `id:secret`.
   */
  async createGhost(input: { name: string; permissions: readonly ApiPermission[]; owner?: string }, secretOf: (id: string) => Promise<string>): Promise<{ key: ApiKeySummary; secret: string }> {
    const name = input.name.trim();
    if (!API_KEY_NAME_PATTERN.test(name)) throw new KeyError('invalid_name', 'A key name is 1 to 60 letters, digits, spaces or . _ - @ : characters.');
    const owner = input.owner?.trim() || name;
    if (!API_KEY_NAME_PATTERN.test(owner)) throw new KeyError('invalid_name', 'An owner is 1 to 60 letters, digits, spaces or . _ - @ : characters.');
    const permissions = [...new Set(input.permissions)];
    if (permissions.length === 0) throw new KeyError('no_permissions', 'A key needs at least one permission.');
    const id = randomBytes(12).toString('hex');
    const secret = `${id}:${await secretOf(id)}`;
    const record: KeyRecord = { id, name, owner, permissions, hash: hashApiKey(secret), createdAt: this.#now().toISOString(), lastUsedAt: null, revokedAt: null, ghost: true };
    if ((await this.#store.add(record)) === 'name_taken') {
      throw new KeyError('duplicate_name', `An active key is already named "${name}"; pick another name or revoke that key first.`);
    }
    return { key: summaryOf(record), secret };
  }

  /** The Ghost Admin API key `id` names (its token's signature is checked by the caller), as `verify` answers. */
  async verifyGhost(id: string): Promise<KeyVerification> {
    const record = await this.#store.findById(id);
    if (!record?.ghost) return { ok: false, reason: 'unknown', publicId: id };
    if (record.revokedAt !== null) return { ok: false, reason: 'revoked', publicId: id };
    return { ok: true, key: summaryOf(this.#recordUse(record)) };
  }

  async list(): Promise<ApiKeySummary[]> {
    return (await this.#store.list()).map(summaryOf);
  }

  /** Every key with its failures and revocation details. */
  async details(): Promise<KeyDetails[]> {
    return (await this.#store.list()).map(detailsOf);
  }

  async find(id: string): Promise<KeyDetails | undefined> {
    const record = await this.#store.findById(id);
    return record ? detailsOf(record) : undefined;
  }

  /** Revokes the key with this id (or this exact name when it names exactly one key), recording who and why. */
  async revoke(idOrName: string, revocation?: Revocation): Promise<{ key: KeyDetails; alreadyRevoked: boolean }> {
    const keys = await this.#store.list();
    let match = keys.find((key) => key.id === idOrName);
    if (!match) {
      const named = keys.filter((key) => key.name === idOrName);
      const active = named.filter((key) => key.revokedAt === null);
      if (active.length > 1 || (active.length === 0 && named.length > 1)) {
        throw new KeyError('ambiguous', `More than one key is named "${idOrName}"; revoke by id instead.`);
      }
      match = active[0] ?? named[0];
    }
    if (!match) throw new KeyError('not_found', `No key has the id or name "${idOrName}".`);
    if (match.revokedAt !== null) return { key: detailsOf(match), alreadyRevoked: true };
    const reason = revocation?.reason?.trim();
    const updated = await this.#store.update(match.id, {
      revokedAt: this.#now().toISOString(),
      revokedBy: revocation?.by ?? null,
      revokeReason: reason ? reason : null,
    });
    if (!updated) throw new KeyError('not_found', `No key has the id "${match.id}".`);
    return { key: detailsOf(updated), alreadyRevoked: false };
  }

  /** Checks a key sent by a client: shape and checksum, then the stored hash, then revocation. */
  async verify(raw: string): Promise<KeyVerification> {
    const shape = checkApiKey(raw);
    if (!shape.ok) return { ok: false, reason: 'malformed', message: shape.message };
    const { publicId } = shape;
    const record = await this.#store.findById(publicId);
    const presented = hashApiKey(raw);
    // Compared even when the id is unknown (with itself, then refused), so a miss costs the same as a wrong secret.
    const matches = hashesEqual(presented, record?.hash ?? presented);
    if (!record || !matches) return { ok: false, reason: 'unknown', publicId };
    if (record.revokedAt !== null) return { ok: false, reason: 'revoked', publicId };
    return { ok: true, key: summaryOf(this.#recordUse(record)) };
  }

  /** The record with its last use now, written unless the last use recorded is under a minute old. */
  #recordUse(record: KeyRecord): KeyRecord {
    const now = this.#now();
    if (record.lastUsedAt !== null && now.getTime() - Date.parse(record.lastUsedAt) < LAST_USED_RESOLUTION_MS) return record;
    const lastUsedAt = now.toISOString();
    // Bookkeeping, not awaited: a full disk or a busy key file must not delay or turn away a valid key.
    this.#store.update(record.id, { lastUsedAt }).catch(() => undefined);
    return { ...record, lastUsedAt };
  }

  /**
   * Records that a request naming key `id` failed with `code`, when such a key is stored. Bookkeeping, not
   * awaited, like the last use: never fails or delays the request; a repeat of the same failure within a
   * minute is not written.
   */
  recordFailure(id: string, code: string): void {
    const at = this.#now();
    const work = async () => {
      const record = await this.#store.findById(id);
      if (!record) return;
      const recent = record.lastFailedAt && at.getTime() - Date.parse(record.lastFailedAt) < LAST_USED_RESOLUTION_MS;
      if (recent && record.lastFailureCode === code) return;
      await this.#store.update(id, { lastFailedAt: at.toISOString(), lastFailureCode: code });
    };
    work().catch(() => undefined);
  }
}
