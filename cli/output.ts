/**
 * Output helpers: data on stdout, messages on stderr; colour only on a terminal and never with
 * NO_COLOR; spinners only on a terminal.
 */
import type { CliIO, OutputStream } from './io';

type Style = 'red' | 'green' | 'yellow' | 'dim' | 'bold' | 'cyan';
const CODES: Record<Style, [number, number]> = {
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  cyan: [36, 39],
  dim: [2, 22],
  bold: [1, 22],
};

export function colorEnabled(io: CliIO, stream: OutputStream): boolean {
  if (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '') return false;
  if (io.env.FORCE_COLOR) return true;
  return stream.isTTY === true && io.env.TERM !== 'dumb';
}

export class Output {
  constructor(private readonly io: CliIO) {}

  paint(stream: OutputStream, style: Style, text: string): string {
    if (!colorEnabled(this.io, stream)) return text;
    const [open, close] = CODES[style];
    return `\u001b[${open}m${text}\u001b[${close}m`;
  }

  /** Data: what scripts read. */
  data(text: string): void {
    this.io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  json(value: unknown): void {
    this.data(JSON.stringify(value, null, 2));
  }

  /** Messages: for the person at the terminal. */
  info(text: string): void {
    this.io.stderr.write(`${text}\n`);
  }

  success(text: string): void {
    this.info(`${this.paint(this.io.stderr, 'green', '✔')} ${text}`);
  }

  warn(text: string): void {
    this.info(`${this.paint(this.io.stderr, 'yellow', '!')} ${text}`);
  }

  error(text: string): void {
    this.info(`${this.paint(this.io.stderr, 'red', '✖')} ${text}`);
  }

  dim(text: string): string {
    return this.paint(this.io.stderr, 'dim', text);
  }

  /** Runs `work` with a spinner on a terminal; silent otherwise. */
  async spin<T>(label: string, work: () => Promise<T>): Promise<T> {
    if (this.io.stderr.isTTY !== true) return work();
    const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
    let frame = 0;
    const timer = setInterval(() => {
      this.io.stderr.write(`\r${frames[frame++ % frames.length]} ${label}`);
    }, 80);
    try {
      return await work();
    } finally {
      clearInterval(timer);
      this.io.stderr.write('\r\u001b[2K');
    }
  }
}

/** Rows as aligned columns (two spaces apart), the first row the header; no trailing spaces. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd()).join('\n');
}

/** Text others typed (a visitor, an audit detail): no control character (a terminal escape) reaches the terminal; newlines only when `multiline`. */
export function printable(text: string, multiline = false): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  const cleaned = text.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0009\u000B-\u001F\u007F-\u009F]/g, ' ');
  return multiline ? cleaned : cleaned.replace(/\n/g, ' ');
}
