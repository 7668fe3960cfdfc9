import { describe, expect, it, vi } from 'vitest';
import { quoteRequestSchema } from '../content/quote-request-schema';
import { QUOTE_REQUESTS_STORAGE_KEY, SAMPLE_QUOTE_REQUESTS } from '../content/quote-requests';
import { startClient } from './start-client';

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
    data,
  };
}

const withRoot = { getElementById: (id: string) => (id === 'root' ? ({} as HTMLElement) : null) };

describe('startClient', () => {
  it('fails with "Root element not found" when the page has no root element, before hydrating', () => {
    const hydrate = vi.fn();
    expect(() =>
      startClient({ document: { getElementById: () => null }, storage: () => memoryStorage(), logger: console, hydrate }),
    ).toThrow('Root element not found');
    expect(hydrate).not.toHaveBeenCalled();
  });

  it('seeds the two sample quote requests when none exist, then hydrates', () => {
    const storage = memoryStorage();
    const hydrate = vi.fn();
    startClient({ document: withRoot, storage: () => storage, logger: console, hydrate });
    const seeded = JSON.parse(storage.data.get(QUOTE_REQUESTS_STORAGE_KEY) ?? '[]') as unknown[];
    expect(seeded).toHaveLength(2);
    expect(hydrate).toHaveBeenCalledOnce();
  });

  it('never overwrites quote requests that are already stored', () => {
    const storage = memoryStorage({ [QUOTE_REQUESTS_STORAGE_KEY]: '[{"id":"mine"}]' });
    startClient({ document: withRoot, storage: () => storage, logger: console, hydrate: vi.fn() });
    expect(storage.data.get(QUOTE_REQUESTS_STORAGE_KEY)).toBe('[{"id":"mine"}]');
  });

  it('only logs when storage is unavailable, and still hydrates', () => {
    const logger = { error: vi.fn() };
    const hydrate = vi.fn();
    startClient({
      document: withRoot,
      storage: () => {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
      logger,
      hydrate,
    });
    expect(logger.error).toHaveBeenCalledWith('Failed to initialize quote requests local storage', expect.any(DOMException));
    expect(hydrate).toHaveBeenCalledOnce();
  });
});

describe('sample quote requests', () => {
  it('match the record schema of SPEC section 3', () => {
    for (const record of SAMPLE_QUOTE_REQUESTS) expect(quoteRequestSchema.parse(record)).toEqual(record);
    expect(SAMPLE_QUOTE_REQUESTS.map((r) => r.annualContribution)).toEqual([10000, 15000]);
    expect(SAMPLE_QUOTE_REQUESTS.map((r) => r.currentRetirementSavings)).toEqual([250000, 350000]);
    expect(SAMPLE_QUOTE_REQUESTS.map((r) => r.healthRating)).toEqual(['excellent', 'good']);
    expect(SAMPLE_QUOTE_REQUESTS.map((r) => r.status)).toEqual(['new', 'in-progress']);
  });
});
