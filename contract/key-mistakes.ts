/**
 * The ways an API key is most often sent wrong, recognised from what arrived: a line break read with
 * it from a .env file, whitespace copied around it, the quotes of a shell or .env assignment, another
 * service's key (or a value that is not a key at all), the word Bearer sent twice or not at all. The
 * server names the mistake in the error body and the request log (the kind, never the key), and
 * `blogpost diagnose` shows the fix in the language of the client that sent it. Pure: no Node imports.
 */
import type { ClientKind } from './clients';
import { API_KEY_PREFIX } from './keys';

export const KEY_MISTAKES = ['line_break', 'whitespace', 'quotes', 'wrong_prefix', 'bearer_twice', 'no_bearer'] as const;
export type KeyMistake = (typeof KEY_MISTAKES)[number];

export function isKeyMistake(value: unknown): value is KeyMistake {
  return typeof value === 'string' && (KEY_MISTAKES as readonly string[]).includes(value);
}

/**
 * JavaScript's trim() misses the zero-width characters a web page or a chat program can paste
 * around a key; they count as whitespace here, because to the person copying they are invisible.
 */
const EDGE_SPACE = /^[\s\u200B-\u200D\u2060]|[\s\u200B-\u200D\u2060]$/;
const QUOTES = /^["'`\u2018\u2019\u201C\u201D]|["'`\u2018\u2019\u201C\u201D]$/;

/**
 * The mistake in a key as it was sent (the text after "Bearer "), or null when there is none this
 * module knows (a key in the right shape holds none of these characters and starts with the prefix,
 * so it is never a mistake; a mistyped key of this site is left to its checksum). The checks run from
 * the outermost wrapping in: a line break first (it is what a .env file adds last), then whitespace,
 * then quotes, then the prefix.
 */
export function classifyKeyMistake(sent: string): KeyMistake | null {
  if (/[\r\n]/.test(sent)) return 'line_break';
  if (EDGE_SPACE.test(sent)) return 'whitespace';
  if (QUOTES.test(sent)) return 'quotes';
  if (sent !== '' && !sent.startsWith(API_KEY_PREFIX)) return 'wrong_prefix';
  return null;
}

/** The mistake in a whole Authorization header value, including the scheme around the key. */
export function classifyAuthorizationMistake(header: string): KeyMistake | null {
  const value = header.replace(/^[ \t]+|[ \t]+$/g, '');
  if (/^bearer\s+bearer(\s|$)/i.test(value)) return 'bearer_twice';
  const scheme = /^bearer[ \t]+/i.exec(value);
  if (!scheme) {
    const bare = value.replace(/^["']/, '');
    return bare.startsWith(API_KEY_PREFIX) ? 'no_bearer' : null;
  }
  return classifyKeyMistake(value.slice(scheme[0].length));
}

/** What the error body says: which mistake, and what to do, without a character of the key. */
export const KEY_MISTAKE_MESSAGES: Readonly<Record<KeyMistake, string>> = {
  line_break: 'The API key ends with a line break (a newline or carriage return, as read from a .env file or a key file): remove it and send the key alone.',
  whitespace: 'The API key has whitespace before or after it (spaces, tabs or invisible characters copied with it): trim it and send the key alone.',
  quotes: 'The API key is in quotes (the quotes of a .env file or a shell assignment were sent with it): send it without them.',
  wrong_prefix: `The value sent is not an API key of this site: its keys start with "${API_KEY_PREFIX}". Send a key made for this site (not another service's key or a placeholder).`,
  bearer_twice: 'The Authorization header says "Bearer" twice: the word is already part of the value your client sends. Send "Bearer <key>" once, or give your client the key alone.',
  no_bearer: 'The Authorization header holds the key without the word "Bearer": send it as "Authorization: Bearer <key>".',
};

/** What went wrong, for `diagnose`, in a sentence that does not repeat the whole fix. */
export const KEY_MISTAKE_CAUSES: Readonly<Record<KeyMistake, string>> = {
  line_break: 'The key was sent with a line break at its end (typically read from a .env or key file saved with Windows line endings, or with echo).',
  whitespace: 'The key was sent with whitespace or invisible characters around it (typically copied from a web page, a chat or a spreadsheet).',
  quotes: 'The key was sent inside quotes (typically the quotes of a .env line or a shell assignment, kept by the program that read it).',
  wrong_prefix: `The value sent as the key does not start with ${API_KEY_PREFIX}: it is another service's key, a placeholder or a variable that was never filled in.`,
  bearer_twice: 'The Authorization header read "Bearer Bearer <key>": the client adds "Bearer" itself and was given "Bearer <key>".',
  no_bearer: 'The Authorization header held the key alone, without the "Bearer" scheme.',
};

/** Where the key came from in each language; the fix names the usual variable, BLOGPOST_API_KEY. */
const CLEAN_KEY: Readonly<Partial<Record<ClientKind | 'node', string>>> = {
  python: `In Python clean the key when you read it: API_KEY = os.environ["BLOGPOST_API_KEY"].strip().strip('"\\'') and send headers={"Authorization": f"Bearer {API_KEY}"}.`,
  curl: `With curl read the key without its line break: KEY=$(tr -d '\\r\\n' < key.txt) (or run dos2unix on the .env file), keep the key in the file without quotes, then -H "Authorization: Bearer $KEY".`,
  node: `In Node clean the key when you read it: const apiKey = process.env.BLOGPOST_API_KEY.trim().replace(/^['"]|['"]$/g, ''), then headers: { Authorization: \`Bearer \${apiKey}\` }.`,
  postman: 'In Postman open Authorization > Bearer Token and paste the key again alone (no quotes, no line break); if it comes from a variable, fix the variable\'s current value in the environment.',
  httpie: 'With HTTPie pass the key alone: -A bearer -a "$(tr -d \'\\r\\n\' < key.txt)".',
};

const BEARER_FIX: Readonly<Partial<Record<ClientKind | 'node', string>>> = {
  python: 'In Python: headers={"Authorization": f"Bearer {API_KEY}"} with API_KEY the key alone.',
  curl: 'With curl: -H "Authorization: Bearer $KEY" with KEY the key alone.',
  node: 'In Node: headers: { Authorization: `Bearer ${apiKey}` } with apiKey the key alone.',
  postman: 'In Postman choose Authorization > Bearer Token and paste the key alone: Postman adds "Bearer" itself.',
};

/** node's fetch (undici) names itself "node" or "undici": not a kind of its own in clients.ts. */
function languageOf(client: ClientKind, userAgent: string | null | undefined): ClientKind | 'node' {
  if (userAgent && /\b(node|undici|node-fetch|axios)\b/i.test(userAgent)) return 'node';
  return client;
}

/** The fix for a key mistake, in the language of the client that made it when it is known. */
export function keyMistakeFixes(mistake: KeyMistake, client: ClientKind, userAgent?: string | null): string[] {
  const language = languageOf(client, userAgent);
  if (mistake === 'bearer_twice' || mistake === 'no_bearer') {
    return [KEY_MISTAKE_MESSAGES[mistake], ...(BEARER_FIX[language] ? [BEARER_FIX[language]] : [])];
  }
  if (mistake === 'wrong_prefix') {
    return [
      KEY_MISTAKE_MESSAGES[mistake],
      'Check that BLOGPOST_API_KEY (or wherever the client reads the key) is set to the key this site issued; the administrator can make one with blogpost keys create --name NAME --permission blog:write.',
    ];
  }
  const clean = CLEAN_KEY[language];
  return [KEY_MISTAKE_MESSAGES[mistake], ...(clean ? [clean] : ['Read the key, trim whitespace and line breaks, remove surrounding quotes, then send "Authorization: Bearer <key>".'])];
}
