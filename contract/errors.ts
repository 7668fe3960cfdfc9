/**
 * The error catalogue: every error the API answers with, by stable snake_case code, with its HTTP
 * status, default message and guidance (SPEC section 8, plus the standard 404, 413, 415, 422 and 429),
 * the guidance tailored to the client that sent the request, and the one error type the server throws.
 * The CLI and the harness use the same catalogue to explain a failed response.
 */
import { type ClientKind, identifyClient } from './clients';
import type { FieldProblem } from './field-problems';

export interface CatalogueEntry {
  status: number;
  /** What the status means (SPEC section 8's "Meaning" column where it has one). */
  title: string;
  /** Default human message when the code is raised without a more specific one. */
  message: string;
  /** Shown to every client; the first line is the catalogue's guidance. */
  guidance: readonly string[];
  /** Added after the general guidance for one kind of client. */
  clientGuidance?: Partial<Record<ClientKind, readonly string[]>>;
}

const AUTH_HOW_TO: Partial<Record<ClientKind, readonly string[]>> = {
  python: ["Send the header from Python: headers={'Authorization': f'Bearer {API_KEY}', 'Content-Type': 'application/json'}."],
  postman: ['In Postman open the Authorization tab, choose Bearer Token and paste the key alone (without the word Bearer).'],
  insomnia: ['In Insomnia open the Auth tab, choose Bearer Token and paste the key alone.'],
  curl: ["With curl add -H 'Authorization: Bearer YOUR_KEY'."],
  httpie: ["With HTTPie add 'Authorization:Bearer YOUR_KEY' (or -A bearer -a YOUR_KEY)."],
  wget: ["With wget add --header='Authorization: Bearer YOUR_KEY'."],
};

const PYTHON_JSON = 'In Python send the body as JSON, not pre-serialised, with content type application/json: requests.post(url, json=post, headers=headers) with post a dict.';

