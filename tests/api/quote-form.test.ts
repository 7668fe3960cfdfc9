/**
 * The quote form over plain HTTP, as a browser without JavaScript (or a robot) sends it: a request
 * from this site's page is stored and answered 303; one from another site, not a form, without a
 * length or larger than the form can be is refused before it is read, with a status and a sentence
 * that says what to do, and nothing stored. The page carries its render time, so it is never cached.
 * And the production command as a process: a quote request stored by a server killed before it could
 * send the e-mail is e-mailed by the next start, to a real SMTP server; the start-up banner says
 * where requests go, and a half-set delivery configuration stops the start with the fix.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../api/store/sql/sql-store';
import { makeTempDir, ROOT, startTestServer, type TestServer } from '../support/server';
import { postQuoteForm, QUOTE_FORM as FORM } from '../support/leads';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp';

describe('POST /get-quote', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ leads: { settings: { minFillMs: 0, perHour: 0 } } });
  });
  afterAll(async () => {
    await server?.close();
  });

  const post = (body: string, headers: Record<string, string> = {}) => postQuoteForm(server.url, body, headers);

  const count = async () => (await server.store.leads.list({ spam: 'any' })).length;

  it('stores a request from the site’s own page and answers 303 to the thank-you page', async () => {
    const before = await count();
    const res = await post(FORM);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/get-quote/thank-you');
    expect(await count()).toBe(before + 1);
    const thanks = await fetch(`${server.url}/get-quote/thank-you`);
    expect(thanks.status).toBe(200);
    const html = await thanks.text();
    expect(html).toContain('Thank you, your request has arrived');
    expect(html).toContain('<meta name="robots" content="noindex, nofollow"/>');
  });

  it('refuses what a browser on this site would never send, stores nothing, and says why', async () => {
    const before = await count();
    const cases: Array<{ status: number; text: string; res: Promise<Response> }> = [
      { status: 403, text: "takes requests from this site's own pages only", res: post(FORM, { Origin: 'https://evil.example' }) },
      { status: 403, text: "takes requests from this site's own pages only", res: post(FORM, { 'Sec-Fetch-Site': 'cross-site' }) },
      { status: 415, text: 'Send the form as application/x-www-form-urlencoded or multipart/form-data', res: post(FORM, { 'Content-Type': 'application/json' }) },
      { status: 413, text: 'at most 16384 bytes', res: post(`${FORM}&additionalNotes=${'x'.repeat(20_000)}`) },
    ];
    for (const { status, text, res } of cases) {
      const answer = await res;
      expect(answer.status).toBe(status);
      expect(await answer.text()).toContain(text);
    }
    expect(await count()).toBe(before);
  });

  it('answers 405 with Allow for other methods, and POST on other pages stays 405', async () => {
    const put = await fetch(`${server.url}/get-quote`, { method: 'PUT', body: FORM });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
    const elsewhere = await fetch(`${server.url}/faq`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: FORM });
    expect(elsewhere.status).toBe(405);
    expect(elsewhere.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('links the form to the privacy policy’s section on quote requests, which gives the keeping times', async () => {
    const page = await (await fetch(`${server.url}/get-quote`)).text();
    expect(page).toContain('href="/legal/privacy-policy#quote-requests"');
    const policy = await (await fetch(`${server.url}/legal/privacy-policy`)).text();
    expect(policy).toContain('id="quote-requests"');
    expect(policy).toContain('Requests kept aside as suspected spam: deleted 30 days after they arrive.');
    expect(policy).toContain('deleted 7 years after their last change');
  });

  it('renders the page afresh every time (its form carries the time it was rendered) and tells caches not to keep it', async () => {
    const first = await fetch(`${server.url}/get-quote`);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await fetch(`${server.url}/get-quote`);
    expect(first.headers.get('cache-control')).toBe('no-store');
    const started = async (res: Response) => Number(/name="startedAt" value="(\d+)"/.exec(await res.text())?.[1]);
    const [a, b] = [await started(first), await started(second)];
    expect(b).toBeGreaterThan(a);
    // Other pages are still cached and revalidated.
    expect((await fetch(`${server.url}/faq`)).headers.get('cache-control')).toBe('no-cache');
  });
});

interface Running {
  child: ChildProcess;
  url: string;
  output: () => string;
}

/** `npm start` as a process on `dataDir`; resolves once it listens (rejects with its output if it exits first). */
function start(dataDir: string, env: Record<string, string>): Promise<Running> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/start.js'], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, NODE_ENV: 'production', SEED_DEMO_CONTENT: 'false', LEAD_MIN_FILL_SECONDS: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /Site and API on (http:\/\/\S+)/.exec(output)?.[1];
      if (url) resolve({ child, url, output: () => output });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening:\n${output}`)));
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

describe('npm start and the outbox', () => {
  const dataDir = makeTempDir('iul-leads-restart-');
  const sockets = new Set<net.Socket>();
  /** A mail server that accepts connections and never greets: the send hangs until the process dies. */
  const silent = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  let smtp: TestSmtpServer | undefined;
  const running: ChildProcess[] = [];

  afterAll(async () => {
    for (const child of running) child.kill('SIGKILL');
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
    await smtp?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('e-mails a request stored by a server killed before it could send it, once the next start is up', async () => {
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentPort = (silent.address() as AddressInfo).port;
    const first = await start(dataDir, { SMTP_URL: `smtp://127.0.0.1:${silentPort}`, LEAD_NOTIFY_TO: 'agents@example.com' });
    running.push(first.child);
    expect(first.output()).toContain('e-mailed to agents@example.com');

    const res = await postQuoteForm(first.url);
    expect(res.status).toBe(303);
    // The mail server has the connection and says nothing: the notification is in flight. Kill -9.
    await new Promise<void>((resolve, reject) => {
      const deadline = setTimeout(() => reject(new Error('the server never connected to the mail server')), 20_000);
      const check = () => (sockets.size > 0 ? (clearTimeout(deadline), resolve()) : setTimeout(check, 20));
      check();
    });
    first.child.kill('SIGKILL');
    await exited(first.child);

    smtp = await startSmtpServer();
    const second = await start(dataDir, { SMTP_URL: smtp.url, LEAD_NOTIFY_TO: 'agents@example.com' });
    running.push(second.child);
    // The outbox sends what was left before the server listens.
    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail?.subject).toContain('Jane Carter');
    expect(mail?.text).toContain('$12,000');
    second.child.kill('SIGTERM');
    await exited(second.child);

    const store = await openSqliteStore(dataDir);
    try {
      const [lead] = await store.leads.list();
      expect(lead?.name).toBe('Jane Carter');
      const [delivery] = await store.outbox.forLead(lead?.id ?? '');
      expect(delivery).toMatchObject({ channel: 'email' });
      expect(delivery?.sentAt).not.toBeNull();
    } finally {
      await store.close();
    }
  });

  it('says at start-up that requests are only stored when no delivery is set, and stops on a half-set one', async () => {
    const plain = await start(dataDir, {});
    running.push(plain.child);
    expect(plain.output()).toContain('Quote requests: stored only');
    plain.child.kill('SIGTERM');
    await exited(plain.child);

    const refused = await start(dataDir, { SMTP_URL: 'smtp://user:hunter2secret@127.0.0.1:2525' }).then(
      (up) => {
        running.push(up.child);
        throw new Error('the server started with SMTP_URL but no LEAD_NOTIFY_TO');
      },
      (error: Error) => error.message,
    );
    expect(refused).toContain('LEAD_NOTIFY_TO');
    expect(refused).not.toContain('hunter2secret');
  });
});
