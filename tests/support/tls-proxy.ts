/**
 * nginx from Debian terminating TLS in front of app servers, as docs/deployment.md ("Behind a proxy")
 * tells an operator to run it: the configuration is that document's ```nginx block, read from the file,
 * with only the lines that name this machine's ports and certificate replaced, inside the few lines a
 * whole nginx.conf needs (pid, logs and temporary files in the test's folder). nginx runs as the test's
 * child in the foreground, on 127.0.0.1, with a self-signed certificate made by `openssl`; clients reach
 * it with `proxyAgent` (which accepts that certificate and can connect from any 127.x.y.z address, so
 * each plays a visitor of its own).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Agent } from 'undici';
import { ROOT } from './server';

export const NGINX_PATH = '/usr/sbin/nginx';

export interface Certificate {
  cert: string;
  key: string;
}

/** A self-signed certificate for 127.0.0.1 (RSA 2048, a day), written into `dir`. */
export function makeCertificate(dir: string): Certificate {
  const cert = path.join(dir, 'proxy.crt');
  const key = path.join(dir, 'proxy.key');
  execFileSync('/usr/bin/openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-days', '1', '-keyout', key, '-out', cert], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return { cert, key };
}

/** The ```nginx block of docs/deployment.md, as an operator copies it. */
export function documentedNginxBlock(): string {
  const doc = readFileSync(path.join(ROOT, 'docs/deployment.md'), 'utf8');
  const blocks = [...doc.matchAll(/^```nginx\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '');
  if (blocks.length !== 1) throw new Error(`docs/deployment.md should hold one \`\`\`nginx block, it holds ${blocks.length}`);
  return blocks[0] ?? '';
}

/** Replaces the one line of `block` that `pattern` matches (keeping its indentation), or fails saying the document changed. */
function replaceLine(block: string, pattern: RegExp, line: string): string {
  const matches = block.match(new RegExp(pattern.source, 'gm')) ?? [];
  if (matches.length !== 1) throw new Error(`docs/deployment.md's nginx block should have one line matching ${String(pattern)}, it has ${matches.length}`);
  return block.replace(new RegExp(pattern.source, 'm'), (found) => `${/^\s*/.exec(found)?.[0] ?? ''}${line}`);
}

/**
 * The documented block for this machine: its two upstream servers are `upstreams` (give one port twice
 * for a single server), it listens on 127.0.0.1:`port`, with `certificate`. Nothing else changes.
 */
export function rehearsalNginxBlock(upstreams: readonly [number, number], port: number, certificate: Certificate): string {
  let block = documentedNginxBlock();
  block = replaceLine(block, /^\s*server 127\.0\.0\.1:3000;.*$/, `server 127.0.0.1:${upstreams[0]};`);
  block = replaceLine(block, /^\s*server 127\.0\.0\.1:3001;.*$/, `server 127.0.0.1:${upstreams[1]};`);
  block = replaceLine(block, /^\s*listen 443 ssl;.*$/, `listen 127.0.0.1:${port} ssl;`);
  block = replaceLine(block, /^\s*ssl_certificate \/etc\/ssl\/\S+;.*$/, `ssl_certificate ${certificate.cert};`);
  block = replaceLine(block, /^\s*ssl_certificate_key \/etc\/ssl\/\S+;.*$/, `ssl_certificate_key ${certificate.key};`);
  return block;
}


export interface Nginx {
  child: ChildProcess;
  /** `https://127.0.0.1:<port>`. */
  url: string;
  /** The access log so far: one line per request, `<msec> <client> "<request>" <status> <upstream> <upstream status>`. */
  accessLog: () => string;
  /** What nginx wrote to its error log and its own output. */
  errors: () => string;
  stop: () => Promise<void>;
}

/** One access log line, as `accessLog` gives it. */
export interface AccessEntry {
  at: number;
  client: string;
  request: string;
  status: number;
  upstream: string;
  upstreamStatus: string;
}

export function parseAccessLog(text: string): AccessEntry[] {
  return text
    .split('\n')
    .map((line) => /^(\S+) (\S+) "([^"]*)" (\d+) (\S+) (\S+)$/.exec(line))
    .filter((match) => match !== null)
    .map(([, at = '0', client = '', request = '', status = '0', upstream = '', upstreamStatus = '']) => ({
      at: Number(at) * 1000,
      client,
      request,
      status: Number(status),
      upstream,
      upstreamStatus,
    }));
}

/** Resolves when something accepts connections on 127.0.0.1:`port`, rejects if `child` exits first or after 20 s. */
async function listening(port: number, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`nginx exited (${String(child.exitCode ?? child.signalCode)}):\n${output()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nginx did not listen on ${port} in time:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Starts nginx in the foreground with `block` (from rehearsalNginxBlock) inside a minimal nginx.conf in
 * `dir`, listening on `port`; resolves once it accepts connections. Nothing of /etc/nginx is read, so
 * a default nginx already running on the machine (port 80) does not matter.
 */
export async function startNginx(dir: string, port: number, block: string): Promise<Nginx> {
  if (!existsSync(NGINX_PATH)) throw new Error(`nginx was not found at ${NGINX_PATH}. Install it with: sudo apt-get update && sudo apt-get install -y nginx (.ci/run does).`);
  // The workers run as `nobody` when the master is root: they write request bodies under this folder
  // (its parent must let them through: mode 0711 or more).
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o755);
  const file = (name: string) => path.join(dir, name);
  const conf = [
    '# The rehearsal: what a whole nginx.conf needs around the documented block (not part of it).',
    'worker_processes 1;',
    `pid ${file('nginx.pid')};`,
    `error_log ${file('error.log')} warn;`,
    'events { worker_connections 1024; }',
    'http {',
    `    log_format rehearsal '$msec $remote_addr "$request" $status $upstream_addr $upstream_status';`,
    `    access_log ${file('access.log')} rehearsal;`,
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `    ${kind}_temp_path ${file(`${kind}_temp`)};`),
    block,
    '}',
    '',
  ].join('\n');
  writeFileSync(file('nginx.conf'), conf);
  const child = spawn(NGINX_PATH, ['-c', file('nginx.conf'), '-p', dir, '-e', file('error.log'), '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const read = (name: string) => {
    try {
      return readFileSync(file(name), 'utf8');
    } catch {
      return '';
    }
  };
  const errors = () => `${output}${read('error.log')}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    // SIGQUIT: nginx's graceful stop; its workers end with it.
    child.kill('SIGQUIT');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await listening(port, child, errors);
  } catch (error) {
    await stop();
    throw error;
  }
  return { child, url: `https://127.0.0.1:${port}`, accessLog: () => read('access.log'), errors, stop };
}

/**
 * An HTTP agent for undici's `fetch` (its `dispatcher`) that trusts the test's self-signed certificate
 * and connects from `localAddress` (any 127.x.y.z: the loopback network is all this machine's), so
 * nginx sees a visitor of that address.
 */
export function proxyAgent(localAddress = '127.0.0.1'): Agent {
  return new Agent({ localAddress, connect: { rejectUnauthorized: false } });
}
