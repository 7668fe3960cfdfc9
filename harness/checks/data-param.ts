/**
 * `dataParam`: the two classic Python mistakes, and whether the server answers each with the right
 * guidance: `requests.post(url, data=post)` (a form body, with the query parameters the original
 * helpers sent) and `requests.post(url, json=json.dumps(post))` (the object serialised twice).
 */
import { type HarnessContext, probeBody } from '../context';
import { PYTHON_USER_AGENT, SAMPLE_POST } from '../sample-post';
import type { ProbeRecord, TestResult } from '../types';

function formBody(): string {
  const form = new URLSearchParams({
    title: SAMPLE_POST.title,
    content: SAMPLE_POST.content,
    excerpt: SAMPLE_POST.excerpt,
    category: SAMPLE_POST.category,
    status: SAMPLE_POST.status,
    author_name: SAMPLE_POST.author.name,
  });
  return form.toString();
}

interface Expectation {
  probe: ProbeRecord;
  status: number;
  code: string;
  mistake: string;
}

function check({ probe, status, code, mistake }: Expectation): { ok: true; guidance: string[] } | { ok: false; reason: string } {
  if (!probe.response) return { ok: false, reason: `${mistake}: ${probe.error ?? 'no response'}` };
  const body = probeBody(probe);
  if (!body.ok) return { ok: false, reason: `${mistake}: ${body.message}` };
  if (probe.response.status !== status || body.value.code !== code) {
    return {
      ok: false,
      reason: `${mistake}: expected ${status} ${code}, got ${probe.response.status} ${String(body.value.code ?? '(no code)')}`,
    };
  }
  const guidance = Array.isArray(body.value.guidance) ? body.value.guidance.map(String) : [];
  if (guidance.length === 0) return { ok: false, reason: `${mistake}: the answer carries no guidance` };
  return { ok: true, guidance };
}

export async function dataParamTest(h: HarnessContext): Promise<TestResult> {
  const query = {
    title: SAMPLE_POST.title,
    content: SAMPLE_POST.content,
    excerpt: SAMPLE_POST.excerpt,
    category: SAMPLE_POST.category,
    status: SAMPLE_POST.status,
    author_name: SAMPLE_POST.author.name,
    pythonClient: 'true',
    debug: 'true',
  };
  const form = await h.probe(
    'dataParam: data=post (form body)',
    {
      method: 'POST',
      url: h.writeUrl(query),
      headers: { ...h.authHeaders(), 'Content-Type': 'application/x-www-form-urlencoded', 'User-Agent': PYTHON_USER_AGENT },
      body: formBody(),
    },
    'python',
  );
  const twice = await h.probe(
    'dataParam: json=json.dumps(post) (serialised twice)',
    {
      method: 'POST',
      url: h.writeUrl(h.clientHint('python')),
      headers: { ...h.authHeaders(), 'Content-Type': 'application/json', 'User-Agent': PYTHON_USER_AGENT },
      body: JSON.stringify(JSON.stringify(SAMPLE_POST)),
    },
    'python',
  );
  const results = [
    check({ probe: form, status: 415, code: 'unsupported_media_type', mistake: 'A form body (data=post)' }),
    check({ probe: twice, status: 400, code: 'body_is_json_string', mistake: 'A body serialised twice (json=json.dumps(post))' }),
  ];
  const failures = results.flatMap((r) => (r.ok ? [] : [r.reason]));
  if (failures.length > 0) {
    return h.fail(`Python API test failed: ${failures.join('; ')}`, {
      isDataParamError: true,
      statusCode: form.response?.status ?? twice.response?.status,
      detailed_instructions: [
        'Send the post with requests.post(url, json=post, headers=headers), where post is a dict.',
        'data=post sends form fields, and json=json.dumps(post) sends a JSON string: both are rejected.',
      ],
    });
  }
  const guidance = results.flatMap((r) => (r.ok ? r.guidance : []));
  return h.pass('The API recognises both data-parameter mistakes (form body: 415, body serialised twice: 400) and explains the fix.', {
    statusCode: twice.response?.status,
    data: { guidance },
  });
}
