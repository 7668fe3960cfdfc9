/**
 * The moment a crash can fall in: a post made, its guid not yet noted as imported. The store is made
 * to fail right there once (as a killed process would stop); the next run finds the post by the slug
 * it noted before making it, notes it, and makes no second one.
 */
import path from 'node:path';
import { rmSync } from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { WordPressImport } from '../../api/import/wordpress/import';
import { readWxrChunks } from '../../api/import/wordpress/wxr';
import { createServices } from '../../api/services/services';
import type { Store } from '../../api/store/store';
import { makeTempDir } from '../support/server';
import { bigSite, buildWxr, OLD_SITE } from '../support/wxr-builder';
import { inStore } from './data-dir-store';

const work = makeTempDir('iul-wp-resume-');
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

it('a post made just before the import stopped is found again, not made twice', async () => {
  const site = bigSite(8);
  const wxr = await readWxrChunks([buildWxr(site.spec)]);
  const categoryMap = new Map([['*', 'uncategorized']]);
  const dataDir = path.join(work, 'data');
  await inStore(dataDir, async (store) => {
    let finishes = 0;
    const crashing: Store = {
      ...store,
      imports: {
        ...store.imports,
        item: (source, guid) => store.imports.item(source, guid),
        begin: (source, guid, slug, at) => store.imports.begin(source, guid, slug, at),
        addUrls: (urls) => store.imports.addUrls(urls),
        redirect: (key) => store.imports.redirect(key),
        finish: async (source, guid, postId, urls) => {
          if (++finishes === 3) throw new Error('the process stopped here');
          return store.imports.finish(source, guid, postId, urls);
        },
      },
    };
    const first = await new WordPressImport(createServices(crashing), wxr, { categoryMap }).run();
    expect(first.failed).toEqual([expect.objectContaining({ reason: 'the process stopped here' })]);
    const stopped = first.failed[0]?.guid ?? '';
    expect(await store.imports.item('wordpress', stopped)).toMatchObject({ state: 'pending' });

    const second = await new WordPressImport(createServices(store), wxr, { categoryMap }).run();
    expect(second.failed).toEqual([]);
    expect(second.imported).toEqual([expect.objectContaining({ guid: stopped, resumed: true })]);
    expect(await store.imports.item('wordpress', stopped)).toMatchObject({ state: 'done' });
    const all = await store.posts.list({ status: 'any', limit: 100 });
    expect(all.total).toBe(first.imported.length + 1);
    expect(new Set(all.entries.map((post) => post.title)).size).toBe(all.total);
    // Its old addresses were noted with it.
    const post = all.entries.find((entry) => entry.title === first.failed[0]?.title);
    expect(await store.imports.redirect(`/?p=${stopped.split('=')[1]}`)).toEqual({ path: `/?p=${stopped.split('=')[1]}`, postId: post?.id });
  });
});

it('a slug noted for a post that was never made, and taken by another post since, is not adopted: the post gets a free slug', async () => {
  const site = bigSite(3);
  const wxr = await readWxrChunks([buildWxr(site.spec)]);
  const dataDir = path.join(work, 'taken');
  await inStore(dataDir, async (store) => {
    const [first] = site.spec.posts;
    if (!first) throw new Error('no post');
    const guid = `${OLD_SITE}/?p=${first.id}`;
    // A run stopped after noting the slug, before making the post; then an author took the slug.
    await store.imports.begin('wordpress', guid, first.slug, '2026-01-01T00:00:00.000Z');
    const services = createServices(store);
    const other = await services.posts.create({ data: { title: 'Somebody else', content: '<p>Theirs.</p>', excerpt: 'Theirs.', category: 'uncategorized', status: 'published', author: { name: 'Someone' }, slug: first.slug }, ignoredFields: [] }, { kind: 'staff', email: 'editor@example.com', ip: '127.0.0.1' });
    const report = await new WordPressImport(services, wxr, { categoryMap: new Map([['*', 'uncategorized']]) }).run();
    expect(report.failed).toEqual([]);
    const mine = report.imported.find((post) => post.guid === guid);
    expect(mine).toMatchObject({ slug: `${first.slug}-wp${first.id}` });
    expect(mine).not.toHaveProperty('resumed');
    expect((await store.posts.getBySlug(first.slug))?.id).toBe(other.post.id);
    expect((await store.posts.getBySlug(first.slug))?.title).toBe('Somebody else');
  });
});
