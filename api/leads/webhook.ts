/**
 * The webhook notification of a lead: a JSON POST signed with HMAC-SHA256 over "<timestamp>.<body>", so
 * the receiver can tell it came from this site and is not a replay. `signWebhook` and
 * `verifyWebhookSignature` are the one definition of the algorithm: the tests, and the receiver's guide
 * (docs/lead-notifications.md), use exactly these.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { LeadRecord } from '../../contract/leads';

export const SIGNATURE_HEADER = 'X-Lead-Signature';
export const DELIVERY_HEADER = 'X-Lead-Delivery';
export const WEBHOOK_EVENT = 'lead.created';
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** The longest piece of a receiver's answer kept in a failure reason. */
const REASON_BODY_CHARS = 200;

export interface WebhookBody {
  event: typeof WEBHOOK_EVENT;
  lead: LeadRecord;
  sentAt: string;
}

/** What one attempt gave: sent (a 2xx answer), or why not in a few words. */
export type WebhookOutcome = { ok: true } | { ok: false; reason: string };

function hmacHex(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/** The X-Lead-Signature value: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${hmacHex(secret, timestamp, body)}`;
}

function parseSignatureHeader(header: string): { timestamp: number; signatures: string[] } | null {
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2);
    if (key === 't' && value && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    if (key === 'v1' && value && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value.toLowerCase());
  }
  return timestamp === null || signatures.length === 0 ? null : { timestamp, signatures };
}

/**
 * True when `header` (the X-Lead-Signature value) signs exactly `body` (the raw request body, as
 * received) with `secret`, and its timestamp is within `toleranceSeconds` of `now`. Compares in
 * constant time.
 */
export function verifyWebhookSignature(secret: string, header: string | null | undefined, body: string, now: Date, toleranceSeconds = 300): boolean {
  const parsed = header ? parseSignatureHeader(header) : null;
  if (!parsed) return false;
  if (Math.abs(Math.floor(now.getTime() / 1000) - parsed.timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(hmacHex(secret, parsed.timestamp, body), 'hex');
  // Every candidate is compared, so the time taken does not tell which one matched.
  return parsed.signatures.map((signature) => timingSafeEqual(expected, Buffer.from(signature, 'hex'))).includes(true);
}

/** The request body of a lead's webhook: `{"event":"lead.created","lead":{...},"sentAt":"..."}`. */
export function webhookBody(lead: LeadRecord, sentAt: Date): string {
  const body: WebhookBody = { event: WEBHOOK_EVENT, lead, sentAt: sentAt.toISOString() };
  return JSON.stringify(body);
}

function shorten(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > REASON_BODY_CHARS ? `${oneLine.slice(0, REASON_BODY_CHARS)}…` : oneLine;
}

function failureReason(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `no answer within ${WEBHOOK_TIMEOUT_MS / 1000} s`;
  }
  const cause = error instanceof Error ? error.cause : undefined;
  const code = cause && typeof cause === 'object' && 'code' in cause ? String(cause.code) : null;
  const message = cause instanceof Error ? cause.message : error instanceof Error ? error.message : String(error);
  return `could not reach the receiver (${shorten(code ?? message)})`;
}

async function answerReason(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  const status = `answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  if (response.status >= 300 && response.status < 400) return `${status} (redirects are not followed: set LEAD_WEBHOOK_URL to the final address)`;
  return text.trim() ? `${status}: ${shorten(text)}` : status;
}

/**
 * Posts one lead to the webhook (one attempt). `deliveryId` goes in X-Lead-Delivery: the same on every
 * retry, so the receiver can ignore a notification it already has.
 */
export async function postWebhook(
  webhook: { url: string; secret: string },
  deliveryId: string,
  lead: LeadRecord,
  now: Date,
): Promise<WebhookOutcome> {
  const body = webhookBody(lead, now);
  const signature = signWebhook(webhook.secret, Math.floor(now.getTime() / 1000), body);
  try {
    const response = await fetch(webhook.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', [SIGNATURE_HEADER]: signature, [DELIVERY_HEADER]: deliveryId },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    });
    if (response.status >= 200 && response.status < 300) {
      await response.body?.cancel().catch(() => undefined);
      return { ok: true };
    }
    return { ok: false, reason: await answerReason(response) };
  } catch (error) {
    return { ok: false, reason: failureReason(error) };
  }
}
