/**
 * The webhook's signature (what a receiver checks: the right secret, the exact body, a fresh timestamp)
 * and one attempt against a real HTTP receiver: 2xx is sent, anything else is a short reason.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { LeadRecord } from '../../contract/leads';
import { startWebhookReceiver, type TestWebhookReceiver } from '../../tests/support/leads';
import { leadRecord } from '../../tests/support/store-contract';
import { postWebhook, signWebhook, verifyWebhookSignature, webhookBody } from './webhook';

const SECRET = 'webhook-secret-for-tests-0123456789abcdef';
const NOW = new Date('2026-12-01T15:00:00.000Z');
const T = Math.floor(NOW.getTime() / 1000);

function testLead(): LeadRecord {
  return leadRecord('lead_Web00000000000000001', { createdAt: NOW.toISOString() });
}

const receivers: TestWebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

/** A receiver answering every request with `status` and the text `answer` (a 301 points elsewhere). */
async function receiver(status: number, answer = ''): Promise<TestWebhookReceiver> {
  const hook = await startWebhookReceiver({
    secret: SECRET,
    now: () => NOW,
    answer: () => ({ status, body: answer, headers: { 'Content-Type': 'text/plain', ...(status === 301 ? { Location: '/elsewhere' } : {}) } }),
  });
  receivers.push(hook);
  return hook;
}

describe('signWebhook and verifyWebhookSignature', () => {
  const body = webhookBody(testLead(), NOW);
  const header = signWebhook(SECRET, T, body);

  it('signs "<t>.<body>" with HMAC-SHA256 in the documented header form', () => {
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(header.startsWith(`t=${T},`)).toBe(true);
    expect(verifyWebhookSignature(SECRET, header, body, NOW)).toBe(true);
  });

  it('fails for a tampered body, another secret, or a malformed header', () => {
    expect(verifyWebhookSignature(SECRET, header, body.replace('Jane', 'Joan'), NOW)).toBe(false);
    expect(verifyWebhookSignature(`${SECRET}x`, header, body, NOW)).toBe(false);
    expect(verifyWebhookSignature(SECRET, header.replace(`t=${T}`, `t=${T + 1}`), body, new Date(NOW.getTime() + 1000))).toBe(false);
    for (const wrong of ['', 'v1=abc', `t=${T}`, `t=${T},v1=${'0'.repeat(63)}`, undefined, null]) {
      expect(verifyWebhookSignature(SECRET, wrong, body, NOW)).toBe(false);
    }
  });

  it('fails for a timestamp outside the tolerance (a replay), either way', () => {
    expect(verifyWebhookSignature(SECRET, header, body, new Date(NOW.getTime() + 300_000))).toBe(true);
    expect(verifyWebhookSignature(SECRET, header, body, new Date(NOW.getTime() + 301_000))).toBe(false);
    expect(verifyWebhookSignature(SECRET, header, body, new Date(NOW.getTime() - 301_000))).toBe(false);
    expect(verifyWebhookSignature(SECRET, header, body, new Date(NOW.getTime() + 3_600_000), 7_200)).toBe(true);
  });

  it('accepts any matching v1 among several (a receiver rotating secrets)', () => {
    const other = signWebhook('another-secret-of-enough-length-000000', T, body).split(',')[1];
    expect(verifyWebhookSignature(SECRET, `${header},${other}`, body, NOW)).toBe(true);
  });
});

describe('postWebhook', () => {
  it('posts the signed JSON body with the delivery id, and counts a 2xx as sent', async () => {
    const hook = await receiver(204);
    const lead = testLead();
    expect(await postWebhook({ url: hook.url, secret: SECRET }, `${lead.id}.webhook`, lead, NOW)).toEqual({ ok: true });
    const [request] = hook.received;
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['x-lead-delivery']).toBe(`${lead.id}.webhook`);
    expect(verifyWebhookSignature(SECRET, String(request?.headers['x-lead-signature']), request?.body ?? '', NOW)).toBe(true);
    expect(JSON.parse(request?.body ?? '')).toEqual({ event: 'lead.created', lead, sentAt: NOW.toISOString() });
  });

  it('gives the status and at most 200 characters of the answer when the receiver refuses', async () => {
    const hook = await receiver(500, `Internal error ${'x'.repeat(500)}`);
    const outcome = await postWebhook({ url: hook.url, secret: SECRET }, 'd', testLead(), NOW);
    expect(outcome.ok).toBe(false);
    const reason = outcome.ok ? '' : outcome.reason;
    expect(reason).toMatch(/^answered 500 Internal Server Error: Internal error x+…$/);
    expect(reason.length).toBeLessThan(260);
  });

  it('does not follow a redirect, and says to set the final address', async () => {
    const hook = await receiver(301);
    const outcome = await postWebhook({ url: hook.url, secret: SECRET }, 'd', testLead(), NOW);
    expect(outcome).toEqual({ ok: false, reason: expect.stringContaining('answered 301') });
    expect(outcome.ok ? '' : outcome.reason).toContain('set LEAD_WEBHOOK_URL to the final address');
    expect(hook.received).toHaveLength(1);
  });

  it('names the network error when nothing listens', async () => {
    const hook = await receiver(200);
    await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
    const outcome = await postWebhook({ url: hook.url, secret: SECRET }, 'd', testLead(), NOW);
    expect(outcome).toEqual({ ok: false, reason: 'could not reach the receiver (ECONNREFUSED)' });
  });
});
