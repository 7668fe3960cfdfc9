/**
 * The demo articles of a fresh install (fixtures/posts/<category>/*.md): parsed with the same code as
 * `blogpost publish`, checked with the API's schema, and stored oldest first with their own dates.
 * Never loads on top of existing posts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { checkCreatePostBody, type CreatePostData } from '../../contract/blog';
import { ApiError } from '../../contract/errors';
import { parsePostFile } from '../authoring/post-file';
import { PROJECT_ROOT } from '../project-root';
import { SITE_ACTOR } from '../services/actors';
import type { PostService } from '../services/post-service';
import { createServices } from '../services/services';
import type { Store } from '../store/store';

export const DEMO_POSTS_DIR = path.join(PROJECT_ROOT, 'fixtures/posts');

export interface DemoPost {
  file: string;
  data: CreatePostData;
  ignoredFields: string[];
  publishedAt: Date;
}

export class DemoContentError extends Error {
  override name = 'DemoContentError';
}

export function loadDemoPosts(dir: string = DEMO_POSTS_DIR): DemoPost[] {
  const posts: DemoPost[] = [];
  for (const category of readdirSync(dir).sort()) {
    const folder = path.join(dir, category);
    for (const name of readdirSync(folder).filter((n) => n.endsWith('.md')).sort()) {
      const file = path.join(folder, name);
      const parsed = parsePostFile(readFileSync(file, 'utf8'), { fileName: file });
      const check = checkCreatePostBody(parsed.payload);
      if (!check.ok) {
        const why = check.reason === 'invalid' ? check.problems.map((p) => `${p.field}: ${p.message}`).join('; ') : check.reason;
        throw new DemoContentError(`Demo post ${path.relative(dir, file)} is invalid: ${why}`);
      }
      const publishedAt = new Date(parsed.publishedAt ?? '');
      if (Number.isNaN(publishedAt.getTime())) throw new DemoContentError(`Demo post ${path.relative(dir, file)} has no valid publishedAt.`);
      posts.push({ file, data: check.data, ignoredFields: check.ignoredFields, publishedAt });
    }
  }
  return posts.sort((a, b) => a.publishedAt.getTime() - b.publishedAt.getTime());
}

export type SeedOutcome = { seeded: true; count: number } | { seeded: false; reason: string };

/**
 * Stores the demo posts, with their own dates, in a store that holds no posts yet, through the post
 * service (`posts`: the server's; the CLI, which has no server, gets one built for the store).
 */
export async function seedDemoPosts(store: Store, posts: PostService = createServices(store).posts, dir: string = DEMO_POSTS_DIR): Promise<SeedOutcome> {
  const demo = loadDemoPosts(dir);
  const counts = await store.posts.counts();
  if (counts.published + counts.drafts > 0) {
    return { seeded: false, reason: `the data directory already holds ${counts.published + counts.drafts} posts; demo content is never loaded on top of existing posts` };
  }
  for (const post of demo) {
    try {
      await posts.create({ data: post.data, ignoredFields: post.ignoredFields }, SITE_ACTOR, { at: post.publishedAt });
    } catch (error) {
      if (!(error instanceof ApiError) || !error.errors) throw error;
      throw new DemoContentError(`Demo post ${path.relative(dir, post.file)} is invalid: ${error.errors.map((p) => `${p.field}: ${p.message}`).join('; ')}`);
    }
  }
  return { seeded: true, count: demo.length };
}
