/** What every test type uses: sending a probe (recorded in the state), and building results. */
import { type ClientKind } from '../contract/clients';
import { diagnoseResponse, parseResponseBody } from './diagnose';
import { recordProbe } from './state';
import type { HarnessDeps, HarnessRequest, ProbeRecord, TestResult } from './types';

export class HarnessContext {
  readonly probes: ProbeRecord[] = [];
  readonly baseUrl: string;

  constructor(readonly deps: HarnessDeps) {
    this.baseUrl = deps.baseUrl.replace(/\/+$/, '');
  }

  /** With a key the real endpoint (creating a draft); without one, or validating only, the validation endpoint. */
  writeUrl(query: Record<string, string> = {}): string {
    const path = this.deps.apiKey && !this.deps.validateOnly ? '/api/blog' : '/api/blog/validate';
    const search = new URLSearchParams(query).toString();
    return `${this.baseUrl}${path}${search ? `?${search}` : ''}`;
  }

  /**
   * Query hints for the client a probe imitates: a browser cannot set the User-Agent, so the
   * server is told with `pythonClient` / `client` (it tailors its guidance to them).
   */
  clientHint(client: ClientKind): Record<string, string> {
    if (this.deps.transport.kind !== 'browser') return {};
    return client === 'python' ? { pythonClient: 'true' } : { client };
  }

  authHeaders(): Record<string, string> {
    return this.deps.apiKey ? { Authorization: `Bearer ${this.deps.apiKey}` } : {};
  }

  async probe(name: string, request: HarnessRequest, client: ClientKind = 'unknown'): Promise<ProbeRecord> {
    const record: ProbeRecord = { name, request };
    try {
      const response = await this.deps.transport.send(request);
      record.response = { status: response.status, headers: response.headers, body: response.text };
      recordProbe(this.deps.state, record, diagnoseResponse(response, client).fixes);
    } catch (error) {
      record.error = error instanceof Error ? error.message : String(error);
      recordProbe(this.deps.state, record, []);
    }
    this.probes.push(record);
    return record;
  }

  timestamp(): string {
    return (this.deps.now?.() ?? new Date()).toISOString();
  }

  pass(message: string, extra: Partial<TestResult> = {}): TestResult {
    return { success: true, message, timestamp: this.timestamp(), ...extra, probes: this.probes };
  }

  fail(message: string, extra: Partial<TestResult> = {}): TestResult {
    return { success: false, message, timestamp: this.timestamp(), ...extra, probes: this.probes };
  }
}

/** The JSON body of a probe's response, or why it could not be read. */
export function probeBody(probe: ProbeRecord): { ok: true; value: Record<string, unknown> } | { ok: false; message: string } {
  if (!probe.response) return { ok: false, message: probe.error ?? 'no response' };
  const parsed = parseResponseBody({ status: probe.response.status, headers: probe.response.headers, text: probe.response.body });
  if (!parsed.ok) return parsed;
  if (typeof parsed.value !== 'object' || parsed.value === null) {
    return { ok: false, message: `Failed to parse response: ${probe.response.body.slice(0, 300)}` };
  }
  return { ok: true, value: parsed.value as Record<string, unknown> };
}
