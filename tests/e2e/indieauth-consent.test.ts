/**
 * IndieAuth's consent page in Chromium, with and without JavaScript, as a staff member meets it when a
 * writing app sends them: the authorization URL leads to the sign-in page, the sign-in comes back to
 * the consent page naming the app and what it may do, and Allow sends the browser to the app's
 * redirect_uri with a code the app can exchange (the app's side is answered by the test).
 */
import { createHash, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { signInOnPage } from '../support/page';
import { testSite } from '../support/site-fixture';

const EMAIL = 'writer@example.com';
const PASSWORD = 'a long and private passphrase 9';
const CLIENT_ID = 'https://writer.example/';
const REDIRECT_URI = 'https://writer.example/callback';

const site = testSite({ api: { writesPerMinute: 0 } });

beforeAll(async () => {
  await site.server.createStaff(EMAIL, PASSWORD, 'Wren Writer');
});

describe('the IndieAuth consent page', () => {
  for (const js of [false, true]) {
    it(`signs in, names the app and its scopes, and Allow hands the app a code (JavaScript ${js ? 'on' : 'off'})`, async () => {
      const verifier = randomBytes(48).toString('base64url');
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      const context = await site.newContext({ javaScriptEnabled: js });
      context.setDefaultTimeout(15_000);
      // The app's own page, where the browser lands after the decision.
      await context.route('https://writer.example/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!DOCTYPE html><title>Writer</title><p>Signed in.</p>' }));
      const page = await context.newPage();
      const query = new URLSearchParams({ response_type: 'code', client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, state: `state-${js}`, code_challenge: challenge, code_challenge_method: 'S256', scope: 'create update media' });
      await page.goto(`${site.url}/admin/indieauth?${query.toString()}`);
      expect(new URL(page.url()).pathname).toBe('/admin/login');
      await signInOnPage(page, EMAIL, PASSWORD);
      expect(new URL(page.url()).pathname).toBe('/admin/indieauth');
      await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Allow writer.example to use this site as you?');
      const scopes = await page.getByRole('listitem').allInnerTexts();
      expect(scopes).toEqual(['create: publish new posts in your name', 'update: change your posts', 'media: upload images']);
      await page.getByRole('button', { name: 'Allow' }).click();
      await page.waitForURL((url) => url.origin === 'https://writer.example');
      const back = new URL(page.url());
      expect(back.pathname).toBe('/callback');
      expect(back.searchParams.get('state')).toBe(`state-${js}`);
      const token = await fetch(`${site.url}/indieauth/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'authorization_code', code: back.searchParams.get('code') ?? '', client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, code_verifier: verifier }).toString(),
      });
      expect(token.status).toBe(200);
      expect(((await token.json()) as { scope: string }).scope).toBe('create update media');
    });
  }
});
