/**
 * Idempotency-Key handling: the header's rules, the scope a key is remembered under (per API key, so two
 * integrators never collide) and the fingerprint of the body a retry must repeat exactly.
 */
import { hash } from 'node:crypto';
import { ApiError } from '../../contract/errors';

function sha256(text: string | Uint8Array): string {
  return hash('sha256', text, 'hex');
}

/** The header's value, undefined when absent; a 400 when it is empty, too long or not visible ASCII. */
export function readIdempotencyKey(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (!/^[\x21-\x7e]{1,255}$/.test(value)) throw new ApiError('invalid_idempotency_key');
  return value;
}

export function idempotencyScope(apiKeyId: string, idempotencyKey: string): string {
  return sha256(`${apiKeyId}\n${idempotencyKey}`);
}

/** The fingerprint of the exact bytes of a request body. */
export function bodyFingerprint(body: Uint8Array): string {
  return sha256(body);
}
