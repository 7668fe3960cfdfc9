/**
 * Parsers for numeric options (commander's argParser): a value outside its range is a usage error
 * (exit 2) naming the option and what it accepts, never a silent default or an endless loop.
 */
import { InvalidArgumentError, Option } from 'commander';

/** A whole number from `min` to `max`. */
export function wholeNumber(option: string, min: number, max: number): (value: string) => number {
  return (value) => {
    const text = value.trim();
    const number = /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
    if (!(number >= min && number <= max)) throw new InvalidArgumentError(`${option} takes a whole number from ${min} to ${max}.`);
    return number;
  };
}

export const TIMEOUT_RANGE = { min: 1, max: 600, default: 30 } as const;
export const RETRIES_RANGE = { min: 1, max: 10, default: 4 } as const;

/** `--timeout <seconds>`: how long to wait for each answer of the server. */
export function timeoutOption(): Option {
  return new Option('--timeout <seconds>', `seconds to wait for each answer of the server (${TIMEOUT_RANGE.min}-${TIMEOUT_RANGE.max})`)
    .argParser(wholeNumber('--timeout', TIMEOUT_RANGE.min, TIMEOUT_RANGE.max))
    .default(TIMEOUT_RANGE.default);
}

/** `--retries <n>`: attempts in all on 429, 5xx and network errors. */
export function retriesOption(): Option {
  return new Option('--retries <n>', `attempts in all on 429, 5xx and network errors (${RETRIES_RANGE.min}-${RETRIES_RANGE.max})`)
    .argParser(wholeNumber('--retries', RETRIES_RANGE.min, RETRIES_RANGE.max))
    .default(RETRIES_RANGE.default);
}
