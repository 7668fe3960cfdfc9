/** Exit codes of `blogpost`, documented by `blogpost help exit-codes`. */
export const ExitCode = {
  Ok: 0,
  /** The input is invalid, a probe failed, or the API refused the request (4xx). */
  Failed: 1,
  /** Wrong usage: unknown command, option or test type, missing argument, option value out of range. */
  Usage: 2,
  /** The server could not be reached (network error, timeout) or answered with a server error (5xx). */
  Unavailable: 3,
  /** A local problem: unreadable file, unreadable or damaged database file, unreachable database. */
  Local: 4,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export const EXIT_CODE_HELP: ReadonlyArray<readonly [ExitCode, string]> = [
  [ExitCode.Ok, 'success: the post was published (or held for compliance review) or is valid, every probe passed, the key command worked'],
  [ExitCode.Failed, 'the post is invalid (an image it shows is missing or not a PNG, JPEG, WebP, AVIF or GIF, too), a probe or test failed, media delete of an image posts still show, lint found a high compliance finding not accepted (or validate/publish --strict did), or the API refused the request (4xx, a 422 compliance_blocked too), or import-wordpress could not import a post (the others are imported) or was given a file that is not a WordPress export'],
  [ExitCode.Usage, 'wrong usage: unknown command, option or test type (e.g. "Unknown test type: x"), missing argument, option value out of range, a path lint cannot find, --send with no terminal to confirm on (add --yes), a backup file that exists already, or backup of a PostgreSQL store (use pg_dump)'],
  [ExitCode.Unavailable, 'the server could not be reached or timed out, or answered with a server error (5xx)'],
  [ExitCode.Local, 'a local problem: a file could not be read (a body file a curl command names, or a file media upload names, too), or the database in the data directory is missing, unreadable or damaged, or the database DATABASE_URL names cannot be reached'],
];

/** An error that ends a command with a given exit code and a message for stderr. */
export class CliError extends Error {
  override name = 'CliError';
  constructor(
    message: string,
    readonly exitCode: ExitCode,
  ) {
    super(message);
  }
}
