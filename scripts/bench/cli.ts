/**
 * The `blogpost` CLI's start-up: how long a command takes from the spawn to its exit, as `npx blogpost`
 * runs it (node cli/bin.js over the built bundle), beside bare `node -e ""` measured in the same rounds.
 * Commands that need no server: `--help` and `--version` (start-up alone: the entry with the commands'
 * wiring, decision 0035), `validate` and `lint` of a demo post file (start-up plus the Markdown,
 * contract and compliance work). Each round runs every command once, in turn, so a busy moment of the
 * machine falls on all of them. Budgets: issue 39's for `--help` and `--version` (100 ms) and
 * `validate` (200 ms); MAX_COMMAND_MS, the time within which a command someone typed should have
 * answered, for the others.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { median } from './load';
import { type Budget, fmt, markdownTable, type Section, seconds } from './report';
import { ROOT } from './processes';

const MAX_COMMAND_MS = 1_000;
/** Issue 39: a command that only prints help or the version answers in a blink, validate in a fifth of a second. */
const MAX_HELP_MS = 100;
const MAX_VALIDATE_MS = 200;

/** A demo post of the repository (fixtures/posts), as an author's Markdown file. */
function samplePost(): string {
  const dir = path.join(ROOT, 'fixtures/posts/iul-strategies');
  const file = readdirSync(dir).filter((name) => name.endsWith('.md')).sort()[0];
  if (!file) throw new Error(`no Markdown post in ${dir}`);
  return path.join(dir, file);
}

function timeRun(args: readonly string[]): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${result.status}: ${result.stderr.toString().slice(0, 500)}`);
  return ms;
}

export async function benchCli({ rounds }: { rounds: number }): Promise<Section> {
  const post = samplePost();
  const bin = path.join(ROOT, 'cli/bin.js');
  const commands: Array<{ label: string; args: string[]; maxMs?: number }> = [
    { label: 'bare node (`node -e ""`), the baseline', args: ['-e', ''] },
    { label: '`blogpost --help`', args: [bin, '--help'], maxMs: MAX_HELP_MS },
    { label: '`blogpost --version`', args: [bin, '--version'], maxMs: MAX_HELP_MS },
    { label: `\`blogpost validate\` of a demo post`, args: [bin, 'validate', post], maxMs: MAX_VALIDATE_MS },
    { label: `\`blogpost lint\` of the same post`, args: [bin, 'lint', post] },
  ];
  const times = commands.map(() => [] as number[]);
  // One unmeasured round: the first reads every file from disk.
  commands.forEach((command) => timeRun(command.args));
  for (let round = 0; round < rounds; round++) commands.forEach((command, i) => times[i]?.push(timeRun(command.args)));
  const base = median(times[0] ?? []);
  const budgets: Budget[] = [];
  const rows = commands.map((command, i) => {
    const runs = times[i] ?? [];
    const mid = median(runs);
    const max = command.maxMs ?? MAX_COMMAND_MS;
    if (i > 0) budgets.push({ name: `${command.label} under ${max < 1_000 ? `${max} ms` : seconds(max)}`, ok: mid < max, detail: `${Math.round(mid)} ms` });
    return [command.label, seconds(mid), seconds(Math.min(...runs)), seconds(Math.max(...runs)), i === 0 ? '' : `${fmt(mid / base, 1)}x`];
  });
  return {
    heading: 'The blogpost CLI: spawn to exit',
    table: markdownTable(['Command', 'Median', 'Fastest', 'Slowest', 'Of bare node'], rows),
    budgets,
    notes: [
      `${rounds} rounds, each running every command once in turn, after one unmeasured round; the post is ${path.relative(ROOT, post)}.`,
      'Each command loads only its own code, and help, version and completion only the entry with the wiring: docs/decisions/0035-each-command-loads-its-own-code.md.',
    ],
  };
}
