/**
 * A page whose loader meets a fault of the code (not a store refusal, which has its own 503 and 507
 * pages): the visitor gets the site's 500 page, and the server's log, not the bare console, gets the
 * failure with the page, the request id the visitor's answer carries, and the stack to find it by.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { withMember } from '../support/failing';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let faulty = false;

beforeAll(async () => {
  server = await startTestServer({
    wrapStore: (store) => {
      const posts = withMember(store.posts, 'list', (...args: Parameters<typeof store.posts.list>) =>
        faulty ? Promise.reject(new TypeError('Cannot read properties of undefined (reading "slug")')) : store.posts.list(...args),
      );
      return withMember(store, 'posts', posts);
    },
  });
});
afterAll(async () => {
  faulty = false;
  await server?.close();
});

it('logs a loader’s fault in the server log with the page and the request id, and answers 500', async () => {
  faulty = true;
  const answer = await fetch(`${server.url}/blog?page-fault-test`);
  expect(answer.status).toBe(500);
  await answer.text();
  const requestId = answer.headers.get('x-request-id') ?? '';
  expect(requestId).not.toBe('');
  const logged = server.logs.filter((line) => line.includes('page-fault') || line.includes('/blog failed'));
  expect(logged).toHaveLength(1);
  expect(logged[0]).toContain(`GET /blog failed while rendering (request ${requestId})`);
  expect(logged[0]).toContain('TypeError: Cannot read properties of undefined (reading "slug")');
  faulty = false;
  expect((await fetch(`${server.url}/blog`)).status).toBe(200);
});