export const ERROR_CATALOGUE = {
  validation_failed: {
    status: 400,
    title: 'Missing required fields',
    message: 'Some required fields are missing or invalid.',
    guidance: [
      'Include all required fields: title, content, excerpt, category, author.name and status.',
      'Each entry of "errors" names a field by its path and says what is wrong with it.',
    ],
    clientGuidance: {
      python: ['Put the fields at the top level of one dict (author is a nested dict: {"name": ...}) and send it with requests.post(url, json=post, headers=headers).'],
      postman: ['In Body > raw > JSON put the fields at the top level of one object; author is an object: "author": {"name": "..."}.'],
    },
  },
  invalid_json: {
    status: 400,
    title: 'Body is not valid JSON',
    message: 'The request body is not valid JSON.',
    guidance: ['Send one JSON object: names and strings in double quotes, no trailing commas, no comments.'],
    clientGuidance: {
      python: ['Let requests build the JSON: requests.post(url, json=post) with post a dict, instead of writing JSON text by hand.'],
      postman: ['Postman marks JSON syntax errors in Body > raw > JSON: fix the underlined parts.'],
      curl: ["Wrap the JSON in single quotes (-d '{\"title\": \"...\"}') or keep it in a file and send --data @post.json."],
    },
  },
  body_is_json_string: {
    status: 400,
    title: 'Body is a JSON string, not an object',
    message: 'The body is a JSON string that holds your post: the payload was serialised twice. Send the JSON object itself.',
    guidance: ['Serialise the post once: the body must start with { and not with a quote.'],
    clientGuidance: {
      python: [PYTHON_JSON, 'Use json=post, not json=json.dumps(post): requests serialises the dict itself.'],
    },
  },
  foreign_post_shape: {
    status: 400,
    title: "Body shaped for another platform's API",
    message: "The body is shaped for another platform's API (WordPress, Ghost, Contentful or dev.to), not this one.",
    guidance: [
      'Send one flat JSON object with this API\'s fields: title, content (HTML), excerpt, category, author.name and status ("draft" or "published").',
      '"platform" names the API the body was written for and "mapping" shows where each of its fields goes here.',
    ],
    clientGuidance: {
      python: ['Build the dict with this API\'s names: post = {"title": wp["title"]["rendered"], "content": wp["content"]["rendered"], ...} and send requests.post(url, json=post, headers=headers).'],
    },
  },
  invalid_idempotency_key: {
    status: 400,
    title: 'Invalid Idempotency-Key',
    message: 'The Idempotency-Key header must be 1 to 255 visible ASCII characters.',
    guidance: ['Use a new random value (a UUID, say) for each post, and reuse it only to retry that same request.'],
  },
  bad_request: {
    status: 400,
    title: 'Bad request',
    message: 'The request could not be understood.',
    guidance: ['Check the request against the examples at /api/usage-examples.'],
  },
  missing_api_key: {
    status: 401,
    title: 'Invalid or missing API key',
    message: 'No API key was sent. Send it in the Authorization header as "Bearer <key>".',
    guidance: ['Check the key is valid and sent in the Authorization header: Authorization: Bearer <your key>.'],
    clientGuidance: AUTH_HOW_TO,
  },
  malformed_api_key: {
    status: 401,
    title: 'Invalid or missing API key',
    message: 'The API key is malformed.',
    guidance: ['Check the key is valid and sent in the Authorization header: copy it again in full (keys start with bpk_ and are 53 characters long).'],
    clientGuidance: AUTH_HOW_TO,
  },
  invalid_api_key: {
    status: 401,
    title: 'Invalid or missing API key',
    message: 'The API key is not recognised or has been revoked.',
    guidance: [
      'Check the key is valid and sent in the Authorization header.',
      "A revoked key stays revoked: ask the site's administrator for a new key with blog:write.",
    ],
  },
  insufficient_permissions: {
    status: 403,
    title: 'Insufficient permissions',
    message: 'This API key does not have the permission this request needs.',
    guidance: [
      'The key needs blog:write to create and change posts (blog:read or blog:write to read drafts, blog:admin to change any owner\'s posts).',
      "Ask the site's administrator for a key with blog:write (and blog:read to read drafts): a key's permissions are set when it is made.",
    ],
  },
  origin_not_allowed: {
    status: 403,
    title: 'Origin not allowed',
    message: 'Cross-origin requests from this origin are not allowed.',
    guidance: ["Call the API from an allowed origin (the server's CORS_ORIGINS setting) or from a server-side client."],
  },
  post_not_found: {
    status: 404,
    title: 'Post not found',
    message: 'No published post has this slug.',
    guidance: ['Check the slug. Drafts are visible only with a key holding blog:read.'],
  },
  post_gone: {
    status: 410,
    title: 'Post deleted',
    message: 'This post was deleted: it is in the trash.',
    guidance: [
      'A deleted post can be restored within 30 days with POST /api/blog/:id/restore (blogpost restore <id>), by a key of its owner or one holding blog:admin.',
      'After 30 days it is purged for good.',
    ],
  },
  not_post_owner: {
    status: 403,
    title: 'Not your post',
    message: "This API key may change only its owner's posts.",
    guidance: [
      "A key with blog:write changes the posts created by keys of the same owner; a key holding blog:admin may change any post.",
      "Ask the site's administrator for a key with blog:admin, or for the change to be made by the post's owner.",
    ],
  },
  revision_not_found: {
    status: 404,
    title: 'Revision not found',
    message: 'This post has no kept revision with that number.',
    guidance: ['GET /api/blog/:id/revisions lists the kept revisions (the last 50) with their numbers.'],
  },
  slug_taken: {
    status: 409,
    title: 'Slug already in use',
    message: 'Another post already uses this slug.',
    guidance: ['Choose another slug, or leave slug out to keep the current one (a new post gets one made from its title).'],
  },
  not_in_trash: {
    status: 409,
    title: 'Post is not in the trash',
    message: 'Only a deleted post can be restored, and this one is not deleted.',
    guidance: ['Nothing to do: the post is live in its current status. GET /api/blog/:id shows it.'],
  },
  precondition_failed: {
    status: 412,
    title: 'The post changed since you read it',
    message: 'The post was changed by someone else since the version your If-Match names, so your change was not applied.',
    guidance: [
      '"changes" lists, field by field, what changed since your version; current_etag is the version now.',
      'Apply your change to the current version and send it again with If-Match: <current_etag> (blogpost publish shows both sides; --force overwrites).',
    ],
  },
  precondition_required: {
    status: 428,
    title: 'If-Match required',
    message: 'A change to a post must say which version it changes: send the If-Match header with the ETag of your last read.',
    guidance: [
      'GET /api/blog/:id answers with an ETag header (also "etag" in the body): send it back as If-Match: "<etag>".',
      'This stops two people from overwriting each other\'s changes without noticing. If-Match: * changes whatever version is current.',
    ],
  },
  unknown_query_parameter: {
    status: 400,
    title: 'Unknown query parameter',
    message: 'The request has a query parameter this endpoint does not take.',
    guidance: ['Remove it, or check its spelling against the parameters this endpoint lists in "allowed".'],
  },
  not_found: {
    status: 404,
    title: 'Not found',
    message: 'There is no API endpoint at this path.',
    guidance: ['The blog API lives at /api/blog; see /api/usage-examples.'],
  },
  request_headers_too_large: {
    status: 431,
    title: 'Request headers too large',
    message: 'The request headers are larger than the server accepts.',
    guidance: ['Send fewer or shorter headers (cookies included); the API needs only Authorization and Content-Type.'],
  },
  method_not_allowed: {
    status: 405,
    title: 'Method not allowed',
    message: 'This path does not accept this method.',
    guidance: ['Use a method listed in the Allow header: create posts with POST /api/blog, read them with GET.'],
    clientGuidance: {
      python: [PYTHON_JSON],
      postman: ['Choose POST in the method list left of the URL.'],
      curl: ['With curl, -d or --json imply POST; do not combine them with -X GET or -G.'],
    },
  },
  payload_too_large: {
    status: 413,
    title: 'Request body too large',
    message: 'The request body is larger than the API accepts (1 MB).',
    guidance: ['Keep the body under 1 MB and content under 250,000 characters; link images instead of embedding them.'],
  },
  unsupported_media_type: {
    status: 415,
    title: 'Unsupported content type',
    message: 'The body must be JSON sent with Content-Type: application/json.',
    guidance: ['Send the post as a JSON object with the header Content-Type: application/json.'],
    clientGuidance: {
      python: ['Use requests.post(url, json=post, headers=headers): it serialises the dict and sets Content-Type: application/json. data=post sends form fields instead.'],
      postman: ['In Body choose raw and then JSON in the drop-down (not form-data, x-www-form-urlencoded or Text).'],
      insomnia: ['Choose JSON as the body type.'],
      curl: ["Add -H 'Content-Type: application/json' (curl -d sends form data by default), or use --json with curl 7.82 or later."],
      httpie: ['HTTPie sends JSON by default: drop --form (-f).'],
      wget: ["Add --header='Content-Type: application/json'."],
    },
  },
  idempotency_key_mismatch: {
    status: 422,
    title: 'Idempotency-Key reused with a different body',
    message: 'This Idempotency-Key was already used with a different request body.',
    guidance: ['Reuse an Idempotency-Key only to retry exactly the same request; send a new key with a new post. Keys are remembered for 24 hours.'],
  },
  compliance_blocked: {
    status: 422,
    title: 'Refused by the compliance rules',
    message: 'The post makes claims the agency does not publish (COMPLIANCE_MODE is block).',
    guidance: [
      'Rewrite each finding in `findings` as its suggestion says, then send the post again; POST /api/blog/validate checks it without saving.',
      'If a finding is a false alarm, accept it in the payload with a reason (compliance: { accept: [{ rule, reason }] }): the post then waits for a staff member\'s review instead.',
      'Drafts are never refused: save it as a draft (status draft) to keep working on it.',
    ],
  },
  media_too_large: {
    status: 413,
    title: 'Image too large',
    message: 'The image is larger than this site takes (10 MB).',
    guidance: ['Export the picture smaller (2,000 to 3,000 pixels wide is plenty: the site serves it at most 1,600 wide) or as JPEG or WebP, then upload it again.'],
  },
  unsupported_image: {
    status: 415,
    title: 'Not an image this site takes',
    message: 'The upload is not a PNG, JPEG, WebP, AVIF or GIF image (its type is read from its bytes, not its name or Content-Type).',
    guidance: [
      'Send the image file itself as the body (Content-Type: image/png, image/jpeg, image/webp, image/avif or image/gif) or as multipart form data with the file in a field named file.',
      'A renamed file is not converted: open it in an image editor and export it as PNG, JPEG or WebP.',
    ],
    clientGuidance: {
      curl: ["With curl: curl -X POST URL/api/media -H 'Authorization: Bearer YOUR_KEY' -F file=@photo.jpg (or --data-binary @photo.jpg -H 'Content-Type: image/jpeg')."],
      python: ["In Python: requests.post(url, headers=headers, files={'file': open('photo.jpg', 'rb')})."],
      postman: ['In Postman choose Body > form-data, add a key named file, switch its type from Text to File and pick the image.'],
    },
  },
  image_unreadable: {
    status: 422,
    title: 'Image cannot be read',
    message: 'The upload starts like an image but cannot be decoded (it is damaged, cut short, or not only an image).',
    guidance: ['Open the file in an image editor and export it again as PNG, JPEG or WebP, then upload the new file.'],
  },
  image_too_many_pixels: {
    status: 422,
    title: 'Image has too many pixels',
    message: 'The image has more pixels than this site decodes (40 million).',
    guidance: ['Scale the picture down (2,000 to 3,000 pixels wide is plenty: the site serves it at most 1,600 wide), then upload it again.'],
  },
  media_busy: {
    status: 503,
    title: 'Image uploads busy',
    message: 'The server is re-encoding as many images as it takes at once; this one was not taken.',
    guidance: ['Send the same upload again after the seconds in the Retry-After header: nothing was stored, and the same bytes are never stored twice.', 'Upload images one after another rather than many at once.'],
  },
  media_not_found: {
    status: 404,
    title: 'Image not found',
    message: 'No uploaded image has this id.',
    guidance: ['GET /api/media lists the images of your key\'s owner with their ids; upload it with POST /api/media if it is not there.'],
  },
  not_media_owner: {
    status: 403,
    title: 'Not your image',
    message: 'This API key may delete only the images its owner uploaded.',
    guidance: [
      'A key deletes the images uploaded by keys of the same owner; a key holding blog:admin may delete any image no post uses.',
      "Ask the site's administrator for a key with blog:admin, or leave the image: an unused image costs only disk space.",
    ],
  },
  media_in_use: {
    status: 409,
    title: 'Image still in use',
    message: 'Posts still show this image, so it was not deleted.',
    guidance: ['Remove it from the posts named in used_by (their content or cover_image), or delete those posts for good, then delete the image again.'],
  },
  rate_limited: {
    status: 429,
    title: 'Too many requests',
    message: 'Too many requests with this API key. Wait before retrying.',
    guidance: ['Wait the number of seconds in the Retry-After header, then retry; spread bulk imports over time.'],
  },
  server_error: {
    status: 500,
    title: 'Server error',
    message: 'Server error. Please try again later or contact support.',
    guidance: ['Contact support or try again later.', 'Quote the requestId of this answer when you contact support.'],
  },
  storage_full: {
    status: 507,
    title: 'Insufficient storage',
    message: "Nothing was saved: the server's disk is full. Nothing stored before was lost.",
    guidance: [
      'Retry the same request later (with the same Idempotency-Key, if you sent one): it was not carried out, and nothing stored before was lost.',
      "Tell the site's operator that the disk holding the data directory is full.",
    ],
  },
  storage_unavailable: {
    status: 503,
    title: 'Storage unavailable',
    message: 'Nothing was saved: the server cannot write to its storage right now. Nothing stored before was lost.',
    guidance: [
      'Retry the same request later (with the same Idempotency-Key, if you sent one): it was not carried out, and nothing stored before was lost.',
      "Tell the site's operator if it keeps failing: the database cannot be reached, or the data directory is read-only or not writable by the server.",
    ],
  },
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CATALOGUE, value);
}

