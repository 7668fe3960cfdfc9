import path from 'node:path';
import { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { bundleInlineScript } from './vite-inline-script';

const PAGE_BOOT = path.resolve(__dirname, '../web/client/page-boot.ts');

describe('the inline page boot script', () => {
  it('is one self-contained classic script: no import or export left, the shared names bundled in', async () => {
    const { code, inputs } = await bundleInlineScript(PAGE_BOOT);
    expect(() => new Script(code)).not.toThrow();
    // Only the dynamic import() of the app's modules, by the addresses the page lists, which a classic script may do.
    expect(code).not.toMatch(/\bimport\s*[{"']|\bimport\s*\(\s*["'`]|\bexport\s*[{*]/);
    expect(code).toContain('text/x-hydrate-on-interaction');
    expect(inputs).toEqual(expect.arrayContaining([PAGE_BOOT, path.resolve(__dirname, '../web/client/boot-contract.ts')]));
  });

  it('stays small enough to inline in every page (under 2 KB gzipped)', async () => {
    const { gzipSync } = await import('node:zlib');
    const { code } = await bundleInlineScript(PAGE_BOOT);
    expect(gzipSync(code).length).toBeLessThan(2048);
  });
});
