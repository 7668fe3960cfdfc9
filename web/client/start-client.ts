/**
 * Client start-up, kept apart from the entry so it runs in tests without a browser: checks the root
 * element, seeds the sample quote requests once, then hydrates.
 */
import { QUOTE_REQUESTS_STORAGE_KEY, SAMPLE_QUOTE_REQUESTS } from '../content/quote-requests';

export interface ClientStartDeps {
  document: Pick<Document, 'getElementById'>;
  /** A function, because merely touching `window.localStorage` throws when storage is blocked. */
  storage: () => Pick<Storage, 'getItem' | 'setItem'>;
  logger: Pick<Console, 'error'>;
  hydrate: () => void;
}

export function seedQuoteRequests(storage: Pick<Storage, 'getItem' | 'setItem'>): void {
  if (storage.getItem(QUOTE_REQUESTS_STORAGE_KEY) === null) {
    storage.setItem(QUOTE_REQUESTS_STORAGE_KEY, JSON.stringify(SAMPLE_QUOTE_REQUESTS));
  }
}

export function startClient(deps: ClientStartDeps): void {
  if (!deps.document.getElementById('root')) throw new Error('Root element not found');
  try {
    seedQuoteRequests(deps.storage());
  } catch (error) {
    deps.logger.error('Failed to initialize quote requests local storage', error);
  }
  deps.hydrate();
}
