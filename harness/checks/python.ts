/** `python`: the exact request the Python example sends (JSON body, python-requests user agent). */
import { diagnoseResponse } from '../diagnose';
import { type HarnessContext, probeBody } from '../context';
import { PYTHON_USER_AGENT, SAMPLE_POST } from '../sample-post';
import type { TestResult } from '../types';

export async function pythonTest(h: HarnessContext): Promise<TestResult> {
  const probe = await h.probe(
    'python',
    {
      method: 'POST',
      url: h.writeUrl(h.clientHint('python')),
      headers: { ...h.authHeaders(), 'Content-Type': 'application/json', 'User-Agent': PYTHON_USER_AGENT },
      body: JSON.stringify(SAMPLE_POST),
    },
    'python',
  );
  if (!probe.response) return h.fail(`Python API test failed: ${probe.error ?? 'no response'}`);
  const statusCode = probe.response.status;
  const body = probeBody(probe);
  if (!body.ok) return h.fail(`${body.message} (status ${statusCode})`, { statusCode });
  if ((statusCode === 201 || statusCode === 200) && body.value.success === true) {
    const post = body.value.post as { slug?: string; status?: string } | undefined;
    // Only a 201 naming the post created one; the validation endpoint answers 200 and saves nothing.
    const message =
      statusCode === 201 && post?.slug
        ? `Python request succeeded: ${post.status ?? 'draft'} post "${post.slug}" created (${statusCode}).`
        : `Python request succeeded: the API accepts this payload (${statusCode}; validated, nothing saved).`;
    return h.pass(message, { statusCode, data: body.value });
  }
  const diagnosis = diagnoseResponse(
    { status: statusCode, headers: probe.response.headers, text: probe.response.body },
    'python',
  );
  return h.fail(`Python API test failed: ${diagnosis.cause}`, {
    statusCode,
    data: body.value,
    detailed_instructions: diagnosis.fixes,
  });
}
