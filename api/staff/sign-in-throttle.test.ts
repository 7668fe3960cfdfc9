/**
 * The sign-in throttle: free attempts, then a wait that doubles with each failure up to its cap, per
 * account and address, per address, and per account from every address for devices the account never
 * signed in on; a success frees its account at that address; old failures are forgotten.
 */
import { expect, it } from 'vitest';
import { SignInThrottle } from './sign-in-throttle';

const settings = { pairFree: 3, ipFree: 5, accountFree: 6, baseDelayMs: 1000, maxDelayMs: 8000, windowMs: 60_000 };

it('lets one account fail a few times from one address, then makes that address wait longer after every further failure, up to the cap', () => {
  let now = 0;
  const throttle = new SignInThrottle({ ...settings, ipFree: 100 }, () => now);
  const waits: number[] = [];
  for (let i = 0; i < 7; i += 1) {
    waits.push(throttle.waitSeconds('jane@example.com', '10.0.0.1'));
    throttle.failed('jane@example.com', '10.0.0.1');
  }
  // Past the account's own limit (6 from everywhere) too, from the seventh: the larger wait counts.
  expect(waits).toEqual([0, 0, 0, 1, 2, 4, 8]);
  // The wait runs from the last failure, and the cap holds.
  now += 3000;
  expect(throttle.waitSeconds('jane@example.com', '10.0.0.1')).toBe(5);
  throttle.failed('jane@example.com', '10.0.0.1');
  expect(throttle.waitSeconds('jane@example.com', '10.0.0.1')).toBe(8);
  // Other accounts from other addresses are not held up.
  expect(throttle.waitSeconds('sam@example.com', '10.0.1.1')).toBe(0);
});

it('never slows the account on a device it signed in on, however many failures come from elsewhere', () => {
  let now = 0;
  const throttle = new SignInThrottle({ ...settings, windowMs: 60 * 60_000, maxDelayMs: 15 * 60_000 }, () => now);
  // Someone guesses Jane's password from 40 addresses, a few tries each, four an hour for a day.
  for (let hour = 0; hour < 24; hour += 1) {
    now += 15 * 60_000;
    for (let i = 0; i < 4; i += 1) throttle.failed('jane@example.com', `198.51.100.${(hour * 4 + i) % 40}`);
  }
  // Jane on her own laptop (signed in there before) is not slowed, from a new address either.
  expect(throttle.waitSeconds('jane@example.com', '203.0.113.7', true)).toBe(0);
  // A device she never used waits: the guessing from everywhere holds the account for unknown devices.
  expect(throttle.waitSeconds('jane@example.com', '203.0.113.7', false)).toBeGreaterThan(0);
  // Her own failures on her own device still count, from her address.
  for (let i = 0; i < 3; i += 1) throttle.failed('jane@example.com', '203.0.113.7');
  expect(throttle.waitSeconds('jane@example.com', '203.0.113.7', true)).toBe(1);
});

it('frees an account at an address once it signs in there, not at other addresses', () => {
  let now = 0;
  const throttle = new SignInThrottle({ ...settings, accountFree: 100 }, () => now);
  for (let i = 0; i < 3; i += 1) {
    throttle.failed('jane@example.com', '10.0.0.1');
    throttle.failed('jane@example.com', '10.0.0.2');
  }
  expect(throttle.waitSeconds('jane@example.com', '10.0.0.1')).toBe(1);
  now += 1000;
  throttle.succeeded('jane@example.com', '10.0.0.1');
  expect(throttle.waitSeconds('jane@example.com', '10.0.0.1')).toBe(0);
  now -= 1000;
  expect(throttle.waitSeconds('jane@example.com', '10.0.0.2')).toBe(1);
});

it('holds one address that tries many accounts, and forgets failures older than its window', () => {
  let now = 0;
  const throttle = new SignInThrottle(settings, () => now);
  for (let i = 0; i < 5; i += 1) throttle.failed(`user${i}@example.com`, '203.0.113.9');
  expect(throttle.waitSeconds('new@example.com', '203.0.113.9')).toBe(1);
  expect(throttle.waitSeconds('new@example.com', '203.0.113.9', true)).toBe(1);
  expect(throttle.waitSeconds('new@example.com', '203.0.113.10')).toBe(0);
  now += 61_000;
  expect(throttle.waitSeconds('new@example.com', '203.0.113.9')).toBe(0);
  throttle.failed('new@example.com', '203.0.113.9');
  expect(throttle.waitSeconds('new@example.com', '203.0.113.9')).toBe(0);
});
