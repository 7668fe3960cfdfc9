/**
 * The test console's "remember my key": a JSON array in localStorage under one fixed key. A list that
 * cannot be loaded is only logged (and treated as empty), never shown as an error.
 */
export const SAVED_API_KEYS_STORAGE_KEY = 'blog-api-keys';

export interface SavedApiKey {
  label: string;
  key: string;
  savedAt: string;
}

function isSavedKey(value: unknown): value is SavedApiKey {
  if (typeof value !== 'object' || value === null) return false;
  const item = value as Record<string, unknown>;
  return typeof item.label === 'string' && typeof item.key === 'string' && typeof item.savedAt === 'string';
}

export function loadSavedKeys(storage: Pick<Storage, 'getItem'>, logger: Pick<Console, 'error'> = console): SavedApiKey[] {
  try {
    const raw = storage.getItem(SAVED_API_KEYS_STORAGE_KEY);
    if (raw === null) return [];
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed)) throw new Error('the stored value is not a list');
    return parsed.filter(isSavedKey);
  } catch (error) {
    logger.error('Failed to load saved API keys', error);
    return [];
  }
}

export function saveKeys(storage: Pick<Storage, 'setItem'>, keys: readonly SavedApiKey[]): void {
  storage.setItem(SAVED_API_KEYS_STORAGE_KEY, JSON.stringify(keys));
}
