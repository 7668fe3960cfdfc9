/**
 * Copy of the Blog API Usage Examples page. The code shown comes from the real, tested files in
 * docs/examples/ (imported at build time); the errors table from the API's error catalogue.
 */
import type { CreatePostResponse } from '../../contract/blog';
import { ERROR_CATALOGUE, type ErrorCode } from '../../contract/errors';

export interface Requirement {
  item: string;
  requirement: string;
  detail: string;
}

export const REQUIREMENTS: readonly Requirement[] = [
  {
    item: 'API Key',
    requirement: 'Authorization: Bearer <your key>',
    detail: 'A key that holds the blog:write permission. Keys start with bpk_ and are shown once when created.',
  },
  {
    item: 'Content Format',
    requirement: 'JSON with Content-Type: application/json',
    detail: 'Send one JSON object (not form fields, not a JSON string). The content field is HTML; unsafe HTML is removed and reported in warnings.',
  },
  {
    item: 'Required Fields',
    requirement: 'title, content, excerpt, category, author.name, status',
    detail: 'status is Draft or Published (any case). Optional: tags, author.bio, author.credentials, isNewsArticle, trust.',
  },
];

export const EXAMPLE_TABS = [
  { id: 'python', label: 'Python', intro: 'With the requests library. Pass the post as a dict with json=post.' },
  { id: 'curl', label: 'cURL', intro: "With curl. Keep the Content-Type header: without it curl -d sends a form body." },
  { id: 'postman', label: 'Postman', intro: 'Import the collection, set its variables baseUrl and apiKey, and send.' },
  { id: 'js', label: 'JavaScript', intro: 'With fetch in Node.js 20+ (or a browser on another origin).' },
] as const;

export type ExampleTabId = (typeof EXAMPLE_TABS)[number]['id'];

export const POSTMAN_STEPS: readonly string[] = [
  'Download the collection below and import it in Postman (File > Import).',
  'Open the collection, then Variables: set baseUrl to this site and apiKey to your key. The collection sends it as a Bearer token.',
  'Open "Create blog post": Body is raw with JSON selected. Leaving the body type on Text sends text/plain, which the API refuses with 415.',
  'Send. A 201 answer carries the new post; the collection test checks it.',
];

export const RESPONSE_SAMPLE: CreatePostResponse = {
  success: true,
  message: 'Draft blog post created successfully',
  post: {
    id: '3f0c1e52-8f7a-4a0e-9c55-2d0e5b7f8a10',
    title: 'Understanding Indexed Universal Life Insurance',
    slug: 'understanding-indexed-universal-life-insurance',
    excerpt: 'A short introduction to indexed universal life insurance and how its cash value grows.',
    created_at: '2026-01-15T14:30:00.000Z',
    status: 'draft',
    publish_at: null,
    etag: '"3f0c1e52-r1"',
  },
  warnings: [],
};

/** The rows of the Common Errors table: the catalogue of SPEC section 8 plus 413, 415 and 429. */
const COMMON_ERROR_CODES: readonly ErrorCode[] = [
  'validation_failed',
  'missing_api_key',
  'insufficient_permissions',
  'method_not_allowed',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'server_error',
];

export const COMMON_ERRORS = COMMON_ERROR_CODES.map((code) => {
  const entry = ERROR_CATALOGUE[code];
  return {
    code,
    status: entry.status,
    meaning: entry.title,
    guidance: entry.guidance[0] ?? '',
    python: 'clientGuidance' in entry ? ((entry.clientGuidance as Record<string, readonly string[] | undefined>).python?.[0] ?? null) : null,
  };
});

/** The rest of the catalogue, listed under the table so every error's `type` link (#error-<code>) has an entry. */
export const OTHER_ERRORS = (Object.keys(ERROR_CATALOGUE) as ErrorCode[])
  .filter((code) => !COMMON_ERROR_CODES.includes(code))
  .map((code) => ({ code, status: ERROR_CATALOGUE[code].status, meaning: ERROR_CATALOGUE[code].title, guidance: ERROR_CATALOGUE[code].guidance[0] ?? '' }));

/** The origin the examples default to in docs/examples/, replaced by the site's own on the page. */
export const EXAMPLE_DEFAULT_ORIGIN = 'http://localhost:3000';

export function withOrigin(code: string, origin: string): string {
  return code.split(EXAMPLE_DEFAULT_ORIGIN).join(origin);
}
