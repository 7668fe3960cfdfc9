/**
 * A Vite plugin for the Node bundles (the server's and the CLI's): js-yaml 3 requires esprima (218 KB)
 * for its `!!js/function` type, which only its full schema reads; gray-matter parses front matter with
 * the safe schema, which has no such type. js-yaml already works without esprima (its browser build has
 * none): the require fails, and it carries on. Bundled, esprima was read, compiled and run at every
 * start of the server (decision 0040) and of each CLI command that reads Markdown (decision 0035).
 */
import type { Plugin } from 'vite';

export function withoutEsprima(): Plugin {
  return {
    name: 'without-esprima',
    enforce: 'pre',
    resolveId: (id) => (id === 'esprima' ? '\0without-esprima' : null),
    load: (id) => (id === '\0without-esprima' ? "throw new Error('esprima is not part of this bundle');" : null),
  };
}
