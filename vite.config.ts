import { reactRouter } from '@react-router/dev/vite';
import { defineConfig } from 'vite';
import { inlineScript } from './scripts/vite-inline-script';

export default defineConfig({
  plugins: [inlineScript(), reactRouter()],
  build: { target: 'es2022' },
});
