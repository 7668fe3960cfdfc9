/**
 * A PostgreSQL URL as it may appear in a log line or a message: its password masked. Kept apart from
 * database.ts so that naming a database does not load `pg` in a process that never opens one.
 */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'DATABASE_URL (not a valid URL)';
  }
}
