import { describe, expect, it, vi } from 'vitest';
import { loadSavedKeys, SAVED_API_KEYS_STORAGE_KEY, saveKeys } from './saved-keys';

function storage(value: string | null) {
  const data = new Map<string, string>(value === null ? [] : [[SAVED_API_KEYS_STORAGE_KEY, value]]);
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v) };
}

describe('saved API keys', () => {
  it('round-trips the list under the fixed key', () => {
    const s = storage(null);
    saveKeys(s, [{ label: 'Mine', key: 'bpk_x', savedAt: '2026-01-01T00:00:00Z' }]);
    expect(loadSavedKeys(s)).toEqual([{ label: 'Mine', key: 'bpk_x', savedAt: '2026-01-01T00:00:00Z' }]);
  });

  it('only logs a list that cannot be loaded, and treats it as empty', () => {
    const logger = { error: vi.fn() };
    expect(loadSavedKeys(storage('{not json'), logger)).toEqual([]);
    expect(loadSavedKeys(storage('{"a":1}'), logger)).toEqual([]);
    expect(logger.error).toHaveBeenCalledTimes(2);
    expect(logger.error).toHaveBeenCalledWith('Failed to load saved API keys', expect.any(Error));
  });
});
