/** The address of tab links: which tab a query names (with its fallback) and the link each tab carries. */
import { describe, expect, it } from 'vitest';
import { tabFromQuery, tabHref } from './Tabs';

const IDS = ['general', 'retirement', 'business'];

describe('tabFromQuery', () => {
  it('names the tab the query asks for', () => {
    expect(tabFromQuery(new URLSearchParams('tab=business'), 'tab', IDS)).toBe('business');
  });

  it('falls back to the first tab when the query is missing, unknown or empty', () => {
    for (const query of ['', 'tab=', 'tab=nope', 'tab=BUSINESS', 'other=business']) {
      expect(tabFromQuery(new URLSearchParams(query), 'tab', IDS), query).toBe('general');
    }
  });
});

describe('tabHref', () => {
  it('links to the page with only this tab chosen, then the anchor', () => {
    const link = { query: 'case', anchor: 'case-studies' };
    expect(tabHref(link, 'pre-retiree')).toBe('?case=pre-retiree#case-studies');
    expect(tabHref(link, 'business-owner')).toBe('?case=business-owner#case-studies');
  });
});
