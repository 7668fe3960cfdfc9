import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SiteConfigError } from '../../contract/site-config-env';
import { describeProxyTrust, parseProxyTrust } from './proxy-trust';

describe('parseProxyTrust (TRUST_PROXY)', () => {
  it('is off unless set', () => {
    for (const text of [undefined, '', '  ', 'off', 'OFF', 'false', 'no', '0']) expect(parseProxyTrust(text), String(text)).toEqual({ kind: 'off' });
  });

  it('takes a hop count', () => {
    expect(parseProxyTrust('1')).toEqual({ kind: 'hops', hops: 1 });
    expect(parseProxyTrust(' 2 ')).toEqual({ kind: 'hops', hops: 2 });
    expect(describeProxyTrust(parseProxyTrust('1'))).toContain('the proxy in front');
  });

  it('takes addresses, subnets and range names, comma-separated', () => {
    expect(parseProxyTrust('127.0.0.1, 10.0.0.0/8,::1, loopback,uniquelocal')).toEqual({
      kind: 'addresses',
      addresses: ['127.0.0.1', '10.0.0.0/8', '::1', 'loopback', 'uniquelocal'],
    });
  });

  it('refuses "trust everyone", which would believe any client', () => {
    for (const text of ['true', 'on', 'yes']) expect(() => parseProxyTrust(text)).toThrow(/would believe any client's X-Forwarded-For. Set TRUST_PROXY to the number of proxies/);
  });

  it('names the entry that is not an address', () => {
    expect(() => parseProxyTrust('127.0.0.1, nginx.internal')).toThrow(/TRUST_PROXY: "nginx.internal" is not an address, a subnet or a range name/);
    expect(() => parseProxyTrust('10.0.0.0/40')).toThrow(SiteConfigError);
    expect(() => parseProxyTrust('11')).toThrow(/more proxies than any deployment has/);
  });

  it('gives any text a setting or a SiteConfigError that says what to set, never another error', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        try {
          const trust = parseProxyTrust(text);
          expect(['off', 'hops', 'addresses']).toContain(trust.kind);
        } catch (error) {
          expect(error).toBeInstanceOf(SiteConfigError);
          expect((error as Error).message).toContain('TRUST_PROXY');
        }
      }),
    );
  });
});
