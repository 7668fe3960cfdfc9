/**
 * Why the store cannot open, read or write, as a message an operator can act on, and which catalogue
 * code an HTTP answer gives for it. The store never overwrites a database it could not read: a damaged
 * file stops the start (or the request) with this error, and the file stays as it was.
 */
export type StoreProblem =
  /** A record or a value that is not what the store keeps (refused, nothing stored). */
  | 'corrupt'
  /** The database file itself is damaged (SQLite's SQLITE_CORRUPT, SQLITE_NOTADB): restore a backup. */
  | 'damaged'
  | 'unreadable'
  | 'unwritable'
  | 'conflict'
  /** The disk or the user's quota is full (ENOSPC, EDQUOT). */
  | 'full'
  /** The data directory cannot be written at all (EROFS, EACCES, EPERM). */
  | 'read_only'
  /**
   * The database server cannot be reached for now (PostgreSQL restarting or down, the connection
   * refused, reset or timed out): nothing is wrong with the request or the data; retry shortly.
   */
  | 'unavailable';

export class StoreError extends Error {
  override readonly name = 'StoreError';
  readonly problem: StoreProblem;
  readonly file: string;

  constructor(problem: StoreProblem, file: string, message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.problem = problem;
    this.file = file;
  }
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The errno code of a Node error (`ENOSPC`), if it has one. */
export function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

export function corruptFile(file: string, detail: string, cause?: unknown): StoreError {
  return new StoreError(
    'corrupt',
    file,
    `The data file ${file} is damaged (${detail}). It was left untouched. Restore it from a backup, or move it out of the data directory to start without it.`,
    cause,
  );
}

/** A failed write, classified by what the operator has to do about it. */
export function unwritable(file: string, cause: unknown): StoreError {
  if (cause instanceof StoreError) return cause;
  switch (errorCode(cause)) {
    case 'ENOSPC':
    case 'EDQUOT':
      return new StoreError('full', file, `Cannot write ${file}: the disk holding the data directory is full (${reason(cause)}). Free some space; nothing stored was lost.`, cause);
    case 'EROFS':
    case 'EACCES':
    case 'EPERM':
      return new StoreError(
        'read_only',
        file,
        `Cannot write ${file}: the data directory is read-only or not writable by this process (${reason(cause)}). Check DATA_DIR's mount and permissions.`,
        cause,
      );
    default:
      return new StoreError('unwritable', file, `Cannot write ${file} (${reason(cause)}). Check that DATA_DIR points to a writable directory.`, cause);
  }
}

/**
 * The catalogue code an API answer gives for a store failure: a write the disk refused, a database
 * that is damaged, or one out of reach (PostgreSQL restarting), is the operator's problem and the
 * client's to retry later, not a bug (500). Null for the other problems.
 */
export function storeErrorCode(error: StoreError): 'storage_full' | 'storage_unavailable' | null {
  switch (error.problem) {
    case 'full':
      return 'storage_full';
    case 'unavailable':
    case 'read_only':
    case 'unwritable':
    case 'damaged':
      return 'storage_unavailable';
    default:
      return null;
  }
}

/** How long a client is asked to wait (Retry-After) when the database is out of reach: a restart takes seconds. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** True for a store failure that answers 503 `storage_unavailable` (the database out of reach, a read-only or damaged store). */
export function isStoreUnavailable(error: unknown): error is StoreError {
  return error instanceof StoreError && storeErrorCode(error) === 'storage_unavailable';
}

/**
 * True for a store failure that is the operator's to fix and the visitor's to retry, not a bug: 503
 * (isStoreUnavailable) or 507 `storage_full` (the disk full).
 */
export function isStoreRefusal(error: unknown): error is StoreError {
  return error instanceof StoreError && storeErrorCode(error) !== null;
}

/** The HTTP status a store refusal answers: 507 for a full disk, 503 otherwise. */
export function storeRefusalStatus(error: StoreError): 503 | 507 {
  return storeErrorCode(error) === 'storage_full' ? 507 : 503;
}
