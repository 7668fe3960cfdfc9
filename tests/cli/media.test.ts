/**
 * Images through the `blogpost` CLI (through the CLI's own entry, tests/support/cli.ts) against a real server: `publish` of a Markdown
 * file with two local images and a local cover uploads them once and creates the post with every picture
 * served from the site; publishing again uploads nothing new; `--dry-run` lists the uploads and sends
 * nothing; `validate` names a missing file and a missing alt at their line; `media upload|list|delete`
 * print what an author needs, and a delete of an image a post shows names the post.
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GetPostResponse } from '../../contract/blog-reader';
import { blogpost } from '../support/cli';
import { makeTempDir, startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let writer: string;
let dir: string;

const POST = `---
title: "Charts of a policy's cash value"
category: "IUL Strategies"
status: published
author:
  name: "Ada Writer"
cover: img/cover.jpg
cover_alt: "A harbour at dawn"
---
How the cash value grows, in two pictures.

![Cash value over twenty years](./img/chart.png)

The same growth, photographed from the whiteboard:

<img src="img/board.jpg" alt="The whiteboard with the growth curve">

And the chart once more: ![Cash value, again](img/chart-copy.png)
`;

const BROKEN = `---
title: "A post with broken pictures"
category: "IUL Strategies"
status: draft
author:
  name: "Ada Writer"
---
First paragraph.

![](img/chart.png)

![A chart that is not there](img/missing.png)
`;

async function picture(file: string, background: string, format: 'png' | 'jpeg'): Promise<void> {
  const image = sharp({ create: { width: 1200, height: 800, channels: 3, background } });
  await (format === 'png' ? image.png() : image.jpeg({ quality: 70 })).toFile(file);
}

beforeAll(async () => {
  server = await startTestServer({ api: { writesPerMinute: 0 } });
  writer = await server.createKey('media-writer', ['blog:write']);
  dir = makeTempDir('blogpost-media-');
  mkdirSync(path.join(dir, 'img'));
  await Promise.all([
    picture(path.join(dir, 'img/chart.png'), '#1d4ed8', 'png'),
    picture(path.join(dir, 'img/board.jpg'), '#16a34a', 'jpeg'),
    picture(path.join(dir, 'img/cover.jpg'), '#f59e0b', 'jpeg'),
    picture(path.join(dir, 'img/extra.png'), '#9333ea', 'png'),
  ]);
  copyFileSync(path.join(dir, 'img/chart.png'), path.join(dir, 'img/chart-copy.png'));
  writeFileSync(path.join(dir, 'post.md'), POST);
  writeFileSync(path.join(dir, 'broken.md'), BROKEN);
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function run(args: readonly string[]) {
  return blogpost(args, { cwd: dir, env: { BLOGPOST_URL: server.url, BLOGPOST_API_KEY: writer } });
}

async function mediaCount(): Promise<number> {
  return (await server.store.media.list()).length;
}

describe('blogpost validate', () => {
  it('names a missing image and a missing alt text at their line, and exits 1', async () => {
    const result = await run(['validate', 'broken.md']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/broken\.md:12:\d+ the image img\/missing\.png cannot be uploaded: there is no such file/);
    expect(result.stderr).toMatch(/broken\.md:10:\d+ the image img\/chart\.png has no alt text/);
    expect(result.stderr).toContain('1 image cannot be uploaded, so publish would stop');
  });
});

describe('blogpost publish with local images', () => {
  it('--dry-run lists each picture once, with its size and hash, and sends nothing', async () => {
    const result = await run(['publish', 'post.md', '--dry-run']);
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n').filter((line) => line.startsWith('upload '));
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^upload img\/chart\.png, img\/chart-copy\.png {2}[\d.]+ KB {2}sha256 [0-9a-f]{12}$/);
    expect(lines[1]).toMatch(/^upload img\/board\.jpg {2}[\d.]+ KB {2}sha256 [0-9a-f]{12}$/);
    expect(lines[2]).toMatch(/^upload img\/cover\.jpg .* \(cover\)$/);
    expect(result.stderr).toContain('Dry run: nothing was sent.');
    expect(await mediaCount()).toBe(0);
    expect((await server.store.posts.counts()).published).toBe(0);
  });

  it('uploads the images and the cover once and creates the post showing them from the site; the file keeps its paths', async () => {
    const result = await run(['publish', 'post.md']);
    expect(result.stderr).toContain('Images: 3 uploaded, 0 on the site already.');
    expect(result.code).toBe(0);
    expect(await mediaCount()).toBe(3);
    const file = readFileSync(path.join(dir, 'post.md'), 'utf8');
    expect(file).toMatch(/^---\nid: [\w-]+\nrevision: 1\n/);
    expect(file).toContain('![Cash value over twenty years](./img/chart.png)');

    const id = /^id: ([\w-]+)$/m.exec(file)?.[1] ?? '';
    const answer = await fetch(`${server.url}/api/blog/${id}`, { headers: { authorization: `Bearer ${writer}` } });
    const { post } = (await answer.json()) as GetPostResponse;
    const sources = [...post.content.matchAll(/<img\b[^>]*\bsrc="([^"]+)"/g)].map((match) => match[1] ?? '');
    expect(sources).toHaveLength(3);
    expect(sources[0]).toBe(sources[2]);
    for (const src of [...sources, post.cover_image?.url ?? '']) {
      expect(src).toMatch(/^\/media\/[0-9a-f]{32}-\d+\.(png|jpg)$/);
      const image = await fetch(`${server.url}${src}`);
      expect(image.status, src).toBe(200);
      expect(image.headers.get('content-type'), src).toMatch(/^image\//);
    }
    expect(post.cover_image).toMatchObject({ alt: 'A harbour at dawn', url: expect.stringMatching(/\.jpg$/) });
  });

  it('publishing again uploads nothing new', async () => {
    writeFileSync(path.join(dir, 'post.md'), readFileSync(path.join(dir, 'post.md'), 'utf8').replace('in two pictures', 'in two pictures and a cover'));
    const result = await run(['publish', 'post.md', '--json']);
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout) as { action: string; uploads: Array<{ file: string; already_stored: boolean }> };
    expect(out.action).toBe('updated');
    expect(out.uploads.map((upload) => [upload.file, upload.already_stored])).toEqual([
      ['img/chart.png', true],
      ['img/board.jpg', true],
      ['img/cover.jpg', true],
    ]);
    expect(await mediaCount()).toBe(3);
  });
});

describe('blogpost media', () => {
  it('upload prints id, URL, size and whether the site had it; list shows the posts using each; delete refuses one in use and names the post', async () => {
    const upload = await run(['media', 'upload', 'img/extra.png', 'img/board.jpg']);
    expect(upload.code).toBe(0);
    const [extra, board] = upload.stdout.trim().split('\n');
    expect(extra).toMatch(/^[0-9a-f]{32} {2}\/media\/[0-9a-f]{32}-\d+\.png {2}[\d.]+ KB {2}1200x800 {2}uploaded {2}img\/extra\.png$/);
    expect(board).toMatch(/ already stored {2}img\/board\.jpg$/);
    expect(upload.stderr).toContain('1 uploaded, 1 the site had already');

    const list = await run(['media', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout.split('\n')[0]).toMatch(/^ID +TYPE +PIXELS +SIZE +UPLOADED +USED BY +URL$/);
    const boardId = board?.split(' ')[0] ?? '';
    const extraId = extra?.split(' ')[0] ?? '';
    expect(list.stdout).toMatch(new RegExp(`^${boardId} +jpeg +1200x800 .* 1 post `, 'm'));
    expect(list.stdout).toMatch(new RegExp(`^${extraId} +png .* unused `, 'm'));

    const refused = await run(['media', 'delete', boardId]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`Not deleted: 1 post still shows the image ${boardId}:`);
    expect(refused.stderr).toMatch(/published {2}"Charts of a policy's cash value" {2}http:\/\/127\.0\.0\.1:\d+\/blog\/charts-of-a-policys-cash-value/);

    const deleted = await run(['media', 'delete', extraId]);
    expect(deleted.code).toBe(0);
    expect(deleted.stderr).toContain(`Deleted the image ${extraId}`);
    expect(await mediaCount()).toBe(3);
  });

  it('upload checks each file before sending anything: a missing file is a local problem (exit 4), a renamed text file is refused (exit 1)', async () => {
    writeFileSync(path.join(dir, 'img/notes.png'), 'these are notes, not a picture\n');
    const missing = await run(['media', 'upload', 'img/extra.png', 'img/nope.png']);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain('img/nope.png cannot be uploaded: there is no such file. Nothing was sent.');
    const renamed = await run(['media', 'upload', 'img/notes.png']);
    expect(renamed.code).toBe(1);
    expect(renamed.stderr).toContain('img/notes.png cannot be uploaded: it is not a PNG, JPEG, WebP, AVIF or GIF image (the type is read from its bytes, not its name)');
    expect(await mediaCount()).toBe(3);
  });
});
