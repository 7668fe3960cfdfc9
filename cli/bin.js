#!/usr/bin/env node
// The `blogpost` executable: loads the TypeScript CLI through tsx and sets the exit code.
import { tsImport } from 'tsx/esm/api';

const { run } = await tsImport('./main.ts', import.meta.url);
process.exitCode = await run(process.argv.slice(2));
