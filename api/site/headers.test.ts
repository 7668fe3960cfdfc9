import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG } from '../../contract/site-config';
import { cspDirectives, inlineScriptHashes, permissionsPolicy, serializeCsp } from './headers';

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
    expect(csp).toContain('frame-src https://www.youtube-nocookie.com https://booking.example.com');
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  });
});

describe('permissionsPolicy', () => {
  it('turns off what the site never uses, and lets only the video host use what its player asks for', () => {
    const policy = permissionsPolicy(DEFAULT_SITE_CONFIG);
    for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb']) expect(policy).toContain(`${feature}=()`);
    expect(policy).toContain('autoplay=(self "https://www.youtube-nocookie.com")');
    expect(policy).toContain('fullscreen=(self "https://www.youtube-nocookie.com" "https://booking.example.com")');
    expect(policy).not.toContain('*');
  });
});