export function catalogueEntry(code: ErrorCode): CatalogueEntry {
  return ERROR_CATALOGUE[code];
}

/** The catalogue's guidance for a code, followed by the lines for this kind of client. */
export function guidanceFor(code: ErrorCode, client: ClientKind = 'unknown'): string[] {
  const entry: CatalogueEntry = ERROR_CATALOGUE[code];
  return [...entry.guidance, ...(entry.clientGuidance?.[client] ?? [])];
}

/** Guidance tailored to the client a User-Agent identifies. */
export function guidanceForUserAgent(code: ErrorCode, userAgent: string | undefined | null): string[] {
  return guidanceFor(code, identifyClient(userAgent).kind);
}

/** The code for an answer that carried only a status (for errors not raised through ApiError). */
export function errorCodeForStatus(status: number): ErrorCode {
  switch (status) {
    case 401:
      return 'invalid_api_key';
    case 403:
      return 'insufficient_permissions';
    case 404:
      return 'not_found';
    case 405:
      return 'method_not_allowed';
    case 409:
      return 'slug_taken';
    case 410:
      return 'post_gone';
    case 412:
      return 'precondition_failed';
    case 413:
      return 'payload_too_large';
    case 415:
      return 'unsupported_media_type';
    case 422:
      return 'idempotency_key_mismatch';
    case 428:
      return 'precondition_required';
    case 429:
      return 'rate_limited';
    case 431:
      return 'request_headers_too_large';
    default:
      return status >= 500 ? 'server_error' : 'bad_request';
  }
}

