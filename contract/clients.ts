/**
 * Which kind of client sent a request, from its User-Agent, using SPEC section 5's list (python,
 * requests, urllib, http-client, pycharm, httpie, postman, insomnia, curl, wget). Error guidance is
 * tailored to it: Python hints for Python, Postman hints for Postman.
 */

/** Every kind of client the server recognises (`blogpost logs --client` takes these). */
/**
 * The header the blogpost CLI sends (value "1") on the requests it makes to check its own work, such as
 * reading an image back after an upload: the request log marks them so `blogpost logs` can set them
 * aside from the author's own requests.
 */
export const CLI_CHECK_HEADER = 'X-Blogpost-Check';

export const CLIENT_KINDS = ['python', 'postman', 'insomnia', 'httpie', 'curl', 'wget', 'http-client', 'browser', 'unknown'] as const;
export type ClientKind = (typeof CLIENT_KINDS)[number];

export interface ClientIdentity {
  kind: ClientKind;
  /** True for the external API clients of SPEC section 5 (everything but browsers and unknown agents). */
  external: boolean;
}

/** Checked in order: the first marker found in the lowercased User-Agent decides. */
const MARKERS: ReadonlyArray<readonly [string, ClientKind]> = [
  ['postman', 'postman'],
  ['insomnia', 'insomnia'],
  ['httpie', 'httpie'],
  ['pycharm', 'python'],
  ['python', 'python'],
  ['requests', 'python'],
  ['urllib', 'python'],
  ['http-client', 'http-client'],
  ['curl', 'curl'],
  ['wget', 'wget'],
];

export function identifyClient(userAgent: string | undefined | null): ClientIdentity {
  const agent = (userAgent ?? '').toLowerCase();
  for (const [marker, kind] of MARKERS) {
    if (agent.includes(marker)) return { kind, external: true };
  }
  if (agent.includes('mozilla/')) return { kind: 'browser', external: false };
  return { kind: 'unknown', external: false };
}

export function isExternalApiClient(userAgent: string | undefined | null): boolean {
  return identifyClient(userAgent).external;
}

const HINTED_KINDS: ReadonlySet<ClientKind> = new Set(['python', 'postman', 'insomnia', 'httpie', 'curl', 'wget', 'http-client']);

/**
 * The client kind, with the hints a client that cannot set its User-Agent may send in the query (a
 * browser-based test page): `pythonClient=true` (SPEC section 7) or `client=<kind>`.
 */
export function identifyClientWithHints(
  userAgent: string | undefined | null,
  query: { pythonClient?: unknown; client?: unknown } = {},
): ClientIdentity {
  if (query.pythonClient === 'true' || query.pythonClient === '1') return { kind: 'python', external: true };
  if (typeof query.client === 'string' && HINTED_KINDS.has(query.client as ClientKind)) {
    return { kind: query.client as ClientKind, external: true };
  }
  return identifyClient(userAgent);
}
