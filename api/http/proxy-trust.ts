/**
 * TRUST_PROXY: whose word the server takes for the visitor's address, scheme and host. Behind a load
 * balancer or nginx terminating TLS, the server sees the proxy's address and plain `http`; the proxy
 * says what it saw in X-Forwarded-For, X-Forwarded-Proto and X-Forwarded-Host. Those headers are
 * believed only from a trusted proxy, decided here once for every request, before anything reads them:
 *
 * - off (the default): the connection's own address, scheme and Host; X-Forwarded-* are ignored.
 * - a hop count (`1`: one proxy in front): the last N addresses of the chain are proxies.
 * - addresses (`127.0.0.1`, `10.0.0.0/8`, `loopback`, `uniquelocal`, comma-separated, as Express's
 *   `trust proxy` takes them): a hop is a proxy when its address is one of them.
 *
 * A request whose connection does not come from a trusted proxy has its X-Forwarded-* headers removed,
 * so a forged one changes nothing. Then Koa's `ctx.ip`, `ctx.protocol`, `ctx.secure` and `ctx.host` are
 * the visitor's, and every part that uses them (the forms' origin checks, `Secure` and `__Host-`
 * cookies, absolute URLs, the rate limits, the quote form's and the sign-in's throttles, the request
 * log) sees the visitor, not the proxy. The address comes from `proxy-addr`, Express's own reading of
 * the chain: the nearest address that is not a trusted proxy.
 */
import type Koa from 'koa';
import proxyAddr from 'proxy-addr';
import { SiteConfigError } from '../../contract/site-config-env';

export type ProxyTrust = { kind: 'off' } | { kind: 'hops'; hops: number } | { kind: 'addresses'; addresses: readonly string[] };

export const NO_PROXY: ProxyTrust = { kind: 'off' };

/** The headers a trusted proxy sets and anyone else may forge. */
const FORWARDED_HEADERS = ['x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'x-forwarded-port', 'forwarded'] as const;

const SETTING_HELP =
  'Set TRUST_PROXY to the number of proxies in front of the server (1 for one nginx or load balancer), or to their addresses (e.g. 127.0.0.1 or 10.0.0.0/8, comma-separated; loopback, linklocal and uniquelocal name those ranges), or leave it unset when clients connect directly.';

/** TRUST_PROXY as set: unset, empty, `off`, `false`, `no` or `0` turn trust off. */
export function parseProxyTrust(text: string | undefined): ProxyTrust {
  const value = text?.trim() ?? '';
  if (value === '' || /^(off|false|no|0)$/i.test(value)) return NO_PROXY;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops === 0) return NO_PROXY;
    if (hops > 10) throw new SiteConfigError(`TRUST_PROXY=${value} is more proxies than any deployment has. ${SETTING_HELP}`);
    return { kind: 'hops', hops };
  }
  if (/^(on|true|yes)$/i.test(value)) {
    throw new SiteConfigError(`TRUST_PROXY=${value} would believe any client's X-Forwarded-For. ${SETTING_HELP}`);
  }
  const addresses = value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  if (addresses.length === 0) throw new SiteConfigError(`TRUST_PROXY="${value}" names no proxy. ${SETTING_HELP}`);
  for (const address of addresses) {
    try {
      proxyAddr.compile(address);
    } catch (error) {
      throw new SiteConfigError(`TRUST_PROXY: "${address}" is not an address, a subnet or a range name (${error instanceof Error ? error.message : String(error)}). ${SETTING_HELP}`);
    }
  }
  return { kind: 'addresses', addresses };
}

/** What the start-up log says. */
export function describeProxyTrust(trust: ProxyTrust): string {
  switch (trust.kind) {
    case 'off':
      return 'no proxy trusted (TRUST_PROXY unset): X-Forwarded-* headers are ignored';
    case 'hops':
      return `X-Forwarded-* trusted from the ${trust.hops === 1 ? 'proxy' : `${trust.hops} proxies`} in front (TRUST_PROXY=${trust.hops})`;
    case 'addresses':
      return `X-Forwarded-* trusted from ${trust.addresses.join(', ')} (TRUST_PROXY)`;
  }
}

/** Whether the `hop`th address from the connection (0: the connection itself) is a trusted proxy. */
function trustFunction(trust: Exclude<ProxyTrust, { kind: 'off' }>): (address: string, hop: number) => boolean {
  if (trust.kind === 'hops') return (_address, hop) => hop < trust.hops;
  return proxyAddr.compile([...trust.addresses]);
}

/**
 * Sets `app.proxy` and returns the middleware that goes first: it removes forwarded headers that no
 * trusted proxy sent and sets `ctx.ip` to the visitor's address.
 */
export function trustProxies(app: Koa, trust: ProxyTrust): Koa.Middleware {
  app.proxy = trust.kind !== 'off';
  const trusted = trust.kind === 'off' ? () => false : trustFunction(trust);
  return (ctx, next) => {
    const peer = ctx.req.socket.remoteAddress ?? '';
    if (!trusted(peer, 0)) {
      for (const name of FORWARDED_HEADERS) Reflect.deleteProperty(ctx.req.headers, name);
      ctx.request.ip = peer;
    } else {
      ctx.request.ip = proxyAddr(ctx.req, trusted);
    }
    return next();
  };
}

/** This site's origin as the visitor reached it (Koa 3's ctx.origin reads the Origin header instead). */
export function ownOrigin(ctx: Pick<Koa.Context, 'protocol' | 'host'>): string {
  return `${ctx.protocol}://${ctx.host}`;
}
