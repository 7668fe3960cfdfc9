/** The write queue: a bounded number of writes at once, started in order, each settling on its own. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WriteQueue } from './write-queue';

interface Gate {
  promise: Promise<void>;
  open: () => void;
  fail: (error: Error) => void;
}

function gate(): Gate {
  let open!: () => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('WriteQueue', () => {
  it('runs up to its limit at once and starts the rest in submission order as writes end', async () => {
    const queue = new WriteQueue(2);
    const gates = [gate(), gate(), gate(), gate()];
    const started: number[] = [];
    const results = gates.map((g, i) =>
      queue.run(async () => {
        started.push(i);
        await g.promise;
        return i;
      }),
    );
    expect(started).toEqual([0, 1]); // the first writes start at once, before anything is awaited
    gates[1]?.open();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    gates[0]?.open();
    gates[2]?.open();
    gates[3]?.open();
    expect(await Promise.all(results)).toEqual([0, 1, 2, 3]);
    expect(started).toEqual([0, 1, 2, 3]);
  });

  it('fails only the write that failed; the others finish and the queue goes on', async () => {
    const queue = new WriteQueue(1);
    const first = queue.run(() => Promise.reject(new Error('disk full')));
    const thrown = queue.run(() => {
      throw new Error('thrown before any promise');
    });
    const second = queue.run(() => Promise.resolve('written'));
    await expect(first).rejects.toThrow('disk full');
    await expect(thrown).rejects.toThrow('thrown before any promise');
    await expect(second).resolves.toBe('written');
    await expect(queue.run(() => Promise.resolve('later'))).resolves.toBe('later');
    expect(queue.pending).toBe(0);
  });

  it('idle() waits for every write submitted so far, failed ones included', async () => {
    const queue = new WriteQueue(3);
    const slow = gate();
    const failing = gate();
    const done: string[] = [];
    void queue.run(async () => {
      await slow.promise;
      done.push('slow');
    });
    queue.run(() => failing.promise).catch(() => done.push('failed'));
    let idle = false;
    const waiting = queue.idle().then(() => (idle = true));
    failing.fail(new Error('no space'));
    await tick();
    expect(idle).toBe(false);
    slow.open();
    await waiting;
    expect(done).toEqual(['failed', 'slow']);
    await expect(new WriteQueue(1).idle()).resolves.toBeUndefined();
  });

  it('refuses a limit below one', () => {
    expect(() => new WriteQueue(0)).toThrow(RangeError);
    expect(() => new WriteQueue(1.5)).toThrow(RangeError);
  });

  it('for any mix of durations and failures: never over the limit, starts in order, each write settles as itself', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.record({ delay: fc.integer({ min: 0, max: 3 }), fails: fc.boolean() }), { maxLength: 25 }),
        async (limit, writes) => {
          const queue = new WriteQueue(limit);
          let running = 0;
          let most = 0;
          const started: number[] = [];
          const outcomes = writes.map((write, i) =>
            queue
              .run(async () => {
                started.push(i);
                running += 1;
                most = Math.max(most, running);
                for (let n = 0; n < write.delay; n++) await tick();
                running -= 1;
                if (write.fails) throw new Error(`write ${i} failed`);
                return i;
              })
              .then(
                (value) => ({ ok: true, value }),
                (error: unknown) => ({ ok: false, value: (error as Error).message }),
              ),
          );
          const settled = await Promise.all(outcomes);
          expect(most).toBeLessThanOrEqual(limit);
          expect(started).toEqual(writes.map((_, i) => i));
          expect(settled).toEqual(writes.map((write, i) => (write.fails ? { ok: false, value: `write ${i} failed` } : { ok: true, value: i })));
          expect(queue.pending).toBe(0);
        },
      ),
      { numRuns: 60 },
    );
  });
});
