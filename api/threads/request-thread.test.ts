/** The request thread with small worker scripts: batching per turn, answers and errors, readiness, failures. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { removeWorkerScripts, workerScript as script } from '../../tests/support/worker-script';
import { RequestThread } from './request-thread';

const threads: Array<RequestThread<unknown, unknown>> = [];

function thread<Request, Result>(url: URL, idleMs?: number): RequestThread<Request, Result> {
  const created = new RequestThread<Request, Result>(url, idleMs === undefined ? {} : { idleMs });
  threads.push(created as RequestThread<unknown, unknown>);
  return created;
}

afterEach(async () => {
  await Promise.all(threads.splice(0).map((t) => t.close()));
  removeWorkerScripts();
});

/** Answers each request with itself and the size of the message it came in. */
const ECHO = `parentPort.on('message', ({ requests }) => parentPort.postMessage({
  replies: requests.map(({ id, request }) => request === 'bad' ? { id, error: 'cannot do ' + request } : { id, result: { request, batch: requests.length } }),
}));`;

describe('RequestThread', () => {
  it('sends the requests of one turn in one message, and settles each with its own answer', async () => {
    const echo = thread<string, { request: string; batch: number }>(script(ECHO));
    const answers = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((request) => echo.ask(request)));
    expect(answers).toEqual(['a', 'b', 'c', 'd', 'e'].map((request) => ({ request, batch: 5 })));
    expect(await echo.ask('f')).toEqual({ request: 'f', batch: 1 });
  });

  it('rejects only the request the thread could not answer', async () => {
    const echo = thread<string, { request: string; batch: number }>(script(ECHO));
    const settled = await Promise.allSettled([echo.ask('ok'), echo.ask('bad'), echo.ask('fine')]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(settled[1]).toMatchObject({ reason: new Error('cannot do bad') });
    expect(echo.running).toBe(true);
  });

  it('fails the one request whose data cannot reach the thread, and sends the rest', async () => {
    const echo = thread<unknown, { request: unknown; batch: number }>(script(ECHO));
    const settled = await Promise.allSettled([echo.ask('a'), echo.ask(() => 'a function cannot be copied'), echo.ask('b')]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(settled[0]).toMatchObject({ value: { request: 'a', batch: 1 } });
  });

  it('is ready once its script says so, and warm() starts it without a request', async () => {
    const late = thread<string, string>(script(`parentPort.on('message', () => {});
setTimeout(() => parentPort.postMessage({ ready: true }), 100);`));
    expect(late.running).toBe(false);
    late.warm();
    expect(late.running).toBe(true);
    expect(late.ready).toBe(false);
    await vi.waitFor(() => expect(late.ready).toBe(true), { timeout: 5_000 });
    expect(late.failedStarts).toBe(0);
  });

  it('counts threads that die before they are ready, and starts a new one for the next request', async () => {
    const broken = thread<string, string>(script(`throw new Error('this script cannot load');`));
    await expect(broken.ask('a')).rejects.toThrow('this script cannot load');
    expect(broken.running).toBe(false);
    expect(broken.failedStarts).toBe(1);
    await expect(broken.ask('b')).rejects.toThrow('this script cannot load');
    expect(broken.failedStarts).toBe(2);
  });

  it('stops when idle after being warmed, and starts again for the next request', async () => {
    const echo = thread<string, { request: string; batch: number }>(script(ECHO), 20);
    echo.warm();
    expect(echo.running).toBe(true);
    await vi.waitFor(() => expect(echo.running).toBe(false), { timeout: 5_000 });
    expect(await echo.ask('again')).toEqual({ request: 'again', batch: 1 });
  });

  it('is not stopped while requests keep coming, and stops once none has come for its idle time', async () => {
    const echo = thread<string, { request: string; batch: number }>(script(ECHO), 150);
    const started = Date.now();
    let lastAnswer = started;
    // Requests for twice the idle time, each after the last was answered: the thread idles often, never for long.
    while (Date.now() - started < 300) {
      expect(await echo.ask('busy')).toEqual({ request: 'busy', batch: 1 });
      lastAnswer = Date.now();
      expect(echo.running).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await vi.waitFor(() => expect(echo.running).toBe(false), { timeout: 5_000, interval: 5 });
    expect(Date.now() - lastAnswer).toBeGreaterThanOrEqual(140);
  });
});
