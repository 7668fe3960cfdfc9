/**
 * Preparing bodies on the prepare thread gives exactly what preparing them on the event loop gives,
 * and the preparer picks the thread when it should and copes when the thread cannot help.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SAMPLE_POST } from '../../harness/sample-post';
import { removeWorkerScripts, workerScript } from '../../tests/support/worker-script';
import { prepareCreate } from './prepare';
import { BUSY_PER_SECOND, LARGE_BODY_CHARS, MAX_FAILED_STARTS, PostPreparer, type PreparerOptions } from './prepare-thread';

const preparers: PostPreparer[] = [];
function preparer(options: PreparerOptions): PostPreparer {
  const created = new PostPreparer(options);
  preparers.push(created);
  return created;
}
afterEach(async () => {
  await Promise.all(preparers.splice(0).map((p) => p.close()));
  removeWorkerScripts();
});

const text = (body: unknown) => JSON.stringify(body);

/**
 * Bodies as integrators send them: the sample post with some fields changed, to markup where it does
 * not belong, markup that leaves nothing, wrong types and aliases; now and then serialised twice.
 */
const fragment = fc.constantFrom('<p>', '</p>', '<b>x</b>', '<script>1</script>', '<img src="javascript:x">', '<!-- c -->', 'text', ' ', '&amp;', '<a href="https://x.example" target="_blank">l</a>');
const markup = fc.array(fragment, { minLength: 1, maxLength: 6 }).map((parts) => parts.join(''));
/** Mostly a valid change, now and then an invalid one. */
const mostly = <T, U>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<U>) => fc.oneof({ weight: 12, arbitrary: valid }, { weight: 1, arbitrary: invalid });
const changes = fc.record(
  {
    title: mostly(markup.map((m) => `A title ${m}`), fc.constantFrom('<b></b>', null)),
    content: mostly(markup.map((m) => `<p>Kept</p>${m}`), fc.constantFrom('<script>alert(1)</script>', '<p> </p>', 42)),
    excerpt: mostly(markup.map((m) => `An excerpt ${m}`), markup),
    category: fc.constantFrom('IUL Strategies', 'iul-strategies', 'Something else'),
    tags: mostly(fc.oneof(fc.array(markup, { maxLength: 4 }), fc.constant('a, b,,c')), fc.constant(7)),
    status: mostly(fc.constantFrom('Draft', 'published', 'PUBLISHED'), fc.constant('live')),
    author: mostly(fc.record({ name: markup.map((m) => `Jane ${m}`), bio: fc.option(markup) }), fc.constant('Jane')),
    body: fc.string({ maxLength: 5 }),
  },
  { requiredKeys: [] },
);
const body = changes.map((changed) => ({ ...SAMPLE_POST, ...changed }));
const request = fc.record({
  text: fc.oneof({ weight: 9, arbitrary: body.map(text) }, { weight: 1, arbitrary: body.map((b) => text(text(b))) }),
  keyId: fc.option(fc.constantFrom('key_a', 'key_b')),
});

describe('PostPreparer', () => {
  it('answers on the thread exactly as on the event loop, for any body', async () => {
    const onThread = preparer({ thread: 'always' });
    await fc.assert(
      fc.asyncProperty(request, async (req) => {
        expect(await onThread.prepare(req)).toEqual(prepareCreate(req));
      }),
      { numRuns: 300 },
    );
    expect(onThread.onThread).toBe(true);
  });

  it('prepares a few small bodies on the event loop, and moves to the thread once they keep coming', async () => {
    const auto = preparer({ thread: 'auto' });
    const sample = { text: text(SAMPLE_POST), keyId: 'key_a' };
    for (let i = 1; i < BUSY_PER_SECOND; i++) expect(await auto.prepare(sample)).toEqual(prepareCreate(sample));
    expect(auto.onThread).toBe(false);
    await auto.prepare(sample);
    await vi.waitFor(() => expect(auto.onThread).toBe(true), { timeout: 10_000 });
    expect(await auto.prepare(sample)).toEqual(prepareCreate(sample));
  });

  it('sends a large body to the thread even on an idle server', async () => {
    const auto = preparer({ thread: 'auto' });
    const paragraph = '<p>Indexed universal life with <a href="https://example.com">a link</a> and <b>bold</b> text.</p>';
    const large = { text: text({ ...SAMPLE_POST, content: paragraph.repeat(Math.ceil(LARGE_BODY_CHARS / paragraph.length)) }), keyId: null };
    expect(large.text.length).toBeGreaterThanOrEqual(LARGE_BODY_CHARS);
    const outcome = await auto.prepare(large);
    expect(auto.onThread).toBe(true);
    expect(outcome).toEqual(prepareCreate(large));
    expect(outcome.ok).toBe(true);
  });

  it('prepares on the event loop when the thread cannot start, and stops trying after a few starts', async () => {
    const broken = preparer({ thread: 'always', workerUrl: workerScript(`throw new Error('cannot load');`) });
    const sample = { text: text(SAMPLE_POST), keyId: null };
    for (let i = 0; i < MAX_FAILED_STARTS + 2; i++) expect(await broken.prepare(sample)).toEqual(prepareCreate(sample));
    expect(broken.threadBroken).toBe(true);
    expect(broken.onThread).toBe(false);
  });

  it('prepares a body on the event loop when the thread could not', async () => {
    const failing = preparer({
      thread: 'always',
      workerUrl: workerScript(`parentPort.on('message', ({ requests }) => parentPort.postMessage({ replies: requests.map(({ id }) => ({ id, error: 'out of memory' })) }));
parentPort.postMessage({ ready: true });`),
    });
    const sample = { text: text(SAMPLE_POST), keyId: 'key_a' };
    const outcome = await failing.prepare(sample);
    expect(outcome).toEqual(prepareCreate(sample));
    expect(outcome.ok).toBe(true);
    expect(failing.threadBroken).toBe(false);
  });
});
