/**
 * What imports from WordPress remember (decision 0029), the same on SQLite and PostgreSQL:
 * `imported_items` (each export item by its guid: pending while its post is made, then done) and
 * `imported_urls` (old addresses and where they answer now).
 */
import type { ImportedItem, ImportedItemRecord, ImportedUrl, ImportRepository } from '../store';
import type { SqlDatabase, Tx } from './database';

function urlRow(url: ImportedUrl): { path: string; post_id: string | null; target: string | null } {
  return { path: url.path, post_id: url.postId ?? null, target: url.target ?? null };
}

async function insertUrls(tx: Tx, urls: readonly ImportedUrl[]): Promise<void> {
  for (const url of urls) {
    await tx.insertInto('imported_urls').values(urlRow(url)).onConflict((conflict) => conflict.column('path').doNothing()).execute();
  }
}

export class SqlImportRepository implements ImportRepository {
  readonly #database: SqlDatabase;

  constructor(database: SqlDatabase) {
    this.#database = database;
  }

  async item(source: string, guid: string): Promise<ImportedItem | null> {
    const row = await this.#database.read('read an imported item', (db) => db.selectFrom('imported_items').selectAll().where('source', '=', source).where('guid', '=', guid).executeTakeFirst());
    if (!row) return null;
    return { source: row.source, guid: row.guid, state: row.state === 'done' ? 'done' : 'pending', slug: row.slug, postId: row.post_id };
  }

  async begin(source: string, guid: string, slug: string, at: string): Promise<void> {
    await this.#database.write('note an item being imported', async (tx) => {
      await tx
        .insertInto('imported_items')
        .values({ source, guid, state: 'pending', slug, post_id: null, at })
        .onConflict((conflict) => conflict.columns(['source', 'guid']).doUpdateSet({ slug, at }))
        .execute();
    });
  }

  async finish(source: string, guid: string, postId: string, urls: readonly ImportedUrl[]): Promise<void> {
    await this.#database.write('note an imported item', async (tx) => {
      await tx.updateTable('imported_items').set({ state: 'done', post_id: postId }).where('source', '=', source).where('guid', '=', guid).execute();
      await insertUrls(tx, urls);
    });
  }

  async addUrls(urls: readonly ImportedUrl[]): Promise<void> {
    if (urls.length === 0) return;
    await this.#database.write('note old addresses', (tx) => insertUrls(tx, urls));
  }

  async everything(): Promise<{ items: ImportedItemRecord[]; urls: ImportedUrl[] }> {
    return this.#database.read('read the imports', async (db) => {
      const items = await db.selectFrom('imported_items').selectAll().orderBy('source').orderBy('guid').execute();
      const urls = await db.selectFrom('imported_urls').selectAll().orderBy('path').execute();
      return {
        items: items.map((row) => ({ source: row.source, guid: row.guid, state: row.state === 'done' ? 'done' : 'pending', slug: row.slug, postId: row.post_id, at: row.at })),
        urls: urls.flatMap((row): ImportedUrl[] => (row.post_id ? [{ path: row.path, postId: row.post_id }] : row.target ? [{ path: row.path, target: row.target }] : [])),
      };
    });
  }

  async restore(everything: { items: readonly ImportedItemRecord[]; urls: readonly ImportedUrl[] }): Promise<void> {
    await this.#database.write('restore the imports', async (tx) => {
      for (const item of everything.items) {
        await tx.insertInto('imported_items').values({ source: item.source, guid: item.guid, state: item.state, slug: item.slug, post_id: item.postId, at: item.at }).execute();
      }
      await insertUrls(tx, everything.urls);
    });
  }

  async redirect(path: string): Promise<ImportedUrl | null> {
    const row = await this.#database.read('read an old address', (db) => db.selectFrom('imported_urls').selectAll().where('path', '=', path).executeTakeFirst());
    if (!row) return null;
    if (row.post_id) return { path: row.path, postId: row.post_id };
    return row.target ? { path: row.path, target: row.target } : null;
  }
}
