/**
 * The sign-in throttle: free attempts, then a wait that doubles with each failure up to its cap, per
 * account and per address; a success frees the account; old failures are forgotten.
 */
import { expect, it } from 'vitest';
import { SignInThrottle } from './sign-in-throttle';

const settings = { accountFree: 3, ipFree: 5, baseDelayMs: 1000, maxDelayMs: 8000, windowMs: 60_000 };

it('lets an account fail a few times, then makes it wait longer after every further failure, up to the cap', () => {
  let now = 0;
  const throttle = new SignInThrottle(settings, () => now);
  const waits: number[] = [];
  for (let i = 0; i < 7; i += 1) {
    waits.push(throttle.waitSeconds('jane@example.com', `10.0.0.${i}`));
    throttle.failed('jane@example.com', `10.0.0.${i}`);
  }
  expect(waits).toEqual([0, 0, 0, 1, 2, 4, 8]);
  // The wait runs from the last failure, and the cap holds.
  now += 3000;
  expect(throttle.waitSeconds('jane@example.com', '10.0.0.99')).toBe(5);
  throttle.failed('jane@example.com', '10.0.0.99');
  expect(throttle.waitSeconds('jane@example.com', '10.0.0.99')).toBe(8);
  // Other accounts from other addresses are not held up.
  expect(throttle.waitSeconds('sam@example.com', '10.0.1.1')).toBe(0);
  // A success frees the account.
  throttle.succeeded('jane@example.com');
  expect(throttle.waitSeconds('jane@example.com', '10.0.1.1')).toBe(0);
});

it('holds one address that tries many accounts, and forgets failures older than its window', () => {
  let now = 0;
  const throttle = new SignInThrottle(settings, () => now);
  for (let i = 0; i < 5; i += 1) throttle.failed(`user${i}@example.com`, '203.0.113.9');
  expect(throttle.waitSeconds('new@example.com', '203.0.113.9')).toBe(1);
  expect(throttle.waitSeconds('new@example.com', '203.0.113.10')).toBe(0);
  now += 61_000;
  expect(throttle.waitSeconds('new@example.com', '203.0.113.9')).toBe(0);
  throttle.failed('new@example.com', '203.0.113.9');
  expect(throttle.waitSeconds('new@example.com', '203.0.113.9')).toBe(0);
});
