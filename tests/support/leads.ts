/**
 * What the tests of quote requests share: the quote form as a browser without JavaScript sends it, a
 * fresh lead id, a real HTTP webhook receiver on 127.0.0.1 that checks each request's signature as it
 * arrives, and waiting for the outbox to get somewhere. Complete lead and notification records come
 * from tests/support/store-contract.ts.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhookSignature } from '../../api/leads/webhook';

/** A complete quote form (Jane Carter, by phone, 45, $12,000 a year), URL-encoded as a browser sends it. */
export const QUOTE_FORM = 'name=Jane+Carter&preferredContactMethod=phone&phone=512-555-0199&age=45&annualContribution=12000&consent=yes&startedAt=1700000000000';

/** POSTs a quote form to `origin`'s /get-quote from the site's own page, not following the redirect. */
export function postQuoteForm(origin: string, body = QUOTE_FORM, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${origin}/get-quote`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin, ...headers },
    body,
  });
}

/** A new lead id: `lead_` and 20 letters or digits. */
export function newLeadId(): string {
  return `lead_${randomUUID().replace(/-/g, '').slice(0, 20)}`;
}

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  /** Whether its X-Lead-Signature verified with the receiver's secret and clock when it arrived. */
  valid: boolean;
}

export interface WebhookAnswer {
  status: number;
  body?: string;
  headers?: OutgoingHttpHeaders;
  /** How long the receiver takes before it answers. */
  delayMs?: number;
}

export interface WebhookReceiverOptions {
  secret: string;
  /** The clock signatures are checked against (default: the real one). */
  now?: () => Date;
  /** The answer to the `index`th request (default: 200 "ok"). */
  answer?: (request: ReceivedWebhook, index: number) => WebhookAnswer;
}

export interface TestWebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** The most requests it had in progress at once. */
  maxConcurrent: number;
  close: () => Promise<void>;
}

/** Starts a receiver at `http://127.0.0.1:<port>/hook`; the caller closes it. */
export async function startWebhookReceiver({ secret, now = () => new Date(), answer = () => ({ status: 200, body: 'ok' }) }: WebhookReceiverOptions): Promise<TestWebhookReceiver> {
  let inProgress = 0;
  const server = createServer((req, res) => {
    inProgress += 1;
    receiver.maxConcurrent = Math.max(receiver.maxConcurrent, inProgress);
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const request = { headers: req.headers, body, valid: verifyWebhookSignature(secret, req.headers['x-lead-signature']?.toString(), body, now()) };
      const reply = answer(request, receiver.received.length);
      receiver.received.push(request);
      setTimeout(() => {
        inProgress -= 1;
        res.writeHead(reply.status, reply.headers).end(reply.body ?? '');
      }, reply.delayMs ?? 0);
    });
  });
  const receiver: TestWebhookReceiver = {
    url: '',
    received: [],
    maxConcurrent: 0,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return receiver;
}

/** Resolves once `check` holds; fails naming `what` when it does not within `timeoutMs`. */
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
