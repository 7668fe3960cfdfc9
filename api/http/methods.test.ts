import { describe, expect, it } from 'vitest';
import { closestEndpoint, isValidHost } from './methods';

describe('closestEndpoint', () => {
  it.each([
    ['/api/blogs', '/api/blog'],
    ['/api/post', '/api/blog'],
    ['/api/Blog/', '/api/blog'],
    ['/api/blog/x/y', '/api/blog'],
    ['/api/blog/validate/x', '/api/blog/validate'],
    ['/api/categories', '/api/blog/categories'],
    ['/api/healthz', '/api/health'],
  ])('%s -> %s', (path, endpoint) => {
    expect(closestEndpoint(path)).toBe(endpoint);
  });
});

describe('isValidHost', () => {
  it('accepts names, IPv4 and bracketed IPv6 addresses, with or without a port', () => {
    for (const host of ['localhost', 'localhost:3000', 'www.example.com', 'xn--bcher-kva.example', '127.0.0.1:80', '[::1]', '[::1]:3000']) {
      expect(isValidHost(host), host).toBe(true);
    }
  });

  it('refuses what is not a host', () => {
    for (const host of ['', 'a b', 'a/b', 'a?b', 'a#b', 'u@a', 'a:', 'a:99999', 'a:x', '[::1', '::1', 'a<b', 'a\\b', 'bücher.example']) {
      expect(isValidHost(host), host).toBe(false);
    }
  });
});
