/** The sample quote requests seeded into the browser's local storage (SPEC section 3). */
import samples from '../../fixtures/quote-requests.json';
import type { QuoteRequest } from './quote-request-schema';

export const QUOTE_REQUESTS_STORAGE_KEY = 'quote-requests';

// Checked against quoteRequestSchema by a unit test, so the browser bundle carries no validator.
export const SAMPLE_QUOTE_REQUESTS = samples as readonly QuoteRequest[];
