/**
 * The transport on top of a fetch function: the browser's own, or Node's (undici underneath; the CLI
 * tunes its timeouts with undici's global dispatcher). Tests replace the network with msw.
 */
import type { HarnessRequest, HarnessResponse, Transport } from './types';

export function fetchTransport(kind: Transport['kind'], fetchImpl: typeof fetch = (...args) => globalThis.fetch(...args)): Transport {
  return {
    kind,
    async send(request: HarnessRequest): Promise<HarnessResponse> {
      const response = await fetchImpl(request.url, {
        method: request.method,
        headers: request.headers,
        ...(request.body === undefined ? {} : { body: request.body }),
        redirect: 'manual',
      });
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        headers[name.toLowerCase()] = value;
      });
      return { status: response.status, headers, text: await response.text() };
    },
  };
}
