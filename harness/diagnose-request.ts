/**
 * A request looked at without sending it: each thing the API would refuse, with the cause and the
 * fix from the error catalogue (tailored to the client its User-Agent names). Used by
 * `blogpost diagnose --request` on a captured curl command or HAR file.
 */
import { checkCreatePostBody } from '../contract/blog';
import { type ClientKind, identifyClient } from '../contract/clients';
import { type ErrorCode, guidanceFor } from '../contract/errors';
import { checkApiKey, readBearerToken } from '../contract/keys';
import type { HarnessRequest } from './types';

export interface Finding {
  code: ErrorCode | 'wrong_endpoint';
  cause: string;
  fixes: string[];
}

function header(request: HarnessRequest, name: string): string | undefined {
  return Object.entries(request.headers).find(([key]) => key.toLowerCase() === name)?.[1];
}

export function requestClient(request: HarnessRequest): ClientKind {
  return identifyClient(header(request, 'user-agent')).kind;
}

export function diagnoseRequest(request: HarnessRequest): Finding[] {
  const client = requestClient(request);
  const findings: Finding[] = [];
  const add = (code: ErrorCode, cause: string, extra: string[] = []) => findings.push({ code, cause, fixes: [...extra, ...guidanceFor(code, client)] });

  let path: string;
  try {
    path = new URL(request.url).pathname.replace(/\/+$/, '');
  } catch {
    findings.push({ code: 'wrong_endpoint', cause: `The URL "${request.url}" is not a valid address.`, fixes: ['Use the full address, e.g. https://your-site/api/blog.'] });
    return findings;
  }
  if (path !== '/api/blog' && path !== '/api/blog/validate') {
    findings.push({
      code: 'wrong_endpoint',
      cause: `The request goes to ${path || '/'}, not to /api/blog.`,
      fixes: ['Send new posts to POST /api/blog on the site itself (or /api/blog/validate to check a payload without saving it).'],
    });
  }
  if (request.method.toUpperCase() !== 'POST') {
    add('method_not_allowed', `The method is ${request.method.toUpperCase()}; creating a post needs POST.`);
  }

  if (path !== '/api/blog/validate') {
    const bearer = readBearerToken(header(request, 'authorization'));
    if (!bearer.ok) {
      add(
        bearer.problem === 'missing' ? 'missing_api_key' : 'malformed_api_key',
        bearer.problem === 'missing' ? 'There is no Authorization header.' : 'The Authorization header is not "Bearer <key>".',
      );
    } else {
      const key = checkApiKey(bearer.token);
      if (!key.ok) add('malformed_api_key', key.message);
    }
  }

  const contentType = (header(request, 'content-type') ?? '').toLowerCase();
  const body = request.body ?? '';
  if (!contentType.startsWith('application/json') && !/\+json\b/.test(contentType)) {
    const what = contentType.startsWith('application/x-www-form-urlencoded')
      ? 'a form body (in Python: data=post; in curl: -d without a JSON Content-Type)'
      : contentType.startsWith('text/plain')
        ? 'text/plain (in Postman: Body type left on Text)'
        : contentType.startsWith('multipart/form-data')
          ? 'multipart form data (in Postman: Body > form-data)'
          : contentType
            ? contentType
            : 'no Content-Type header';
    add('unsupported_media_type', `The body is sent as ${what}, not as JSON.`);
    return findings;
  }
  if (body.trim() === '') {
    add('validation_failed', 'The request has no body.');
    return findings;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (error) {
    add('invalid_json', `The body is not valid JSON: ${(error as Error).message}`);
    return findings;
  }
  const check = checkCreatePostBody(parsed);
  if (!check.ok && check.reason === 'json_string') {
    add('body_is_json_string', 'The body is a JSON string holding the post: the payload was serialised twice.');
  } else if (!check.ok) {
    add(
      'validation_failed',
      `The post has ${check.problems.length} missing or invalid field${check.problems.length === 1 ? '' : 's'}.`,
      check.problems.map((p) => `${p.field}: ${p.message}`),
    );
  }
  return findings;
}
