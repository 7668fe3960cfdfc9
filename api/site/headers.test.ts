import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { EMBEDDABLE_VIDEO_HOSTS } from '../../contract/media';
import { DEFAULT_SITE_CONFIG } from '../../contract/site-config';
import { sanitizeContent } from '../services/sanitize';
import { cspDirectives, inlineScriptHashes, PERMISSIONS_POLICY, serializeCsp } from './headers';

const sha = (body: string) => `sha256-${createHash('sha256').update(body).digest('base64')}`;

describe('inlineScriptHashes', () => {
  it('hashes executable inline scripts only', () => {
    const html = [
      '<script>window.a = 1;</script>',
      '<script type="module">import("/assets/x.js");</script>',
      '<script type="application/ld+json">{"@type":"Thing"}</script>',
      '<script src="/assets/entry.js"></script>',
      '<script async="" src="https://booking.example.com/x.js"></script>',
    ].join('');
    expect(inlineScriptHashes(html)).toEqual([sha('window.a = 1;'), sha('import("/assets/x.js");')]);
  });
});

describe('cspDirectives', () => {
  it('allows scripts from this origin and the hashed inline scripts, frames from the video and booking hosts', () => {
    const csp = serializeCsp(cspDirectives(DEFAULT_SITE_CONFIG, ['sha256-abc']));
    expect(csp).toContain("script-src 'self' 'sha256-abc' https://booking.example.com");
    expect(csp).toContain('frame-src https://www.youtube-nocookie.com https://www.youtube.com https://player.vimeo.com https://booking.example.com;');
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  });
});

describe('embeds', () => {
  const frameSrc = cspDirectives(DEFAULT_SITE_CONFIG)['frame-src'] ?? [];
  const booking = new URL(DEFAULT_SITE_CONFIG.bookingFormUrl).origin;
  const embeds = (host: string) => sanitizeContent(`<p>v</p><iframe src="https://${host}/embed/abc" title="Video"></iframe>`);

  it('are allowed from exactly the hosts the pages\' frame-src allows, besides the booking form', () => {
    expect(frameSrc.filter((origin) => origin !== booking).sort()).toEqual(EMBEDDABLE_VIDEO_HOSTS.map((host) => `https://${host}`).sort());
    for (const host of EMBEDDABLE_VIDEO_HOSTS) expect(embeds(host)).toEqual({ html: `<p>v</p><iframe src="https://${host}/embed/abc" title="Video"></iframe>`, warnings: [] });
  });

  it('from any other host, the booking form\'s included, are removed with the list of video hosts', () => {
    for (const host of [new URL(booking).hostname, 'vimeo.com', 'youtube.com', 'evil.example']) {
      expect(embeds(host)).toEqual({
        html: '<p>v</p>',
        warnings: [`Removed <iframe> from a host that is not allowed (${host}): embed videos from ${EMBEDDABLE_VIDEO_HOSTS.join(', ')}`],
      });
    }
  });
});

describe('PERMISSIONS_POLICY', () => {
  it('turns off what the site never uses, and names nothing else', () => {
    expect(PERMISSIONS_POLICY).toBe('camera=(), microphone=(), geolocation=(), payment=(), usb=(), magnetometer=(), midi=(), display-capture=()');
  });
});
