/** Records which inputs the build just made was made from (used after `npm run build`). */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { computeBuildStamp } from './build-stamp';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
writeFileSync(path.join(root, 'build', '.build-stamp'), `${computeBuildStamp(root)}\n`);
