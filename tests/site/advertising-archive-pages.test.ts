/**
 * The marketing pages in the advertising archive as the real server renders them (decision 0028): at a
 * first start every page is recorded with its content; a second start with nothing changed records
 * nothing (the rendered content carries no per-render token or nonce that would look like a change);
 * the legal documents the legal index links to are recorded too.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { archiveSitePages, ownPages } from '../../api/services/page-archive';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, 120_000);
afterAll(() => server.close());

it('records every marketing page once, and nothing at a second start when nothing changed', async () => {
  const start = () => archiveSitePages({ fetchPage: ownPages(server.url), archive: server.store.archive, config: server.services.settings.config, now: () => new Date() });
  const first = await start();
  expect(first.failed).toEqual([]);
  expect(first.recorded).toEqual(expect.arrayContaining(['/', '/faq', '/about-us', '/legal', '/legal/privacy-policy']));
  expect(first.recorded.length).toBeGreaterThanOrEqual(7);
  const faq = (await server.store.archive.list({ subject: '/faq' }))[0];
  expect(faq).toMatchObject({ kind: 'page', event: 'page_changed', liveTo: null });
  expect(faq?.html.startsWith('<main')).toBe(true);
  expect(faq?.text.length).toBeGreaterThan(500);

  const second = await start();
  expect(second.recorded).toEqual([]);
  expect(second.unchanged.sort()).toEqual(first.recorded.sort());
});
