/** The header menu's link addresses: an anchor of the page being read gets an address the browser loads. */
import { describe, expect, it } from 'vitest';
import { menuLinkHref } from './Header';

describe('menuLinkHref', () => {
  it('gives an anchor of the page being read the from=menu query, and takes it away on that page', () => {
    expect(menuLinkHref('/#benefits', { pathname: '/', search: '' })).toBe('/?from=menu#benefits');
    expect(menuLinkHref('/#benefits', { pathname: '/', search: '?from=menu' })).toBe('/#benefits');
  });

  it('keeps every other link as it is: another page, another query, or no anchor', () => {
    expect(menuLinkHref('/#benefits', { pathname: '/faq', search: '' })).toBe('/#benefits');
    expect(menuLinkHref('/#benefits', { pathname: '/', search: '?annualContribution=20000' })).toBe('/#benefits');
    expect(menuLinkHref('/faq', { pathname: '/faq', search: '' })).toBe('/faq');
  });
});
