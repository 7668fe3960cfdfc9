/**
 * Signatures of the links the site hands out (a visitor's stop-contacting-me link, a shared preview
 * link): HMAC-SHA256 of a purpose and a payload under the store's pseudonym key, the secret every app
 * server of the site already shares, so a link made on one server checks on another and needs nothing
 * stored (decisions 0023 and 0026). The purpose keeps one kind of link from passing for another.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface LinkSigner {
  /** The signature of `payload` for `purpose`, in base64url, `length` characters long. */
  sign(purpose: string, payload: string): Promise<string>;
  /** Whether `signature` is the one `sign` gives, compared in constant time. */
  verify(purpose: string, payload: string, signature: string): Promise<boolean>;
}

/** A signer under `key`, its signatures cut to `length` characters (at most 43: the whole SHA-256). */
export function linkSigner(key: () => Promise<Buffer>, length = 43): LinkSigner {
  const sign = async (purpose: string, payload: string) => createHmac('sha256', await key()).update(`${purpose}:${payload}`).digest('base64url').slice(0, length);
  return {
    sign,
    async verify(purpose, payload, signature) {
      const expected = Buffer.from(await sign(purpose, payload));
      const given = Buffer.from(signature);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
}
