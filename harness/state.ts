/**
 * What the harness remembers between runs (the page keeps it in localStorage, the CLI in a file):
 * the last response, its diagnostics and headers, and the request that produced it. `reset` clears it.
 */
import { maskApiKey } from '../contract/keys';
import type { HarnessRequest, ProbeRecord, StateStore } from './types';

export const STATE_KEYS = {
  response: 'blogApiTest.response',
  diagnostics: 'blogApiTest.diagnostics',
  headers: 'blogApiTest.headers',
  requestBody: 'blogApiTest.requestBody',
  authHeader: 'blogApiTest.authHeader',
  contentType: 'blogApiTest.contentType',
  method: 'blogApiTest.method',
  rawBody: 'blogApiTest.rawBody',
  userAgent: 'blogApiTest.userAgent',
} as const;

function header(request: HarnessRequest, name: string): string | undefined {
  const found = Object.entries(request.headers).find(([key]) => key.toLowerCase() === name);
  return found?.[1];
}

/** The Authorization header as it may be stored and shown: the key masked. */
export function maskAuthorization(value: string | undefined): string {
  if (!value) return '';
  const match = /^(bearer\s+)(\S+)$/i.exec(value.trim());
  return match ? `${match[1]}${maskApiKey(match[2] ?? '')}` : '(not a Bearer header)';
}

export function recordProbe(state: StateStore, probe: ProbeRecord, diagnostics: readonly string[]): void {
  const { request, response } = probe;
  state.set(STATE_KEYS.method, request.method);
  state.set(STATE_KEYS.contentType, header(request, 'content-type') ?? '');
  state.set(STATE_KEYS.userAgent, header(request, 'user-agent') ?? '');
  state.set(STATE_KEYS.authHeader, maskAuthorization(header(request, 'authorization')));
  state.set(STATE_KEYS.requestBody, request.body ?? '');
  state.set(STATE_KEYS.rawBody, response?.body ?? '');
  state.set(STATE_KEYS.headers, JSON.stringify(response?.headers ?? {}));
  state.set(
    STATE_KEYS.response,
    JSON.stringify(response ? { status: response.status, body: response.body } : { error: probe.error ?? 'no response' }),
  );
  state.set(STATE_KEYS.diagnostics, JSON.stringify(diagnostics));
}

export function clearState(state: StateStore): string[] {
  const cleared: string[] = [];
  for (const key of Object.values(STATE_KEYS)) {
    if (state.get(key) !== null) cleared.push(key);
    state.remove(key);
  }
  return cleared;
}

/** A state store in memory (tests, and where no storage is available). */
export function memoryState(): StateStore {
  const data = new Map<string, string>();
  return {
    get: (key) => data.get(key) ?? null,
    set: (key, value) => void data.set(key, value),
    remove: (key) => void data.delete(key),
  };
}
