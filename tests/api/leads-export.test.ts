/**
 * /admin/leads.csv over real HTTP with more leads than one batch of the store holds: the download is
 * the same CSV, byte for byte, as the whole list made at once, in the inbox's order and filter (status,
 * spam, search); it is sent as it is made (no Content-Length); and the audit log records each export
 * with its count when it ends, a download cancelled halfway as incomplete.
 */
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeadRecord } from '../../contract/leads';
import { leadsCsv } from '../../api/services/lead-export';
import { deliveryRecord, leadRecord } from '../support/store-contract';
import { loginTokenOf, staffClient, type StaffClient } from '../support/staff-client';
import { startTestServer, type TestServer } from '../support/server';

const EMAIL = 'exporter@example.com';
const PASSWORD = 'correct horse battery staple 42';
/** More than two of the store's batches (500 leads each). */
const LEADS = 1_234;

let server: TestServer;
let client: StaffClient;

/**
 * Thirty notes of 1,000 characters a lead: about 30 kB a row, 32 MB an export, several times what the
 * connection's buffers hold (loopback TCP grows them to a few megabytes each way), so a download
 * cancelled early is cut off before the server has made all of it.
 */
const NOTES = Array.from({ length: 30 }, (_, i) => ({ at: '2026-06-02T09:00:00.000Z', by: EMAIL, text: `Call ${i + 1}: ${'left a message and will try again; '.repeat(30).slice(0, 990)}` }));

/** Lead `n`: every seventh kept aside as spam, every third closed, names that a search can tell apart. */
function lead(n: number): LeadRecord {
  const id = `lead_${String(n).padStart(6, '0')}${'E'.repeat(14)}`;
  // Ten leads share each second, so the order within a second is the ids' (as the inbox lists them).
  const createdAt = new Date(Date.UTC(2026, 5, 1) + Math.floor(n / 10) * 1_000).toISOString();
  return leadRecord(id, {
    createdAt,
    updatedAt: createdAt,
    name: n % 100 === 0 ? `Hundredth Person ${n}` : `Person ${n}`,
    additionalNotes: n % 50 === 0 ? '=HYPERLINK("http://evil.example")' : null,
    agentNotes: NOTES,
    ...(n % 7 === 0 ? { spam: 'honeypot' as const } : {}),
    ...(n % 3 === 0 ? { status: 'closed' as const } : {}),
  });
}

beforeAll(async () => {
  server = await startTestServer();
  await server.seedStaff(EMAIL, PASSWORD, 'Ex Porter');
  for (let n = 0; n < LEADS; n++) {
    const made = lead(n);
    await server.store.leads.create(made, n % 2 === 0 ? [deliveryRecord(made, 'email', { sentAt: made.createdAt, attempts: 1, nextAttemptAt: null })] : [deliveryRecord(made, 'email')]);
  }
  client = staffClient(server.url);
  const signedIn = await client.request('/admin/login', { form: { email: EMAIL, password: PASSWORD, loginToken: await loginTokenOf(client), next: '/admin' } });
  expect(signedIn.status).toBe(303);
}, 120_000);
afterAll(async () => {
  await server?.close();
});

/** The CSV the whole list, made at once, comes to: what the export must equal byte for byte. */
async function wholeCsv(keep: (lead: LeadRecord) => boolean, query: Parameters<TestServer['store']['leads']['list']>[0]): Promise<string> {
  const leads = (await server.store.leads.list(query)).filter(keep);
  return leadsCsv(leads, await server.store.outbox.forLeads(leads.map((item) => item.id)));
}

const exports = async () => (await server.store.audit.list()).filter((entry) => entry.action === 'leads.exported');

describe('/admin/leads.csv', () => {
  it('is the whole inbox, byte for byte the CSV made at once, streamed, and audited with its count', async () => {
    const before = (await exports()).length;
    const res = await client.request('/admin/leads.csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="quote-requests-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-length')).toBeNull();
    const text = await res.text();
    const expected = await wholeCsv(() => true, { spam: false });
    expect(text).toBe(expected);
    const rows = parse(text, { columns: true }) as Array<Record<string, string>>;
    const real = Array.from({ length: LEADS }, (_, n) => n).filter((n) => n % 7 !== 0);
    expect(rows).toHaveLength(real.length);
    expect(rows[0]?.id).toBe(lead(LEADS - 1).id);
    expect(rows.at(-1)?.id).toBe(lead(1).id);
    expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
    expect(rows.find((row) => row.id === lead(50).id)?.additional_notes).toBe(`'=HYPERLINK("http://evil.example")`);
    expect(rows.find((row) => row.id === lead(2).id)?.notified).toBe('email sent');
    // The export is audited as it ends, just after its last byte: wait for the entry.
    await expect.poll(async () => (await exports()).length).toBe(before + 1);
    expect((await exports()).at(-1)?.detail).toEqual({ count: real.length, status: null, spam: false });
  });

  it('keeps to the filter of the inbox: status, spam and a search', async () => {
    const closed = await (await client.request('/admin/leads.csv?status=closed')).text();
    expect(closed).toBe(await wholeCsv(() => true, { status: 'closed', spam: false }));
    expect(parse(closed, { columns: true })).toHaveLength(Array.from({ length: LEADS }, (_, n) => n).filter((n) => n % 3 === 0 && n % 7 !== 0).length);
    const spam = await (await client.request('/admin/leads.csv?spam=1')).text();
    expect(spam).toBe(await wholeCsv(() => true, { spam: true }));
    const searched = parse(await (await client.request('/admin/leads.csv?q=hundredth')).text(), { columns: true }) as Array<Record<string, string>>;
    expect(searched.map((row) => row.name)).toEqual([1200, 1100, 1000, 900, 800, 600, 500, 400, 300, 200, 100].map((n) => `Hundredth Person ${n}`));
    // Each export is audited as it ends, just after its last byte: wait for the search's entry.
    await expect.poll(async () => (await exports()).at(-1)?.detail).toEqual({ count: 11, status: null, spam: false });
  });

  it('stops reading when the download is cancelled, and the audit says it was not complete', async () => {
    const before = (await exports()).length;
    const controller = new AbortController();
    const res = await fetch(`${server.url}/admin/leads.csv`, { headers: { Cookie: [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ') }, signal: controller.signal });
    expect(res.status).toBe(200);
    const reader = res.body?.getReader();
    const first = await reader?.read();
    expect(new TextDecoder().decode(first?.value)).toMatch(/^id,status,received_at,/);
    controller.abort();
    await expect.poll(async () => (await exports()).length, { timeout: 10_000 }).toBe(before + 1);
    const entry = (await exports()).at(-1);
    expect(entry?.detail).toMatchObject({ complete: false, status: null, spam: false });
    expect(Number(entry?.detail.count)).toBeLessThan(LEADS);
    // The server goes on answering.
    expect((await client.request('/admin')).status).toBe(200);
  });
});
