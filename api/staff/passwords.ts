/**
 * Staff passwords: hashed with scrypt (memory-hard; parameters and their cost in
 * docs/decisions/0006-staff-password-hashing.md), stored as `scrypt$<N>$<r>$<p>$<salt>$<hash>` so the
 * parameters can be raised later without breaking stored hashes, verified in constant time; and the
 * rules a new password must meet (length, not a common or guessable password, not the e-mail or name).
 * A password is never logged, stored or returned: only its hash leaves this module.
 */
import { randomBytes, scrypt, type ScryptOptions, timingSafeEqual } from 'node:crypto';
import { createRequire } from 'node:module';
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import type * as ZxcvbnCommon from '@zxcvbn-ts/language-common';

/** The parameters of new hashes: 64 MiB and about a quarter of a second on this machine (decision 0006). */
export const SCRYPT_PARAMETERS = { N: 2 ** 16, r: 8, p: 1 } as const;
const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** A stored hash asking for more than this is refused (false), so a planted hash cannot exhaust memory. */
const MAX_MEMORY_BYTES = 512 * 1024 * 1024;

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;
/** zxcvbn's score (0-4) a password needs: 3 means more than 10^8 guesses. */
const MIN_STRENGTH_SCORE = 3;

interface ScryptParameters {
  N: number;
  r: number;
  p: number;
}

/** The same password typed on two keyboards can differ in Unicode form: both hash alike. */
function normalised(password: string): string {
  return password.normalize('NFKC');
}

/** Node refuses when 128 * N * r exceeds maxmem: twice that leaves room for its own bookkeeping. */
function memoryFor({ N, r }: ScryptParameters): number {
  return 2 * 128 * N * r;
}

