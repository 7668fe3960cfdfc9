/**
 * The server bundle: the Koa entry (api/main.ts) as plain ESM for Node 20, with source maps, packages
 * left to node_modules. `npm start` runs it with plain node; the site itself is React Router's own
 * build (vite.config.ts), the `blogpost` CLI its own bundle (vite.cli.config.ts).
 */
import { defineConfig } from 'vite';

export default defineConfig({
  // No public/ copy and no .env files: this build is for Node, not the browser.
  publicDir: false,
  envDir: false,
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
