/**
 * A Vite plugin: `import source from './module?inline-script'` gives the module, bundled with what it
 * imports and minified, as the text of one classic script to inline in the page (the page boot script).
 * The module is a real TypeScript module, type-checked and linted like any other; esbuild bundles it.
 */
import path from 'node:path';
import { build } from 'esbuild';
import type { Plugin } from 'vite';

const SUFFIX = '?inline-script';

/** Bundles `entry` into a self-contained, minified script for browsers the site supports. */
export async function bundleInlineScript(entry: string): Promise<{ code: string; inputs: string[] }> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    metafile: true,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.text.trim() ?? '';
  return { code, inputs: Object.keys(result.metafile.inputs).map((input) => path.resolve(input)) };
}

export function inlineScript(): Plugin {
  return {
    name: 'inline-script',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (!source.endsWith(SUFFIX) || !importer) return null;
      const resolved = await this.resolve(source.slice(0, -SUFFIX.length), importer, { skipSelf: true });
      return resolved ? `${resolved.id}${SUFFIX}` : null;
    },
    async load(id) {
      if (!id.endsWith(SUFFIX)) return null;
      const { code, inputs } = await bundleInlineScript(id.slice(0, -SUFFIX.length));
      for (const input of inputs) this.addWatchFile(input);
      return `export default ${JSON.stringify(code)};`;
    },
  };
}
