import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILD_OUTPUTS, computeBuildStamp, isBuildFresh, writeBuildStamp } from './build-stamp.js';

const roots: string[] = [];

/** A checkout in miniature: two inputs, a test beside them, and every build output present. */
function checkout(): string {
  const root = path.join(os.tmpdir(), `build-stamp-${process.pid}-${roots.length}`);
  roots.push(root);
  mkdirSync(path.join(root, 'api'), { recursive: true });
  writeFileSync(path.join(root, 'api', 'app.ts'), 'export const app = 1;\n');
  writeFileSync(path.join(root, 'api', 'app.test.ts'), 'test\n');
  writeFileSync(path.join(root, 'package.json'), '{}\n');
  for (const output of BUILD_OUTPUTS) {
    mkdirSync(path.dirname(path.join(root, output)), { recursive: true });
    if (output.endsWith('.js')) writeFileSync(path.join(root, output), '');
    else mkdirSync(path.join(root, output), { recursive: true });
  }
  return root;
}

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('the build stamp', () => {
  it('finds the build fresh while its inputs are as they were, and stale when one changes, comes or goes', () => {
    const root = checkout();
    expect(isBuildFresh(root, {})).toBe(false);
    writeBuildStamp(root, {});
    expect(isBuildFresh(root, {})).toBe(true);
    // A test is not built: editing it leaves the build fresh.
    writeFileSync(path.join(root, 'api', 'app.test.ts'), 'another test\n');
    expect(isBuildFresh(root, {})).toBe(true);

    writeFileSync(path.join(root, 'api', 'app.ts'), 'export const app = 2;\n');
    expect(isBuildFresh(root, {})).toBe(false);
    writeBuildStamp(root, {});
    writeFileSync(path.join(root, 'api', 'new.ts'), 'export {};\n');
    expect(isBuildFresh(root, {})).toBe(false);
    rmSync(path.join(root, 'api', 'new.ts'));
    expect(isBuildFresh(root, {})).toBe(true);
    rmSync(path.join(root, 'api', 'app.ts'));
    expect(isBuildFresh(root, {})).toBe(false);
  });

  it('finds it stale when the environment that shapes the routes changed', () => {
    const root = checkout();
    writeBuildStamp(root, { SITE_PRODUCT_SLUG: 'max-funded-iul' });
    expect(isBuildFresh(root, { SITE_PRODUCT_SLUG: 'max-funded-iul' })).toBe(true);
    expect(isBuildFresh(root, { SITE_PRODUCT_SLUG: 'indexed-universal-life' })).toBe(false);
  });

  it('finds inputs touched but not changed fresh by their hash, and remembers how they look now', () => {
    const root = checkout();
    writeBuildStamp(root, {});
    const file = path.join(root, 'api', 'app.ts');
    const later = new Date(statSync(file).mtimeMs + 60_000);
    utimesSync(file, later, later);
    const before = readFileSync(path.join(root, 'build', '.build-stamp'), 'utf8');
    expect(isBuildFresh(root, {})).toBe(true);
    const after = readFileSync(path.join(root, 'build', '.build-stamp'), 'utf8');
    expect(after.split('\n')[0]).toBe(before.split('\n')[0]);
    expect(after).not.toBe(before);
  });

  it('takes a stamp of the older kind (the hash alone) by its hash', () => {
    const root = checkout();
    writeBuildStamp(root, {});
    const stamp = path.join(root, 'build', '.build-stamp');
    writeFileSync(stamp, `${readFileSync(stamp, 'utf8').split('\n')[0] ?? ''}\n`);
    expect(isBuildFresh(root, {})).toBe(true);
    writeFileSync(stamp, 'not a hash\n');
    expect(isBuildFresh(root, {})).toBe(false);
  });

  it('walks any tree of inputs in the order the stamps already written have, and notices any change to a built file', () => {
    // The walk as stamps were first written (decision 0034): a stat for every entry, names sorted.
    const reference = (root: string): string => {
      const walk = (entry: string): string[] => {
        const stat = statSync(path.join(root, entry), { throwIfNoEntry: false });
        if (!stat) return [];
        if (stat.isFile()) return /\.test\.tsx?$/.test(entry) ? [] : [entry];
        return readdirSync(path.join(root, entry))
          .sort()
          .flatMap((name) => walk(path.join(entry, name)));
      };
      const hash = createHash('sha256');
      for (const file of ['api', 'package.json'].flatMap(walk)) hash.update(file).update('\0').update(readFileSync(path.join(root, file))).update('\0');
      hash.update('SITE_PRODUCT_SLUG=\0');
      return hash.digest('hex');
    };
    const name = fc.constantFrom('a', 'B', 'b', '_x', 'a-b', 'a.b', '10', '9', 'é', 'Z');
    const file = fc.tuple(fc.array(fc.constantFrom('d', 'D', 'd-1', 'd.e', 'sub'), { maxLength: 3 }), name, fc.constantFrom('.ts', '.tsx', '.test.ts', '.json', '.test.tsx'), fc.string({ maxLength: 20 }));
    fc.assert(
      fc.property(fc.array(file, { minLength: 1, maxLength: 12 }), fc.nat(), (files, pick) => {
        const root = checkout();
        for (const [dirs, base, ext, text] of files) {
          mkdirSync(path.join(root, 'api', ...dirs), { recursive: true });
          writeFileSync(path.join(root, 'api', ...dirs, `${base}${ext}`), text);
        }
        expect(computeBuildStamp(root, {})).toBe(reference(root));
        writeBuildStamp(root, {});
        expect(isBuildFresh(root, {})).toBe(true);
        const chosen = files[pick % files.length];
        if (!chosen) throw new Error('no file');
        const [dirs, base, ext] = chosen;
        writeFileSync(path.join(root, 'api', ...dirs, `${base}${ext}`), 'changed to something longer than before: more than twenty characters');
        expect(isBuildFresh(root, {})).toBe(/\.test\.tsx?$/.test(ext));
        rmSync(root, { recursive: true, force: true });
      }),
      { numRuns: 40 },
    );
  });
});
