import type { Config } from '@react-router/dev/config';

// Every page is rendered on the server per request (and cached in memory by the Koa
// renderer), so runtime configuration and new blog posts show up without a rebuild.
export default {
  appDirectory: 'web',
  buildDirectory: 'build',
  ssr: true,
} satisfies Config;
