/**
 * Staff accounts for the tests that are about what a signed-in member does, not about adding one:
 * written straight to the store with a password hash of a smaller scrypt cost. The product reads a
 * hash's cost from the hash itself (`scrypt$<N>$<r>$<p>$...`, api/staff/passwords.ts, decision 0006:
 * "the parameters can be raised later without breaking stored hashes"), so such an account signs in
 * as one added by an older install would, in milliseconds instead of a quarter of a second a try.
 * Adding an account (`blogpost staff add`, the staff service, `TestServer.createStaff`) still hashes
 * at the production cost, and tests prove it (api/staff/passwords.test.ts, tests/cli/staff.test.ts,
 * tests/api/staff-security.test.ts). Decision 0038 has the measurement.
 */
import { randomBytes, scryptSync } from 'node:crypto';
import { randomBase62 } from '../../api/services/keys';
import { normaliseEmail } from '../../api/staff/staff-service';
import { passwordProblem } from '../../api/staff/passwords';
import type { Store } from '../../api/store/store';

/** 1/64 of the production N (2^16): still a real scrypt hash the product verifies, about 4 ms. */
export const SEEDED_SCRYPT = { N: 2 ** 10, r: 8, p: 1 } as const;

/** A hash of `password` at SEEDED_SCRYPT's cost, in the format api/staff/passwords.ts writes and reads. */
export function cheapPasswordHash(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize('NFKC'), salt, 32, SEEDED_SCRYPT);
  const { N, r, p } = SEEDED_SCRYPT;
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * Adds an active staff account with a cheap hash of `password` to `store`; its e-mail (lower-cased).
 * The password must still be one the product would accept, so a test never signs in with one a
 * real account could not have.
 */
export async function seedStaff(store: Pick<Store, 'staff'>, email: string, password: string, name = 'Test Staff', now: () => Date = () => new Date()): Promise<string> {
  const normalised = normaliseEmail(email);
  const problem = passwordProblem(password, { email: normalised, name });
  if (problem) throw new Error(`seedStaff: ${problem}`);
  const at = now().toISOString();
  await store.staff.add({
    id: `stf_${randomBase62(16)}`,
    email: normalised,
    name,
    passwordHash: cheapPasswordHash(password),
    createdAt: at,
    passwordChangedAt: at,
    disabledAt: null,
  });
  return normalised;
}
