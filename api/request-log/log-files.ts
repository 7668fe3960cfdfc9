/** Where the embedded request log lives: `DATA_DIR/logs/requests-YYYY-MM-DD.jsonl`, one file a UTC day. */
import path from 'node:path';

const FILE_PATTERN = /^requests-(\d{4}-\d{2}-\d{2})\.jsonl$/;

export function requestLogDir(dataDir: string): string {
  return path.join(dataDir, 'logs');
}

export function requestLogFile(dir: string, day: string): string {
  return path.join(dir, `requests-${day}.jsonl`);
}

/** The day (YYYY-MM-DD) of a log file's name, or null for another file. */
export function dayOfLogFile(name: string): string | null {
  return FILE_PATTERN.exec(name)?.[1] ?? null;
}
