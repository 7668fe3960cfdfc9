/**
 * The listener over real sockets: an idle connection is kept longer than a proxy keeps its own (so the
 * proxy, not the server, closes it), and a stop closes a busy connection as soon as its answer is sent
 * instead of keeping it idle for that long.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { prepareListener, stopListening } from './listener';

let server: http.Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
});

/** A server that answers at once, except `/held`, answered when the test releases it. */
async function listen(): Promise<{ url: string; arrived: Promise<void>; release: () => void; server: http.Server }> {
  let release = () => {};
  let arrive = () => {};
  const waiting = new Promise<void>((resolve) => (release = resolve));
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const made = http.createServer((request, response) => {
    if (request.url !== '/held') return void response.end('answered');
    arrive();
    void waiting.then(() => response.end('answered after a wait'));
  });
  prepareListener(made);
  server = made;
  await new Promise<void>((resolve) => made.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(made.address() as AddressInfo).port}`, arrived, release, server: made };
}

function get(url: string, agent: http.Agent): Promise<{ body: string; keepAlive: string | undefined; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ body, keepAlive: response.headers['keep-alive']?.toString(), socket }));
    });
    let socket: Socket;
    request.once('socket', (assigned) => (socket = assigned));
    request.on('error', reject);
  });
}

const closed = (socket: Socket) => new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve())));

it('keeps an idle connection 65 s, longer than nginx and load balancers keep theirs (60 s), and says so', async () => {
  const { url } = await listen();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const first = await get(`${url}/`, agent);
  const second = await get(`${url}/`, agent);
  expect(first.keepAlive).toBe('timeout=65');
  expect(second.socket).toBe(first.socket);
  agent.destroy();
});

it('on a stop, closes idle connections at once and a busy one right after its answer', async () => {
  const { url, arrived, release, server: listening } = await listen();
  const idleAgent = new http.Agent({ keepAlive: true });
  const busyAgent = new http.Agent({ keepAlive: true });
  const idle = await get(`${url}/`, idleAgent);
  const busy = get(`${url}/held`, busyAgent);
  await arrived;
  const stopped = stopListening(listening);
  await closed(idle.socket);
  release();
  const answer = await busy;
  expect(answer.body).toBe('answered after a wait');
  // Without closing the busy connection once answered, this waits the 65 s of keep-alive (and times out).
  await stopped;
  await closed(answer.socket);
  idleAgent.destroy();
  busyAgent.destroy();
});
