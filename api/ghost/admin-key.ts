/**
 * Ghost Admin API keys (decision 0033). A Ghost admin key is `id:secret`, a 24-hex id and a 64-hex
 * secret; apps sign a short JWT (HS256, header `kid` = id, payload `iat`, `exp` at most 5 minutes later,
 * `aud` = `/admin/` or an older `/v<n>/admin/`) with the secret's bytes. The server must know the secret
 * to check that signature, and our keys are stored only as hashes, so the secret is DERIVED, never
 * stored: HMAC-SHA256 of `ghost-admin-key:<id>` under the store's pseudonym key, the secret every app
 * server of the site shares already (api/services/signed-links.ts). Checking a token recomputes it
 * from the `kid`; the key record (a `ghost` key of the keys table) holds owner, permissions and
 * revocation as any key does.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const GHOST_KEY_ID_PATTERN = /^[0-9a-f]{24}$/;
/** The longest a token may live, and the most its `iat` may lie in the past (Ghost's own limit). */
export const GHOST_TOKEN_MAX_AGE_SECONDS = 300;
/** How far ahead of the server's clock an app's `iat` may be. */
const CLOCK_SKEW_SECONDS = 60;
/** The audiences Ghost's clients send: `/admin/`, `/v2/admin/` ... `/v5.0/admin/`, `/canary/admin/`. */
const AUDIENCE_PATTERN = /^\/(?:v\d+(?:\.\d+)?\/|canary\/)?admin\/$/;

/** The secret of Ghost admin key `id` (64 hex characters), as every server of the site derives it. */
export function ghostSecret(pseudonymKey: Buffer, id: string): string {
  return createHmac('sha256', pseudonymKey).update(`ghost-admin-key:${id}`).digest('hex');
}

/** Why a token is refused, in Ghost's words (its `message`) and its HTTP status. */
export interface TokenProblem {
  status: 400 | 401;
  type: 'BadRequestError' | 'UnauthorizedError';
  message: string;
  /** What to do about it. */
  context: string;
  code: string;
}

function problem(status: 400 | 401, code: string, message: string, context: string): TokenProblem {
  return { status, type: status === 400 ? 'BadRequestError' : 'UnauthorizedError', message, context, code };
}

function decodePart(part: string): Record<string, unknown> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(part)) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** A token's parts before its signature is checked: its `kid`, or why it cannot be read. */
export function readToken(token: string): { ok: true; kid: string; header: Record<string, unknown>; payload: Record<string, unknown>; signed: string; signature: string } | { ok: false; problem: TokenProblem } {
  const parts = token.split('.');
  const header = parts.length === 3 ? decodePart(parts[0] ?? '') : null;
  const payload = parts.length === 3 ? decodePart(parts[1] ?? '') : null;
  if (!header || !payload) return { ok: false, problem: problem(400, 'INVALID_JWT', 'Invalid JWT', 'The token is not a JSON Web Token: sign one with the Admin API key (header kid = the key id, HS256).') };
  const kid = header.kid;
  if (typeof kid !== 'string' || kid === '') return { ok: false, problem: problem(400, 'INVALID_JWT', 'Invalid JWT', 'Admin API kid missing: put the key id (the part before the colon) in the token header as kid.') };
  return { ok: true, kid, header, payload, signed: `${parts[0]}.${parts[1]}`, signature: parts[2] ?? '' };
}

/** Checks a read token against the key's secret (hex) at `now`: signature, algorithm, audience, times. */
export function checkToken(read: Extract<ReturnType<typeof readToken>, { ok: true }>, secretHex: string, now: Date): TokenProblem | null {
  const invalid = (message: string, context: string) => problem(401, 'INVALID_JWT', `Invalid token: ${message}`, context);
  if (read.header.alg !== 'HS256') return invalid('invalid algorithm', 'Sign the token with HS256.');
  const expected = createHmac('sha256', Buffer.from(secretHex, 'hex')).update(read.signed).digest();
  const given = Buffer.from(read.signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return invalid('invalid signature', 'Sign the token with the secret of the Admin API key (the part after the colon, read as hex bytes).');
  }
  const { iat, exp, aud } = read.payload;
  const audiences = Array.isArray(aud) ? aud : [aud];
  if (!audiences.some((value) => typeof value === 'string' && AUDIENCE_PATTERN.test(value))) {
    return invalid('jwt audience invalid', 'Set the token audience (aud) to /admin/.');
  }
  const seconds = Math.floor(now.getTime() / 1000);
  if (typeof iat !== 'number' || typeof exp !== 'number') return invalid('iat and exp required', 'Give the token iat (now, in seconds) and exp (at most 5 minutes later).');
  if (exp <= seconds) return invalid('jwt expired', 'Make a new token for each request: a token lives at most 5 minutes.');
  if (exp - iat > GHOST_TOKEN_MAX_AGE_SECONDS) return invalid('maxAge exceeded', 'Set exp at most 5 minutes after iat.');
  if (seconds - iat > GHOST_TOKEN_MAX_AGE_SECONDS) return invalid('maxAge exceeded', 'The token was made more than 5 minutes ago: make a new one.');
  if (iat - seconds > CLOCK_SKEW_SECONDS) return invalid('jwt issued in the future', "Check the computer's clock: the token's iat is ahead of the server's time.");
  return null;
}
