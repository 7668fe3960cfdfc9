/**
 * The security headers of every JSON API answer: the set OWASP's REST Security Cheat Sheet gives for
 * APIs. Nothing in an answer may be framed, sniffed, run or sent as a referrer. Headers that only mean
 * something to a document (DNS prefetching, downloads in old IE, the XSS filter, the opener policy)
 * are left to the pages.
 */
import type { ApiMiddleware } from './context';

/** HSTS for pages and API alike: a year, subdomains included. */
export const HSTS_MAX_AGE_SECONDS = 31_536_000;

export const API_HEADERS: ReadonlyArray<readonly [name: string, value: string]> = [
  ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"],
  ['Strict-Transport-Security', `max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains`],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
  ['Referrer-Policy', 'no-referrer'],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
];

export const apiHeaders: ApiMiddleware = (ctx, next) => {
  for (const [name, value] of API_HEADERS) ctx.set(name, value);
  return next();
};
