/**
 * Reading the store's small JSON files: one file parsed and checked (null when it does not exist; a
 * StoreError naming the file when it cannot be read or is not what it should be), and the JSON files
 * of a folder (never a temporary file an interrupted write left).
 */
import { readdir, readFile } from 'node:fs/promises';
import { corruptFile, errorCode, StoreError } from '../store-error';
import { isTempFileName } from './durable-writer';

/** Reads and checks one file; `parse` answers null for content that is not what it should be. */
export async function readJsonFile<T>(file: string, parse: (raw: unknown) => T | null): Promise<T | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw new StoreError('unreadable', file, `Cannot read ${file} (${error instanceof Error ? error.message : String(error)}).`, error);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw corruptFile(file, `not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = parse(raw);
  if (parsed === null) throw corruptFile(file, 'unexpected content');
  return parsed;
}

/** The `.json` files of a folder (none when it does not exist), never a temporary file. */
export async function jsonNames(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((name) => name.endsWith('.json') && !isTempFileName(name));
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return [];
    throw new StoreError('unreadable', dir, `Cannot read the folder ${dir} (${error instanceof Error ? error.message : String(error)}).`, error);
  }
}
