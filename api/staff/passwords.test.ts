/** Staff password hashing and the rules a new password must meet. */
import { scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DUMMY_PASSWORD_HASH, hashPassword, needsRehash, passwordProblem, SCRYPT_PARAMETERS, verifyPassword, verifyUnknownAccount } from './passwords';

const account = { email: 'jane.agent@example.com', name: 'Jane Agent' };
const good = 'a quiet harbour at dawn';

describe('hashPassword and verifyPassword', () => {
  it('verify the right password and refuse a wrong one', async () => {
    const stored = await hashPassword(good);
    expect(await verifyPassword(good, stored)).toBe(true);
    expect(await verifyPassword('a quiet harbour at dusk', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('store the parameters, a 16-byte salt and a 32-byte key, never the password', async () => {
    const stored = await hashPassword(good);
    const [scheme, n, r, p, salt, key] = stored.split('$');
    expect(scheme).toBe('scrypt');
    expect([Number(n), Number(r), Number(p)]).toEqual([SCRYPT_PARAMETERS.N, SCRYPT_PARAMETERS.r, SCRYPT_PARAMETERS.p]);
    expect(Buffer.from(salt ?? '', 'base64url')).toHaveLength(16);
    expect(Buffer.from(key ?? '', 'base64url')).toHaveLength(32);
    expect(stored).not.toContain('harbour');
    expect(await hashPassword(good)).not.toBe(stored);
  });

  it('read the parameters from the stored string, so hashes made with others still verify', async () => {
    const salt = Buffer.from('0123456789abcdef');
    const key = scryptSync(good, salt, 32, { N: 2 ** 10, r: 4, p: 2 });
    const older = ['scrypt', 1024, 4, 2, salt.toString('base64url'), key.toString('base64url')].join('$');
    expect(await verifyPassword(good, older)).toBe(true);
    expect(await verifyPassword('something else entirely', older)).toBe(false);
    expect(needsRehash(older)).toBe(true);
    expect(needsRehash(await hashPassword(good))).toBe(false);
  });

  it('treat the same password in another Unicode form as the same', async () => {
    const composed = 'café au lait every morning';
    const stored = await hashPassword(composed.normalize('NFC'));
    expect(await verifyPassword(composed.normalize('NFD'), stored)).toBe(true);
  });

  it('answer false, never throw, for a malformed stored hash', async () => {
    const stored = await hashPassword(good);
    const parts = stored.split('$');
    const malformed = [
      '',
      'plain text',
      stored.replace('scrypt$', 'bcrypt$'),
      parts.slice(0, 5).join('$'),
      [...parts, 'extra'].join('$'),
      ['scrypt', 1000, 8, 1, parts[4], parts[5]].join('$'),
      ['scrypt', 2 ** 30, 8, 1, parts[4], parts[5]].join('$'),
      ['scrypt', 'abc', 8, 1, parts[4], parts[5]].join('$'),
      ['scrypt', parts[1], 8, 1, 'not base64!', parts[5]].join('$'),
      ['scrypt', parts[1], 8, 1, parts[4], 'c2hvcnQ'].join('$'),
    ];
    for (const bad of malformed) expect(await verifyPassword(good, bad)).toBe(false);
  });

  it('keep the dummy hash at the current parameters, and never match it', async () => {
    const [, n, r, p] = DUMMY_PASSWORD_HASH.split('$');
    expect([Number(n), Number(r), Number(p)]).toEqual([SCRYPT_PARAMETERS.N, SCRYPT_PARAMETERS.r, SCRYPT_PARAMETERS.p]);
    expect(needsRehash(DUMMY_PASSWORD_HASH)).toBe(false);
    expect(await verifyUnknownAccount(good)).toBe(false);
  });
});

describe('passwordProblem', () => {
  it('accepts a long, uncommon password', () => {
    expect(passwordProblem(good, account)).toBeNull();
    expect(passwordProblem('Blue-Sky-2027-Harbour', account)).toBeNull();
  });

  it('asks for at least 12 and at most 256 characters', () => {
    expect(passwordProblem('short one', account)).toBe(
      'The password has 9 characters; choose one of at least 12: a short sentence of four or more words that are not a quotation is long and easy to remember.',
    );
    expect(passwordProblem('x'.repeat(257), account)).toBe('The password has 257 characters; choose one of at most 256.');
  });

  it("refuses the account's e-mail or name", () => {
    expect(passwordProblem('Jane.Agent@example.com', account)).toContain("the account's e-mail address or name");
    expect(passwordProblem('jane agent', { ...account, name: 'Jane Agent Smith' })).toContain('at least 12');
    expect(passwordProblem('JaneAgentSmith', { ...account, name: 'Jane Agent Smith' })).toContain("the account's e-mail address or name");
  });

  it('refuses common passwords, whatever their case', () => {
    for (const common of ['qwerty123456', 'QWERTY123456', '1qaz2wsx3edc', 'passwordpassword', 'Password1234']) {
      expect(passwordProblem(common, account)).toContain('on a list of common passwords');
    }
  });

  it('refuses passwords that are easy to guess though not on the list', () => {
    for (const guessable of ['aaaaaaaaaaaaaaaa', 'abcdefghijklmnop', 'iloveyou1234', 'staffpassword1', 'jane.agent2026']) {
      expect(passwordProblem(guessable, account)).toContain('easy to guess');
    }
  });
});
