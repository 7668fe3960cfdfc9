/**
 * `postman`: Postman's request as it arrives when the body type is left on Text (the JSON is sent as
 * text/plain): the API must refuse it with Postman's fix. `postmanFix`: the same request with the
 * body type set to JSON, which must be accepted.
 */
import { diagnoseResponse } from '../diagnose';
import { type HarnessContext, probeBody } from '../context';
import { POSTMAN_USER_AGENT, SAMPLE_POST } from '../sample-post';
import type { TestResult } from '../types';

function postmanRequest(h: HarnessContext, contentType: string) {
  return {
    method: 'POST',
    url: h.writeUrl(h.clientHint('postman')),
    headers: {
      ...h.authHeaders(),
      'Content-Type': contentType,
      'User-Agent': POSTMAN_USER_AGENT,
      Accept: '*/*',
      'Cache-Control': 'no-cache',
    },
    body: JSON.stringify(SAMPLE_POST, null, 4),
  };
}

export async function postmanTest(h: HarnessContext): Promise<TestResult> {
  const probe = await h.probe('postman: body type Text', postmanRequest(h, 'text/plain'), 'postman');
  if (!probe.response) return h.fail(`Postman simulation failed: ${probe.error ?? 'no response'}`);
  const statusCode = probe.response.status;
  const body = probeBody(probe);
  if (!body.ok) return h.fail(`${body.message} (status ${statusCode})`, { statusCode });
  const guidance = Array.isArray(body.value.guidance) ? body.value.guidance.map(String) : [];
  if (statusCode === 415 && body.value.code === 'unsupported_media_type' && guidance.length > 0) {
    return h.pass('Postman with the body type on Text is refused with 415 and told how to fix it: choose Body > raw > JSON.', {
      statusCode,
      data: { guidance },
      detailed_instructions: guidance,
    });
  }
  return h.fail(`Postman simulation failed: expected 415 unsupported_media_type for a text/plain body, got ${statusCode} ${String(body.value.code ?? '')}`.trim(), {
    statusCode,
    data: body.value,
    detailed_instructions: ['The API must refuse non-JSON bodies with 415 and explain the fix (Body > raw > JSON in Postman).'],
  });
}

export async function postmanFixTest(h: HarnessContext): Promise<TestResult> {
  const probe = await h.probe('postmanFix: body type JSON', postmanRequest(h, 'application/json'), 'postman');
  if (!probe.response) return h.fail(`Postman simulation failed: ${probe.error ?? 'no response'}`);
  const statusCode = probe.response.status;
  const body = probeBody(probe);
  if (!body.ok) return h.fail(`${body.message} (status ${statusCode})`, { statusCode });
  if ((statusCode === 201 || statusCode === 200) && body.value.success === true) {
    return h.pass(`Postman with Body > raw > JSON works (${statusCode}).`, { statusCode, data: body.value });
  }
  const diagnosis = diagnoseResponse({ status: statusCode, headers: probe.response.headers, text: probe.response.body }, 'postman');
  return h.fail(`Postman simulation failed: ${diagnosis.cause}`, {
    statusCode,
    data: body.value,
    detailed_instructions: diagnosis.fixes,
  });
}
