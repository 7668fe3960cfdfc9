/** Help texts and limits that a command's wiring shows and its implementation checks too: plain values, so the wiring stays light. */

/** The --data-dir and --database-url options' help, the same on every command that takes them. */
export const DATA_DIR_HELP = 'the data directory, holding the SQLite database store.sqlite (default: $DATA_DIR, else data/ in the project; not used when $DATABASE_URL is set)';
export const DATABASE_URL_HELP = 'the PostgreSQL store at this URL, postgres://... (default: $DATABASE_URL when --data-dir is not given)';

/** The longest note `blogpost leads set --note` takes. */
export const NOTE_MAX = 2000;
