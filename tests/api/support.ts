/** Helpers for the HTTP tests of the blog API: a valid post, and one call returning status, headers and JSON. */
import type { CreatePostInput } from '../../contract/blog';
import type { TestServer } from '../support/server';

export function validPost(overrides: Record<string, unknown> = {}): CreatePostInput & Record<string, unknown> {
  return {
    title: 'Why Max-Funded IUL Beats a Taxable Account',
    content: '<h2>Tax-free growth</h2><p>Cash value grows <strong>tax-deferred</strong> and can be accessed tax-free.</p>',
    excerpt: 'How a max-funded IUL compares with a taxable brokerage account over 30 years.',
    category: 'IUL Strategies',
    tags: ['iul', 'retirement'],
    status: 'Draft',
    author: { name: 'Jane Author', bio: 'Agent since 1998', credentials: 'CLU, ChFC' },
    trust: {
      factCheckedBy: { name: 'Sam Checker', credentials: 'CFP', link: 'https://example.com/sam' },
      sources: [{ name: 'IRS Publication 525', url: 'https://www.irs.gov/publications/p525' }],
      lastUpdated: '2025-01-31',
    },
    ...overrides,
  };
}

export interface CallOptions {
  /** An object is sent as JSON; a string or bytes as they are. */
  body?: unknown;
  key?: string;
  headers?: Record<string, string>;
}

export interface CallResult<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  text: string;
  json: T;
}

export async function call<T = Record<string, unknown>>(
  server: Pick<TestServer, 'url'>,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<CallResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: BodyInit | undefined;
  if (typeof options.body === 'string') body = options.body;
  else if (options.body instanceof Uint8Array) body = new Uint8Array(options.body);
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  }
  return resultOf<T>(await fetch(`${server.url}${path}`, { method, headers, body }));
}

/** A response read whole: status, headers, text, and its JSON when it is JSON (else {}). */
export async function resultOf<T = Record<string, unknown>>(response: Response): Promise<CallResult<T>> {
  const text = await response.text();
  let json: unknown = {};
  if (text && (response.headers.get('content-type') ?? '').includes('json')) json = JSON.parse(text);
  return { status: response.status, headers: response.headers, text, json: json as T };
}

/** Text as the page shows it: no scripts, tags or React's comment markers. */
export function textOf(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<!--.*?-->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}
