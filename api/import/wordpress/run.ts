/**
 * The WordPress import as the CLI runs it (decision 0029): the export read, the mapping files checked,
 * and every post imported into the store through services built for it with the server's own settings
 * from the environment (COMPLIANCE_MODE, MEDIA_MAX_BYTES, SITE_URL...), so an imported post meets the
 * same compliance gate as one sent to the API. Nothing runs in the background: no scheduler, no outbox.
 */
import { readFile } from 'node:fs/promises';
import { loadSiteConfig } from '../../../contract/site-config-env';
import { readServerEnv, serviceSettingsFrom } from '../../server-env';
import { createServices } from '../../services/services';
import type { Store } from '../../store/store';
import { type ImportProgress, type ImportReport, WordPressImport, type WordPressImportOptions } from './import';
import { categoryMapFrom, MapFileError, parseMapText } from './maps';
import { readWxrFile, WxrError } from './wxr';

export { IMPORT_SOURCE, type ImportProgress, type ImportReport } from './import';
export { MapFileError } from './maps';
export { WxrError } from './wxr';

export interface WordPressRunOptions {
  mediaFrom?: string;
  dryRun?: boolean;
  status?: 'draft' | 'keep';
  /** Paths of the mapping files. */
  categoryMap?: string;
  authorMap?: string;
  onProgress?: (progress: ImportProgress) => void;
  /** Told once the export is read: how many post items it holds. */
  onRead?: (posts: number) => void;
}

async function mapFile(file: string, what: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new MapFileError(`Cannot read ${what} ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Reads and checks what the import needs before anything is written; then imports. */
export async function importWordPressFile(store: Store, file: string, options: WordPressRunOptions, env: NodeJS.ProcessEnv): Promise<ImportReport> {
  const categoryMap = options.categoryMap ? categoryMapFrom(await mapFile(options.categoryMap, '--category-map'), `--category-map ${options.categoryMap}`) : undefined;
  const authorMap = options.authorMap ? parseMapText(await mapFile(options.authorMap, '--author-map'), `--author-map ${options.authorMap}`) : undefined;
  const wxr = await readWxrFile(file);
  options.onRead?.(wxr.items.filter((item) => item.postType === 'post').length);
  const services = createServices(store, { ...serviceSettingsFrom(readServerEnv(env)), config: loadSiteConfig(env) });
  const importOptions: WordPressImportOptions = {
    ...(options.mediaFrom ? { mediaFrom: options.mediaFrom } : {}),
    dryRun: options.dryRun === true,
    status: options.status ?? 'keep',
    ...(categoryMap ? { categoryMap } : {}),
    ...(authorMap ? { authorMap } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  };
  return new WordPressImport(services, wxr, importOptions).run();
}

export { WxrError as WordPressExportError };
export const isImportInputError = (error: unknown): error is WxrError | MapFileError => error instanceof WxrError || error instanceof MapFileError;
