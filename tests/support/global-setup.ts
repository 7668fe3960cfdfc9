/** Before the site tests: make sure the production build exists and matches the sources. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuild } from '../../scripts/build-stamp';

export default function setup(): void {
  ensureBuild(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..'));
}
