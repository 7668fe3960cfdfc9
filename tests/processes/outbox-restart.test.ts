/**
 * The production command as a process, with the lead outbox: a quote request stored by a server killed
 * before it could send the e-mail is e-mailed by the next start, to a real SMTP server; the start-up
 * banner says where requests go, and a half-set delivery configuration stops the start with the fix.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../api/store/sql/sql-store';
import { makeTempDir, ROOT } from '../support/server';
import { postQuoteForm } from '../support/leads';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp';

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
