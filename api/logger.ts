/** Where the server's few log lines go: the console in production, a list in tests. */
export interface Logger {
  info: (message: string) => void;
  error: (message: string, error?: unknown) => void;
}

export const consoleLogger: Logger = {
  info: (message) => console.log(message),
  error: (message, error) => console.error(message, error ?? ''),
};
