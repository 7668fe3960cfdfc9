/**
 * Security headers of pages and files (helmet's): the Content-Security-Policy allows scripts only from
 * this origin plus the exact inline scripts a rendered page carries (by hash, so cached HTML and its
 * ETag stay valid), and frames only from the embeddable video hosts (contract/media.ts, the same list
 * the sanitiser lets posts embed) and the booking-form origin. The JSON API has its own set
 * (api/http/headers.ts).
 */
import { createHash } from 'node:crypto';
import type { Middleware } from 'koa';
import helmet from 'koa-helmet';
import { EMBEDDABLE_VIDEO_HOSTS } from '../../contract/media';
import type { SiteConfig } from '../../contract/site-config';
import { HSTS_MAX_AGE_SECONDS } from '../http/headers';

type Directives = Record<string, string[]>;

/**
 * The origins pages may frame: every embeddable video host (so a video a post embeds plays), the
 * site's own player host (SITE_VIDEO_HOST, by default one of them) and the booking form.
 */
export function frameSources(config: SiteConfig): string[] {
  return [...new Set([...videoOrigins(config), new URL(config.bookingFormUrl).origin])];
}

/** The video players' origins: the embeddable hosts, and SITE_VIDEO_HOST. */
function videoOrigins(config: SiteConfig): string[] {
  return [...new Set([new URL(config.videoHost).origin, ...EMBEDDABLE_VIDEO_HOSTS.map((host) => `https://${host}`)])];
}

export function cspDirectives(config: SiteConfig, scriptHashes: readonly string[] = []): Directives {
  const bookingScript = new URL(config.bookingScriptUrl).origin;
  const video = new URL(config.videoHost).origin;
  return {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'script-src': ["'self'", ...scriptHashes.map((h) => `'${h}'`), bookingScript],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'https://i.ytimg.com', video],
    'frame-src': frameSources(config),
    'frame-ancestors': ["'self'"],
    'form-action': ["'self'"],
    'object-src': ["'none'"],
    'upgrade-insecure-requests': [],
  };
}

export function serializeCsp(directives: Directives): string {
  return Object.entries(directives)
    .map(([name, values]) => [name, ...new Set(values)].join(' '))
    .join('; ');
}

/** Hashes of the executable inline scripts of a page React rendered (JSON-LD data blocks excluded). */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attributes = match[1] ?? '';
    const body = match[2] ?? '';
    if (/\bsrc\s*=/i.test(attributes) || /type\s*=\s*"application\/ld\+json"/i.test(attributes) || body === '') continue;
    hashes.push(`sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}`);
  }
  return hashes;
}

/**
 * Permissions-Policy: the powerful features the site never uses, off for it and every frame in it.
 * Only features Chromium knows are named (an unknown one is a console error on every page). What a
 * video player's iframe needs (autoplay, full screen, ...) is not listed: those features are allowed
 * to this origin by default, and the player's `allow` attribute (VideoFacade, and a post's embed,
 * whose host the sanitiser checks) hands them to its frame; which frames a page may hold at all is
 * the CSP's frame-src. Listing them here with every video host's origin cost 780 bytes on every
 * answer for no difference in what a frame may do (issue 39).
 */
export const PERMISSIONS_POLICY = ['camera', 'microphone', 'geolocation', 'payment', 'usb', 'magnetometer', 'midi', 'display-capture'].map((feature) => `${feature}=()`).join(', ');

export function pageHeaders(config: SiteConfig, options: { csp: boolean }): Middleware {
  const secured = helmet({
    contentSecurityPolicy: options.csp ? { useDefaults: false, directives: cspDirectives(config) } : false,
    strictTransportSecurity: { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: true },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
    // The booking form and video players open popups of their own.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    // The policy's frame-ancestors 'self' is what browsers obey; X-Frame-Options is only for a policy-less answer.
    xFrameOptions: options.csp ? false : { action: 'sameorigin' },
    // Headers no browser in use needs: the XSS auditor's switch (helmet sends "0" to keep a removed
    // filter off), Internet Explorer 8's download option, Adobe Flash's cross-domain policy, and the
    // DNS-prefetch switch (browsers do not prefetch the links of an HTTPS page unless it asks to).
    xDnsPrefetchControl: false,
    xXssProtection: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
  });
  return async (ctx, next) => {
    ctx.set('Permissions-Policy', PERMISSIONS_POLICY);
    await secured(ctx, next);
  };
}