/** The JSON body of every error answer. */
export interface ApiErrorBody {
  success: false;
  code: ErrorCode;
  status: number;
  message: string;
  /** What to do about it: the catalogue's guidance, then lines for the identified client. */
  guidance: string[];
  /** The client kind the guidance was tailored to, when the User-Agent named one. */
  client?: ClientKind;
  /** For validation failures: every missing or invalid field. */
  errors?: FieldProblem[];
  docs: string;
  /** The answer's X-Request-Id, for support (set by the server on every error answer). */
  request_id?: string;
  /** RFC 9457: a link to the error's entry in the API's documentation, its title, its detail and the path. */
  type?: string;
  title?: string;
  detail?: string;
  instance?: string;
  [extra: string]: unknown;
}

export function isApiErrorBody(value: unknown): value is ApiErrorBody {
  if (typeof value !== 'object' || value === null) return false;
  const body = value as Record<string, unknown>;
  return body.success === false && isErrorCode(body.code) && typeof body.message === 'string';
}

export interface ApiErrorOptions {
  message?: string;
  errors?: FieldProblem[];
  /** Response headers that belong to the error (Allow, Retry-After). */
  headers?: Record<string, string>;
  /** Guidance lines specific to this occurrence, shown after the catalogue's. */
  hints?: string[];
  /** Extra fields for the JSON body (e.g. `allow`, `retryAfterSeconds`). */
  extra?: Record<string, unknown>;
  /**
   * What the request log keeps about this answer for `blogpost diagnose` (the limit that applied, the
   * revisions of a conflict): never a secret, a header's value or personal data. Not in the body.
   */
  facts?: Record<string, unknown>;
  cause?: unknown;
}

