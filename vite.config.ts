import { reactRouter } from '@react-router/dev/vite';
import { defineConfig } from 'vite';
import { inlineScript } from './scripts/vite-inline-script';

export default defineConfig({
  plugins: [inlineScript(), reactRouter()],
  build: { target: 'es2022' },
  // The server build takes in the few icons the pages use instead of importing lucide-react from
  // node_modules, whose entry loads every one of its 1,600 icon modules: 295 ms of each server start.
  ssr: { noExternal: ['lucide-react'] },
});
