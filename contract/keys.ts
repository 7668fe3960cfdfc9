/**
 * The API key format, checkable offline: `bpk_` + a 10-character public id + `_` + a 32-character
 * random secret + a 6-character checksum (CRC32 of everything before it, in base62), like GitHub's
 * tokens. A mistyped or truncated key fails the checksum before any request is sent. Pure TypeScript:
 * generating keys (which needs a secure random source) and hashing them live on the server.
 */
import { z } from 'zod';
import { API_PERMISSIONS } from './choices';

export const API_KEY_PREFIX = 'bpk_';
export const API_KEY_ID_LENGTH = 10;
export const API_KEY_SECRET_LENGTH = 32;
export const API_KEY_CHECKSUM_LENGTH = 6;
export const BASE62_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export { API_PERMISSIONS };
export type ApiPermission = (typeof API_PERMISSIONS)[number];
export const apiPermissionSchema = z.enum(API_PERMISSIONS);

/** Whether a key with these permissions may do what `permission` allows (blog:admin includes the others). */
export function permits(permissions: readonly ApiPermission[], permission: ApiPermission): boolean {
  return permissions.includes(permission) || permissions.includes('blog:admin');
}

/** Whether a key may read drafts, scheduled posts and the trash (each of today's permissions does). */
export function readsDrafts(permissions: readonly ApiPermission[]): boolean {
  const readers: readonly ApiPermission[] = ['blog:read', 'blog:write', 'blog:admin'];
  return permissions.some((permission) => readers.includes(permission));
}

const KEY_PATTERN = new RegExp(
  `^${API_KEY_PREFIX}[0-9A-Za-z]{${API_KEY_ID_LENGTH}}_[0-9A-Za-z]{${API_KEY_SECRET_LENGTH + API_KEY_CHECKSUM_LENGTH}}$`,
);

/**
 * CRC-32 (IEEE) of the UTF-8 bytes of `text`, a bit at a time: a key is 52 bytes, so no lookup table
 * is worth building (and none built when the module loads is out of reach of mutation testing).
 */
export function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** `value` in base62, left-padded with zeros to `width` characters. */
export function toBase62(value: number, width: number): string {
  let out = '';
  let rest = Math.floor(value);
  do {
    out = BASE62_ALPHABET[rest % 62] + out;
    rest = Math.floor(rest / 62);
  } while (rest > 0);
  return out.padStart(width, '0');
}

export function apiKeyChecksum(body: string): string {
  return toBase62(crc32(body), API_KEY_CHECKSUM_LENGTH);
}

/** Assembles a key from its public id and secret (both base62 of the right lengths). */
export function formatApiKey(publicId: string, secret: string): string {
  const body = `${API_KEY_PREFIX}${publicId}_${secret}`;
  return `${body}${apiKeyChecksum(body)}`;
}

export type ApiKeyCheck =
  | { ok: true; publicId: string; secret: string }
  | { ok: false; problem: 'empty' | 'prefix' | 'shape' | 'checksum'; message: string };

/** Checks a key's shape and checksum without asking any server. */
export function checkApiKey(raw: string): ApiKeyCheck {
  const key = raw.trim();
  if (key === '') return { ok: false, problem: 'empty', message: 'The API key is empty.' };
  if (!key.startsWith(API_KEY_PREFIX)) {
    return { ok: false, problem: 'prefix', message: `API keys start with "${API_KEY_PREFIX}"; this one does not.` };
  }
  if (!KEY_PATTERN.test(key)) {
    const expected = API_KEY_PREFIX.length + API_KEY_ID_LENGTH + 1 + API_KEY_SECRET_LENGTH + API_KEY_CHECKSUM_LENGTH;
    return {
      ok: false,
      problem: 'shape',
      message: `The API key is not in the expected shape (${expected} characters: ${API_KEY_PREFIX}, a 10-character id, "_", then letters and digits); it is ${key.length} characters long. It may be truncated or have extra characters.`,
    };
  }
  // The pattern matched, so every part is where the format puts it.
  const body = key.slice(0, -API_KEY_CHECKSUM_LENGTH);
  if (apiKeyChecksum(body) !== key.slice(-API_KEY_CHECKSUM_LENGTH)) {
    return { ok: false, problem: 'checksum', message: 'The API key fails its checksum: a character was mistyped or changed when it was copied.' };
  }
  const idStart = API_KEY_PREFIX.length;
  return { ok: true, publicId: body.slice(idStart, idStart + API_KEY_ID_LENGTH), secret: body.slice(idStart + API_KEY_ID_LENGTH + 1) };
}

/** A key safe to show in logs and lists: prefix, public id and the last four characters. */
export function maskApiKey(key: string): string {
  const check = checkApiKey(key);
  return check.ok ? `${API_KEY_PREFIX}${check.publicId}_…${key.trim().slice(-4)}` : `${key.trim().slice(0, 4)}…`;
}

export type BearerToken = { ok: true; token: string } | { ok: false; problem: 'missing' | 'scheme' };

/** Reads `Authorization: Bearer <key>`; tolerates any case of "Bearer" and extra spaces. */
export function readBearerToken(header: string | undefined): BearerToken {
  const value = header?.trim() ?? '';
  if (value === '') return { ok: false, problem: 'missing' };
  // Trimmed above, so the token runs to the end.
  const match = /^bearer\s+(\S+)$/i.exec(value);
  return match?.[1] ? { ok: true, token: match[1] } : { ok: false, problem: 'scheme' };
}

/** A key as lists show it: never the secret or its hash. */
export interface ApiKeySummary {
  id: string;
  name: string;
  /** Whose posts the key may change (keys of one owner share their posts). */
  owner: string;
  permissions: ApiPermission[];
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export const API_KEY_NAME_PATTERN = /^[\w .@:-]{1,60}$/;
