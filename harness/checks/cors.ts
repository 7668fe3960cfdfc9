/**
 * `cors`: the preflight a browser on another origin sends before POST /api/blog with a key and a JSON
 * body. From Node the probe is a real preflight; a browser cannot set its headers, so from the page
 * the probe is an OPTIONS request carrying only what the browser adds (the server answers both).
 */
import type { HarnessContext } from '../context';
import { PROBE_ORIGIN } from '../sample-post';
import type { TestResult } from '../types';

const NEEDED_HEADERS = ['authorization', 'content-type'];

export async function corsTest(h: HarnessContext): Promise<TestResult> {
  const origin = PROBE_ORIGIN;
  const probe = await h.probe('cors: preflight', {
    method: 'OPTIONS',
    url: `${h.baseUrl}/api/blog`,
    headers: {
      Origin: origin,
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'authorization,content-type,idempotency-key',
    },
  });
  if (!probe.response) {
    return h.fail(`Error initiating CORS test: ${probe.error ?? 'no response'}`, { isCorsError: true });
  }
  const { status, headers } = probe.response;
  const allowOrigin = headers['access-control-allow-origin'] ?? '';
  const allowMethods = (headers['access-control-allow-methods'] ?? '').toUpperCase();
  const allowHeaders = (headers['access-control-allow-headers'] ?? '').toLowerCase();
  const problems: string[] = [];
  if (status < 200 || status >= 300) problems.push(`the preflight answered ${status} instead of 204`);
  const originOk = allowOrigin === '*' || allowOrigin === origin || (h.deps.transport.kind === 'browser' && allowOrigin !== '');
  if (!originOk) problems.push(allowOrigin ? `Access-Control-Allow-Origin is ${allowOrigin}, not ${origin}` : 'no Access-Control-Allow-Origin header');
  if (!allowMethods.includes('POST')) problems.push('POST is not among Access-Control-Allow-Methods');
  const missing = NEEDED_HEADERS.filter((name) => !allowHeaders.includes(name));
  if (missing.length > 0) problems.push(`Access-Control-Allow-Headers lacks ${missing.join(' and ')}`);
  if (problems.length > 0) {
    return h.fail(`CORS preflight failed: ${problems.join('; ')}`, {
      isCorsError: true,
      statusCode: status,
      detailed_instructions: [
        'Browsers send an OPTIONS preflight before a cross-origin POST with Authorization and a JSON body; it must be answered without the key.',
        'Allow the calling origin on the server (CORS_ORIGINS, default any) and the headers Authorization, Content-Type and Idempotency-Key.',
        'Server-side clients (Python, curl, Postman) are not affected by CORS.',
      ],
    });
  }
  return h.pass(`CORS preflight passed: ${status}, origin ${allowOrigin}, methods ${allowMethods}, headers ${allowHeaders}.`, {
    statusCode: status,
    data: { allowOrigin, allowMethods, allowHeaders },
  });
}
