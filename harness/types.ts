/**
 * The harness's seams: a transport that sends one HTTP request (browser fetch or undici), a state
 * store (localStorage or a file), and the result every test returns.
 */

export interface HarnessRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface HarnessResponse {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  text: string;
}

export interface Transport {
  /** 'browser' transports cannot set forbidden headers (User-Agent, Origin, Access-Control-Request-*). */
  kind: 'browser' | 'node';
  send(request: HarnessRequest): Promise<HarnessResponse>;
}

export interface StateStore {
  get(key: string): string | null;
  set(key: string, value: string): void;
  remove(key: string): void;
}

export const TEST_TYPES = ['python', 'dataParam', 'cors', 'postman', 'postmanFix', 'reset'] as const;
export type TestType = (typeof TEST_TYPES)[number];

export function isTestType(value: string): value is TestType {
  return (TEST_TYPES as readonly string[]).includes(value);
}

/** One request a test sent and what came back, for the debug output and the log. */
export interface ProbeRecord {
  name: string;
  request: HarnessRequest;
  response?: { status: number; headers: Record<string, string>; body: string };
  error?: string;
}

export interface TestResult {
  success: boolean;
  message: string;
  /** ISO 8601 time the test finished. */
  timestamp: string;
  statusCode?: number;
  data?: unknown;
  /** What to do, step by step, when the test failed (the catalogue's guidance). */
  detailed_instructions?: string[];
  isCorsError?: boolean;
  isDataParamError?: boolean;
  /** Every request the test made. */
  probes: ProbeRecord[];
}

export interface HarnessDeps {
  /** Origin of the API, e.g. http://localhost:3000 (no trailing slash needed). */
  baseUrl: string;
  /** With a key, the probes create real draft posts; without one they use POST /api/blog/validate. */
  apiKey?: string;
  /** Send every write probe to POST /api/blog/validate even with a key (the key is still checked). */
  validateOnly?: boolean;
  transport: Transport;
  state: StateStore;
  now?: () => Date;
}