function deriveKey(password: string, salt: Buffer, length: number, parameters: ScryptParameters): Promise<Buffer> {
  const options: ScryptOptions = { ...parameters, maxmem: memoryFor(parameters) };
  return new Promise((resolve, reject) => {
    scrypt(normalised(password), salt, length, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** A new hash of `password` with a random salt and the current parameters. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await deriveKey(password, salt, KEY_BYTES, SCRYPT_PARAMETERS);
  const { N, r, p } = SCRYPT_PARAMETERS;
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

interface StoredHash extends ScryptParameters {
  salt: Buffer;
  key: Buffer;
}

const WHOLE = /^[1-9]\d{0,9}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The parts of a stored hash, or null when it is not one this module could have written. */
function parseStored(stored: string): StoredHash | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [, n, r, p, salt, key] = parts;
  if (![n, r, p].every((value) => value !== undefined && WHOLE.test(value))) return null;
  if (![salt, key].every((value) => value !== undefined && BASE64URL.test(value))) return null;
  const parameters = { N: Number(n), r: Number(r), p: Number(p) };
  const powerOfTwo = parameters.N > 1 && (parameters.N & (parameters.N - 1)) === 0;
  if (!powerOfTwo || parameters.r > 64 || parameters.p > 16 || memoryFor(parameters) > MAX_MEMORY_BYTES) return null;
  const parsed = { ...parameters, salt: Buffer.from(salt ?? '', 'base64url'), key: Buffer.from(key ?? '', 'base64url') };
  return parsed.salt.length >= 8 && parsed.key.length >= 16 && parsed.key.length <= 64 ? parsed : null;
}

/** True when `password` matches the stored hash; false for a wrong password and for a malformed hash (never a throw). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseStored(stored);
  if (!parsed) return false;
  try {
    const key = await deriveKey(password, parsed.salt, parsed.key.length, parsed);
    return timingSafeEqual(key, parsed.key);
  } catch {
    return false;
  }
}

/** True when a stored hash was made with weaker parameters than today's (re-hash it at the next sign-in). */
export function needsRehash(stored: string): boolean {
  const parsed = parseStored(stored);
  if (!parsed) return true;
  const { N, r, p } = SCRYPT_PARAMETERS;
  return parsed.N < N || parsed.r < r || parsed.p < p || parsed.key.length < KEY_BYTES;
}

/**
 * A hash of a password nobody knows, with the current parameters (a test keeps them equal): verified
 * against when the e-mail is unknown, so such a sign-in takes as long as a wrong password.
 */
export const DUMMY_PASSWORD_HASH = 'scrypt$65536$8$1$orSSjHZ_fqXW7rfm8N45Ig$P5niqYyiXPQlBdN7_LcJwE20XGhqmRWKZ43zdPGr4UM';

/** Spends the time of one verification and answers false: for a sign-in whose e-mail is unknown. */
export async function verifyUnknownAccount(password: string): Promise<false> {
  await verifyPassword(password, DUMMY_PASSWORD_HASH);
  return false;
}

interface Zxcvbn {
  factory: ZxcvbnFactory;
  common: ReadonlySet<string>;
}

let zxcvbn: Zxcvbn | undefined;

/**
 * zxcvbn and its list of ~49,000 common passwords, loaded at the first check: every `blogpost`
 * command and the server import this module, and only adding or changing a password needs the list.
 */
function loadZxcvbn(): Zxcvbn {
  if (zxcvbn) return zxcvbn;
  const require = createRequire(import.meta.url);
  const { ZxcvbnFactory: Factory } = require('@zxcvbn-ts/core') as { ZxcvbnFactory: typeof ZxcvbnFactory };
  const common = require('@zxcvbn-ts/language-common') as typeof ZxcvbnCommon;
  zxcvbn = {
    factory: new Factory({ dictionary: { ...common.dictionary }, graphs: common.adjacencyGraphs, maxLength: PASSWORD_MAX_LENGTH }),
    common: new Set(common.dictionary['passwords-common'].map((word) => word.toLowerCase())),
  };
  return zxcvbn;
}

const SENTENCE_HINT = 'a short sentence of four or more words that are not a quotation is long and easy to remember';

/** The words of an account a password must not be: the e-mail, its part before the @, the name with and without spaces. */
function accountWords(account: { email: string; name: string }): string[] {
  const email = account.email.trim().toLowerCase();
  const name = account.name.trim().toLowerCase();
  return [email, email.split('@')[0] ?? '', name, name.replace(/\s+/g, '')].filter((word) => word.length > 0);
}

/**
 * Why `password` cannot be a staff password, as a message that says what to choose instead; null when
 * it may be used. At least 12 and at most 256 characters, not the account's e-mail or name, not on
 * zxcvbn's list of common passwords, and not easy to guess (zxcvbn score 3 or more).
 */
export function passwordProblem(password: string, account: { email: string; name: string }): string | null {
  const length = [...normalised(password)].length;
  if (length < PASSWORD_MIN_LENGTH) {
    return `The password has ${length} characters; choose one of at least ${PASSWORD_MIN_LENGTH}: ${SENTENCE_HINT}.`;
  }
  if (length > PASSWORD_MAX_LENGTH) return `The password has ${length} characters; choose one of at most ${PASSWORD_MAX_LENGTH}.`;
  const lower = normalised(password).trim().toLowerCase();
  const words = accountWords(account);
  if (words.includes(lower) || words.includes(lower.replace(/\s+/g, ''))) {
    return `The password is the account's e-mail address or name; choose something else: ${SENTENCE_HINT}.`;
  }
  const { factory, common } = loadZxcvbn();
  if (common.has(lower)) return `That password is on a list of common passwords that attackers try first; choose another: ${SENTENCE_HINT}.`;
  if (factory.check(password, words).score < MIN_STRENGTH_SCORE) {
    return `That password is easy to guess (common words or names, repeats, sequences, keyboard patterns, or the account's own e-mail or name); choose another: ${SENTENCE_HINT}.`;
  }
  return null;
}
