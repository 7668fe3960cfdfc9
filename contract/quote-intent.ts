/**
 * One quote request per visitor intent (decision 0018): the one-time token every render of the quote
 * form carries in a hidden field, and the reference by which the thank-you page shows a stored request.
 * A token sent again (a double-click, a retry, Back and send) names the request already stored; a
 * reference names a stored request without saying anything about the visitor. The server makes both
 * (api/services/lead-intake.ts); this module only reads them, the same in the page and on the server.
 */

/**
 * Where the form posts: the page's own path with a query, not the page's address itself. A browser drops
 * its copy of an address a form has posted to (RFC 9111, section 4.4), so after a post to /get-quote,
 * Back would fetch the form afresh, with a new token, and with the visitor's answers filled back in;
 * posted here, Back shows the page the visitor sent, with its token. The server's action is the same.
 */
export const QUOTE_FORM_ACTION = '/get-quote?send';

/** How long a token names its request: sent again within a day, the same request; later, a new one. */
export const FORM_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * 128 random bits as base64url without padding: 22 characters, of which the last carries only two
 * bits (so it is one of A, Q, g, w). Only that spelling is a token: two spellings never name one token.
 */
const FORM_TOKEN = /^[A-Za-z0-9_-]{21}[AQgw]$/;

/**
 * The token a form carried, or null when it carried none that this site could have made (an old page
 * from before tokens, a robot, a field tampered with): such a request is taken as it always was, on its
 * own, never refused for it.
 */
export function parseFormToken(value: unknown): string | null {
  return typeof value === 'string' && FORM_TOKEN.test(value) ? value : null;
}

/** Crockford's base 32: digits and capitals without I, L, O and U, so a reference read aloud is not misheard. */
export const REFERENCE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** Characters in a reference: 12 of 32, 60 random bits, as three groups of four. */
export const REFERENCE_DIGITS = 12;

const REFERENCE = /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

/** The reference spelled from 12 numbers below 32 (the server draws them at random), e.g. `7K3M-Q9XD-4RTA`. */
export function quoteReference(digits: readonly number[]): string {
  if (digits.length !== REFERENCE_DIGITS || digits.some((digit) => !Number.isInteger(digit) || digit < 0 || digit >= REFERENCE_ALPHABET.length)) {
    throw new RangeError(`A reference is ${REFERENCE_DIGITS} numbers from 0 to ${REFERENCE_ALPHABET.length - 1}.`);
  }
  const text = digits.map((digit) => REFERENCE_ALPHABET[digit]).join('');
  return `${text.slice(0, 4)}-${text.slice(4, 8)}-${text.slice(8)}`;
}

/** A reference as the thank-you page's address gives it (any case), or null when it cannot be one. */
export function parseQuoteReference(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const upper = value.trim().toUpperCase();
  return REFERENCE.test(upper) ? upper : null;
}

/** The thank-you page of the request with this reference. */
export function thankYouPath(reference: string): string {
  return `/get-quote/thank-you?ref=${encodeURIComponent(reference)}`;
}
