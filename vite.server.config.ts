/**
 * The server bundle: the Koa entry (api/main.ts) as plain ESM for Node 20, with source maps, and the
 * packages it uses bundled in (decision 0014): a start reads and compiles one file instead of resolving
 * several hundred modules in node_modules. Left out: native code (sharp, better-sqlite3, pg's optional
 * pg-native), esprima (never used: scripts/vite-without-esprima.ts), Vite (development only), and React and React Router, which the site's own build
 * (vite.config.ts) imports too and which must be one copy for both. `npm start` runs it with plain node;
 * the `blogpost` CLI is its own bundle (vite.cli.config.ts).
 */
import { defineConfig } from 'vite';
import { withoutEsprima } from './scripts/vite-without-esprima';

export default defineConfig({
  // js-yaml's optional esprima, which the safe schema gray-matter uses never needs (scripts/vite-without-esprima.ts).
  plugins: [withoutEsprima()],
  // No public/ copy and no .env files: this build is for Node, not the browser.
  publicDir: false,
  envDir: false,
  ssr: { noExternal: true, external: ['sharp', 'better-sqlite3', 'pg-native', 'vite', 'react', 'react-dom', 'react-router'] },
  build: {
    ssr: true,
    target: 'node20',
    outDir: 'build/app',
    emptyOutDir: true,
    sourcemap: true,
    minify: false,
    rollupOptions: {
      input: { server: 'api/main.ts' },
      output: { format: 'es', sourcemapExcludeSources: true, entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
    },
  },
});
