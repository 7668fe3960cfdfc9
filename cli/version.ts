/** The CLI's version: the one in package.json (bundled into the build, so it cannot drift). */
import packageJson from '../package.json' with { type: 'json' };

export const VERSION: string = packageJson.version;
