/**
 * What the request log keeps of a failed write's body: the first 4 KB with secrets (API keys,
 * Authorization values, fields named like a secret) and personal data (e-mail addresses, phone numbers)
 * replaced. Enough to see what the client sent (its shape, its field names) without what it must not
 * leave behind.
 */
import { API_KEY_ID_LENGTH, API_KEY_PREFIX } from '../../contract/keys';

export const BODY_SAMPLE_BYTES = 4096;
/** Read past the sample so a secret that straddles its end is still recognised, then cut. */
export const BODY_READ_BYTES = BODY_SAMPLE_BYTES + 512;

/** `bpk_` and what follows it; the public id (10 characters then `_`) is kept, it is no secret. */
const API_KEY = new RegExp(`${API_KEY_PREFIX}[0-9A-Za-z_]*`, 'gi');
const ID_THEN_SECRET = new RegExp(`^${API_KEY_PREFIX}([0-9A-Za-z]{${API_KEY_ID_LENGTH}})_`, 'i');
/** Authorization schemes and their credentials. */
const CREDENTIALS = /\b(Bearer|Basic|Token|Digest)(\s+|%20|\+)[^\s"',;&]+/gi;
/** JSON or form fields whose names say they hold a secret. */
const SECRET_FIELD = /("?(?:authorization|api[_-]?key|x-api-key|password|passwd|secret|token|access[_-]?token|client[_-]?secret)"?\s*[:=]\s*)("(?:[^"\\]|\\.)*"|[^\s,&}]+)/gi;
const EMAIL = /[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+(?:@|%40)((?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z0-9-]{2,})/g;
/** Seven or more digits, with the separators phone numbers are written with. */
const PHONE = /\+?\(?\d(?:[\s().-]{0,3}\d){6,}/g;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}(?::\d{2})?)?$/;

function redactKey(match: string): string {
  const id = ID_THEN_SECRET.exec(match);
  return id ? `${API_KEY_PREFIX}${id[1]}_[redacted]` : `${API_KEY_PREFIX}[redacted]`;
}

function redactPhone(match: string): string {
  return ISO_DATE.test(match) ? match : '[phone]';
}

/**
 * E-mail addresses, the domain kept. Repeated until nothing changes: a kept domain can end with the
 * start of an address that follows it (`a@b.cc` + `d@e.fg`), which the next pass replaces.
 */
function redactEmails(text: string): string {
  let current = text;
  for (let pass = 0; pass < 8; pass++) {
    const next = current.replace(EMAIL, (_match, domain: string) => `[email]@${domain}`);
    if (next === current) break;
    current = next;
  }
  return current;
}

/**
 * `text` with secrets and e-mail addresses replaced, digits left alone: for text whose numbers are
 * versions, not phone numbers (a User-Agent such as Chrome/120.0.6099.109).
 */
export function redactSecretsAndEmails(text: string): string {
  const secretsGone = text
    .replace(API_KEY, redactKey)
    .replace(CREDENTIALS, (_match, scheme: string) => `${scheme} [redacted]`)
    .replace(SECRET_FIELD, (_match, name: string, value: string) => `${name}${value.startsWith('"') ? '"[redacted]"' : '[redacted]'}`);
  return redactEmails(secretsGone);
}

/** `text` with secrets and personal data replaced. */
export function redact(text: string): string {
  return redactSecretsAndEmails(text).replace(PHONE, redactPhone);
}

/** The log's sample of a body: decoded as UTF-8, redacted, at most BODY_SAMPLE_BYTES characters. */
export function bodySample(bytes: Uint8Array): string {
  const text = Buffer.from(bytes.subarray(0, BODY_READ_BYTES)).toString('utf8');
  const redacted = redact(text);
  return redacted.length > BODY_SAMPLE_BYTES ? `${redacted.slice(0, BODY_SAMPLE_BYTES)}…` : redacted;
}

const MEDIA_TYPE = /^[a-z0-9][\w!#$&^.+-]{0,63}\/[\w!#$&^.+-]{1,64}$/i;

/**
 * A Content-Type (or charset, or Content-Encoding) as the request log may keep it: a media type's
 * type/subtype, or a short token; anything else (a value that could carry text someone typed) is
 * replaced by a description.
 */
export function loggableType(value: string): string {
  return MEDIA_TYPE.test(value) || /^[\w.+-]{1,40}$/.test(value) ? value.toLowerCase() : '(not a media type)';
}
