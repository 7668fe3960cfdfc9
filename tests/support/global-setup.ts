/**
 * Before the server and site tests: make sure the production build exists and matches the sources,
 * the site and the server/CLI bundle alike (the start tests and the `blogpost` bin run the bundle).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuild } from '../../scripts/build-stamp';

export default function setup(): void {
  ensureBuild(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..'));
}
