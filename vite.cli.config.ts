/**
 * The `blogpost` CLI bundle (build/app/cli.js): cli/main.ts with the packages it uses bundled in, so a
 * run reads one file instead of resolving and loading several hundred modules from node_modules; what
 * only some commands use (pg, undici, turndown) is split into cli-chunks/ and loaded when used. With
 * both, `blogpost --version` went from 1.00 s to 0.54 s (docs/decisions/0008-cli-bundle.md). Left
 * out: sharp and better-sqlite3 (native code) and pg-native (an optional part of pg that is not installed).
 */
import { defineConfig } from 'vite';
import { withoutEsprima } from './scripts/vite-without-esprima';

export default defineConfig({
  plugins: [withoutEsprima()],
  publicDir: false,
  envDir: false,
  ssr: { noExternal: true, external: ['sharp', 'better-sqlite3', 'pg-native'] },
  build: {
    ssr: true,
    target: 'node20',
    outDir: 'build/app',
    emptyOutDir: false,
    sourcemap: true,
    minify: false,
    rollupOptions: {
      input: { cli: 'cli/main.ts' },
      treeshake: { moduleSideEffects: (id: string) => !/\/(api|contract|harness|cli)\//.test(id) || id.includes('/node_modules/') },
      output: { format: 'es', sourcemapExcludeSources: true, entryFileNames: '[name].js', chunkFileNames: 'cli-chunks/[name]-[hash].js' },
      // gray-matter's JavaScript engine (eval) is bundled but never runs: front-matter.ts replaces it
      // with a refusal. Its warning would only hide the ones that matter.
      onwarn(warning, warn) {
        if (warning.code === 'EVAL' && warning.id?.includes('gray-matter')) return;
        warn(warning);
      },
    },
  },
});
