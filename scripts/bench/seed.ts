/**
 * Fills a store for the benchmark, run as a child process; prints one JSON line with what it made.
 * - `seed.ts posts <target> <count>`: `count` varied posts (payloads.ts), each checked by the contract's
 *   schema and cleaned by `cleanPost`, written straight into the database in one transaction
 *   (seed-rows.ts); the demo key marked issued, as on any install past its first start.
 * - `seed.ts leads <target> <count>`: a staff account (through the store, as `blogpost staff add` makes
 *   it) and `count` quote requests with their notifications, written the same way.
 * `<target>` is a data directory (its SQLite store) or a `postgres://` URL of an empty database. The store
 * is opened through the seam first, so its migrations are applied as a server would apply them, and
 * again at the end, to read back what a server will find.
 */
import { loadSiteConfig } from '../../contract/site-config-env';
import { issueDemoKey } from '../../api/services/demo-key';
import { createServices } from '../../api/services/services';
import { BENCH_STAFF, insertBenchLeads, insertBenchPosts } from './seed-rows';
import { openBenchStore } from './stores';

async function seedPosts(target: string, count: number): Promise<Record<string, unknown>> {
  const before = await openBenchStore(target);
  await issueDemoKey(createServices(before), loadSiteConfig({}));
  await before.close();
  await insertBenchPosts(target, count);
  const store = await openBenchStore(target);
  try {
    const { entries, total } = await store.posts.list({ status: 'published', limit: 1 });
    const newest = entries[0];
    return { published: total, newestSlug: newest?.slug ?? '', newestCategory: newest?.categorySlug ?? '' };
  } finally {
    await store.close();
  }
}

async function seedLeads(target: string, count: number): Promise<Record<string, unknown>> {
  const before = await openBenchStore(target);
  await createServices(before).staff.add({ email: BENCH_STAFF.email, name: BENCH_STAFF.name, password: BENCH_STAFF.password }, 'cli:bench');
  await before.close();
  await insertBenchLeads(target, count);
  return {};
}

const [kind, target, count] = process.argv.slice(2);
if ((kind !== 'posts' && kind !== 'leads') || target === undefined || !Number.isInteger(Number(count))) {
  throw new Error('usage: seed.ts posts|leads <dataDir|postgres-url> <count>');
}
const started = performance.now();
const made = kind === 'posts' ? await seedPosts(target, Number(count)) : await seedLeads(target, Number(count));
process.stdout.write(`${JSON.stringify({ count: Number(count), seconds: (performance.now() - started) / 1000, ...made })}\n`);