/** The one error type the API throws; the error middleware renders it with the catalogue. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors: FieldProblem[] | undefined;
  readonly headers: Record<string, string>;
  readonly hints: string[];
  readonly extra: Record<string, unknown>;
  readonly facts: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, options: ApiErrorOptions = {}) {
    super(options.message ?? ERROR_CATALOGUE[code].message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = ERROR_CATALOGUE[code].status;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
    this.hints = options.hints ?? [];
    this.extra = options.extra ?? {};
    this.facts = options.facts;
  }
}

/** The 400 for a list of field problems, its message naming every field. */
export function validationError(problems: FieldProblem[], hints: string[] = []): ApiError {
  const fields = problems.map((problem) => problem.field).join(', ');
  const count = problems.length === 1 ? 'A field is' : `${problems.length} fields are`;
  return new ApiError('validation_failed', { message: `${count} missing or invalid: ${fields}.`, errors: problems, hints });
}

export const API_DOCS_PATH = '/api/usage-examples';

/** The body an ApiError is answered with, guidance tailored to `client`. */
export function errorBodyFor(error: ApiError, client: ClientKind): ApiErrorBody {
  const external = client !== 'browser' && client !== 'unknown';
  const body: ApiErrorBody = {
    success: false,
    code: error.code,
    status: error.status,
    message: error.message,
    guidance: [...guidanceFor(error.code, client), ...error.hints],
    ...(external ? { client } : {}),
    ...(error.errors ? { errors: error.errors } : {}),
    docs: API_DOCS_PATH,
  };
  // Extras add detail (allow, retryAfterSeconds, requestId) but never replace the fields above.
  for (const [name, value] of Object.entries(error.extra)) if (!(name in body)) body[name] = value;
  return body;
}
