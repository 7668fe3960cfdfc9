/**
 * The Blog API Usage Examples page and the test console in Chromium, against the real server: tabs,
 * the Test Python Request button with its banner, toast and debug output (success, and a proxy's 502),
 * the tables, the Postman download, the "Upload an image" and "Changing a published post" sections
 * (with and without JavaScript), the console's runner and remembered keys.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PATCH_RULES } from '../../contract/post-lifecycle';
import { axeViolations } from '../support/axe';
import { testSite } from '../support/site-fixture';
import { openPage, scrollToSection, waitForHydration } from '../support/page';
import { ROOT } from '../support/server';

/** The errors a change to a post can answer: each must have its entry on the page. */
const LIFECYCLE_ERRORS = ['post_gone', 'not_post_owner', 'revision_not_found', 'slug_taken', 'not_in_trash', 'precondition_failed', 'precondition_required', 'unknown_query_parameter'];

const site = testSite({ env: { SITE_URL: 'https://iul.example.com' } });

describe('Blog API Usage Examples page', () => {
  it('shows the requirements, the four tabs with Python first, and the examples with the site origin', async () => {
    const { context, page } = await openPage(site, `${site.url}/api/usage-examples`);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Blog API Usage Examples');
    const requirements = page.getByRole('table').first().locator('tbody tr');
    expect(await requirements.locator('th').allInnerTexts()).toEqual(['API Key', 'Content Format', 'Required Fields']);

    const tabs = page.getByRole('tablist', { name: 'Example language' }).getByRole('tab');
    expect(await tabs.allInnerTexts()).toEqual(['Python', 'cURL', 'Postman', 'JavaScript']);
    expect(await tabs.first().getAttribute('aria-selected')).toBe('true');
    const python = await page.getByLabel('Python example', { exact: true }).innerText();
    expect(python).toContain('requests.post(f"{BASE_URL}/api/blog", json=post');
    expect(python).toContain('"https://iul.example.com"');
    expect(python).not.toContain('localhost:3000');

    // Keyboard: arrow right moves to cURL and shows its code.
    await tabs.first().focus();
    await page.keyboard.press('ArrowRight');
    expect(await tabs.nth(1).getAttribute('aria-selected')).toBe('true');
    expect(await page.getByLabel('cURL example', { exact: true }).innerText()).toContain("-H 'Content-Type: application/json'");
    expect(await page.getByRole('button', { name: 'Test Python Request' }).count()).toBe(0);

    await tabs.nth(2).click();
    const download = page.getByRole('link', { name: /Download the Postman collection/ });
    const href = await download.getAttribute('href');
    const collection = (await (await fetch(`${site.url}${href}`)).json()) as { info: { schema: string }; variable: { key: string }[] };
    expect(collection.info.schema).toContain('v2.1.0');
    expect(collection.variable.map((v) => v.key)).toEqual(['baseUrl', 'apiKey', 'postId', 'etag', 'mediaId', 'mediaUrl']);
    await tabs.nth(3).click();
    expect(await page.getByLabel('JavaScript example', { exact: true }).innerText()).toContain("'Idempotency-Key': crypto.randomUUID()");
    await context.close();
  });

  it.each([375, 320])('gives each requirement room on a %i px phone: values break between words, nothing scrolls sideways', async (width) => {
    const context = await site.newContext({ javaScriptEnabled: false, viewport: { width, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${site.url}/api/usage-examples`);
    const table = page.getByRole('region', { name: 'Requirements table' });
    // Each <code>: its text, the lines it is laid out on (one client rect per line) and its right edge.
    const codes = await table.locator('code').evaluateAll((elements) =>
      elements.map((el) => {
        const rects = [...el.getClientRects()];
        return { text: el.textContent ?? '', lines: rects.length, right: Math.max(...rects.map((r) => r.right)) };
      }),
    );
    expect(codes.map((code) => code.text)).toEqual(['Authorization: Bearer <your key>', 'JSON with Content-Type: application/json', 'title, content, excerpt, category, author.name, status']);
    for (const code of codes) {
      if (code.text.length > 10) expect(code.text.length / code.lines, `${code.text} on ${code.lines} lines`).toBeGreaterThanOrEqual(10);
      expect(code.right, code.text).toBeLessThanOrEqual(width);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    expect(await table.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    // Laid out as blocks, it is still a table to a screen reader: each requirement a row headed by its name.
    const cdp = await context.newCDPSession(page);
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: Array<{ role?: { value?: string }; name?: { value?: string } }> };
    const roles = nodes.map((node) => `${node.role?.value ?? ''} ${node.name?.value ?? ''}`.trim());
    expect(roles).toContain('table What every request needs');
    for (const name of ['API Key', 'Content Format', 'Required Fields']) expect(roles).toContain(`rowheader ${name}`);
    await context.close();
  });

  it('lists the common errors of the catalogue plus 413, 415 and 429, and the response format', async () => {
    const { context, page } = await openPage(site, `${site.url}/api/usage-examples`);
    // Far down the page: laid out once scrolled near (content-visibility), as a reader scrolls.
    await scrollToSection(page.getByTestId('common-errors'));
    const statuses = await page.getByTestId('common-errors').locator('tbody th').allInnerTexts();
    expect(statuses).toEqual(['400', '401', '403', '405', '413', '415', '429', '500']);
    const sample = await page.getByLabel('Response format', { exact: true }).innerText();
    expect(JSON.parse(sample)).toMatchObject({ success: true, post: { slug: expect.any(String), created_at: expect.any(String), status: 'draft' } });
    await context.close();
  });

  it('runs the Python test for real and shows the green banner, the toast and the debug output', async () => {
    const { context, page, errors } = await openPage(site, `${site.url}/api/usage-examples`);
    expect(await page.getByTestId('test-banner').count()).toBe(0);
    const started = Date.now();
    await page.getByRole('button', { name: 'Test Python Request' }).click();
    const banner = page.getByTestId('test-banner');
    await banner.waitFor();
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    expect(await banner.getByRole('heading').innerText()).toBe('API Test Successful');
    expect(await banner.innerText()).toContain('the API accepts this payload');
    expect(await page.getByTestId('toasts').innerText()).toContain('Python request simulation successful');
    const debug = await page.getByLabel('Debug output of the Python test', { exact: true }).innerText();
    expect(debug).toContain('> POST http://127.0.0.1');
    expect(debug).toContain('/api/blog/validate');
    expect(debug).toContain('< 200');
    expect(debug).toContain('"valid":true');
    // Nothing was saved by the test.
    expect(await site.server.store.posts.counts()).toEqual({ published: 0, drafts: 0, scheduled: 0, inReview: 0, trashed: 0 });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the red banner with the steps when a proxy answers with an HTML 502', async () => {
    const { context, page } = await openPage(site, `${site.url}/api/usage-examples`);
    await page.route('**/api/blog/validate**', (route) =>
      route.fulfill({ status: 502, contentType: 'text/html', body: '<html><body>502 Bad Gateway</body></html>' }),
    );
    await page.getByRole('button', { name: 'Test Python Request' }).click();
    const banner = page.getByTestId('test-banner');
    await banner.waitFor();
    expect(await banner.getByRole('heading').innerText()).toBe('API Test Failed');
    expect(await banner.innerText()).toContain('Failed to parse response: <html><body>502 Bad Gateway</body></html> (status 502)');
    expect(await page.getByTestId('toasts').innerText()).toContain('Python request simulation failed: Failed to parse response');
    await context.close();
  });

  it('shows the failure guidance as a list of steps when the API refuses the payload', async () => {
    const { context, page } = await openPage(site, `${site.url}/api/usage-examples`);
    await page.route('**/api/blog/validate**', async (route) => {
      const response = await route.fetch({ postData: '{"title":"Only a title"}' });
      await route.fulfill({ response });
    });
    await page.getByRole('button', { name: 'Test Python Request' }).click();
    const banner = page.getByTestId('test-banner');
    await banner.waitFor();
    expect(await banner.getByRole('heading').innerText()).toBe('API Test Failed');
    const steps = await banner.getByRole('listitem').allInnerTexts();
    expect(steps).toContain('content: content is required');
    expect(steps.some((s) => s.includes('Include all required fields'))).toBe(true);
    await context.close();
  });

  it('explains changing a post: the flow, the merge rules, 428 and 412, the tested examples, the operations and the OpenAPI link', async () => {
    const { context, page, errors } = await openPage(site, `${site.url}/api/usage-examples`);
    const section = page.getByRole('region', { name: 'Changing a published post' });
    await scrollToSection(section);
    expect(await section.getByRole('listitem').first().innerText()).toContain('GET /api/blog/:id and keep the ETag header');
    expect(await section.getByRole('list', { name: 'How PATCH merges' }).getByRole('listitem').allInnerTexts()).toEqual([...PATCH_RULES]);
    const conflicts = await section.locator('dt').allInnerTexts();
    expect(conflicts).toEqual(['428 precondition_required', '412 precondition_failed']);
    for (const code of ['precondition_required', 'precondition_failed']) {
      expect(await page.locator(`#error-${code}`).count(), code).toBe(1);
    }

    // Python is open; the code is the tested file, with the site's origin.
    const python = page.getByLabel('Python update example', { exact: true });
    expect(await python.isVisible()).toBe(true);
    const file = readFileSync(path.join(ROOT, 'docs/examples/update_post.py'), 'utf8');
    expect(await python.textContent()).toBe(file.replaceAll('http://localhost:3000', 'https://iul.example.com'));
    const curl = page.getByLabel('cURL update example', { exact: true });
    expect(await curl.isVisible()).toBe(false);
    await section.getByText('cURL: update-post.sh').click();
    expect(await curl.isVisible()).toBe(true);
    expect(await curl.innerText()).toContain('-H "If-Match: $etag"');
    await section.getByText('JavaScript: update-post.mjs').click();
    expect(await page.getByLabel('JavaScript update example', { exact: true }).innerText()).toContain("'If-Match': etag");

    const operations = page.getByTestId('post-operations').locator('tbody tr');
    const rows = await operations.evaluateAll((trs) => trs.map((tr) => `${tr.querySelector('th')?.textContent ?? ''} ${tr.querySelector('code')?.textContent ?? ''}`));
    expect(rows).toEqual([
      'GET /api/blog/:idOrSlug',
      'PATCH /api/blog/:id',
      'PUT /api/blog/:id',
      'DELETE /api/blog/:id',
      'POST /api/blog/:id/restore',
      'GET /api/blog/:id/revisions',
      'GET /api/blog/:id/revisions/:n',
      'POST /api/blog/:id/revisions/:n/revert',
      'GET /api/blog?mine=1',
    ]);
    expect(await page.getByTestId('post-operations').innerText()).toContain('blog:admin');
    const openapi = section.getByRole('link', { name: 'OpenAPI 3.1 document' });
    expect(await openapi.getAttribute('href')).toBe('/api/openapi.json');
    expect(await section.innerText()).toContain('OpenAPI 3.1 document: import it in Postman or generate a client.');

    // Every error a change can answer has its entry (the `type` link of an error body points there).
    for (const code of LIFECYCLE_ERRORS) expect(await page.locator(`li#error-${code}`).count(), code).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows how to upload an image: the steps, the three tested examples with the site origin, the answer, a post with cover_image, the errors', async () => {
    const { context, page, errors } = await openPage(site, `${site.url}/api/usage-examples`);
    const section = page.getByRole('region', { name: 'Upload an image' });
    await scrollToSection(section);
    expect(await section.getByRole('listitem').first().innerText()).toContain('POST /api/media');
    expect(await section.innerText()).toContain('POST https://iul.example.com/api/media');

    const python = page.getByLabel('Python image example', { exact: true });
    expect(await python.isVisible()).toBe(true);
    const file = readFileSync(path.join(ROOT, 'docs/examples/upload_image.py'), 'utf8');
    expect(await python.textContent()).toBe(file.replaceAll('http://localhost:3000', 'https://iul.example.com'));
    expect(await python.textContent()).toContain('files={"file":');
    await section.getByText('cURL: upload-image.sh').click();
    expect(await page.getByLabel('cURL image example', { exact: true }).innerText()).toContain('-F "file=@$1"');
    await section.getByText('JavaScript: upload-image.mjs').click();
    expect(await page.getByLabel('JavaScript image example', { exact: true }).innerText()).toContain("form.append('file', new Blob(");

    const answer = JSON.parse(await page.getByLabel('Image upload answer', { exact: true }).innerText()) as { id: string; url: string };
    expect(answer.url).toBe(`/media/${answer.id}-960.png`);
    const post = JSON.parse(await page.getByLabel('Post with a cover image', { exact: true }).innerText()) as { content: string; cover_image: string; cover_image_alt: string };
    expect(post.cover_image).toBe(answer.id);
    expect(post.cover_image_alt).not.toBe('');
    expect(post.content).toContain(`<img src="${answer.url}" alt="`);

    const refusals = section.getByRole('list', { name: 'When an image is refused' }).getByRole('link');
    expect(await refusals.allInnerTexts()).toEqual(['413 media_too_large', '415 unsupported_image', '422 image_unreadable', '422 image_too_many_pixels', '409 media_in_use']);
    for (const code of ['media_too_large', 'unsupported_image', 'image_unreadable', 'image_too_many_pixels', 'media_in_use']) {
      expect(await page.locator(`li#error-${code}`).count(), code).toBe(1);
    }
    // Axe runs over the whole page, this section included, in the accessibility test below.
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the whole update section without JavaScript, the other languages one click away', async () => {
    const context = await site.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${site.url}/api/usage-examples`);
    const section = page.getByRole('region', { name: 'Changing a published post' });
    // No requestAnimationFrame without JavaScript: scroll, then wait for the frame that lays the
    // section out (it is skipped until it nears the viewport, content-visibility).
    await section.scrollIntoViewIfNeeded();
    await page.getByLabel('Python update example', { exact: true }).waitFor({ state: 'visible' });
    await section.getByText('cURL: update-post.sh').click();
    expect(await page.getByLabel('cURL update example', { exact: true }).innerText()).toContain('-X PATCH');
    await section.getByText('Delete and restore with cURL').click();
    expect(await page.getByLabel('cURL delete and restore example', { exact: true }).innerText()).toContain('/restore');
    expect(await page.getByTestId('post-operations').locator('tbody tr').count()).toBe(9);
    const images = page.getByRole('region', { name: 'Upload an image' });
    await images.scrollIntoViewIfNeeded();
    await page.getByLabel('Python image example', { exact: true }).waitFor({ state: 'visible' });
    await images.getByText('cURL: upload-image.sh').click();
    expect(await page.getByLabel('cURL image example', { exact: true }).innerText()).toContain('/api/media');
    await context.close();
  });

  it('has no accessibility violations, before and after a test, wide and narrow', async () => {
    const { context, page } = await openPage(site, `${site.url}/api/usage-examples`);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Test Python Request' }).click();
    await page.getByTestId('test-banner').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });
});

describe('API test console', () => {
  it('runs every test type against the server and logs each result', async () => {
    const { context, page } = await openPage(site, `${site.url}/api/test-console`);
    await page.getByRole('button', { name: 'Run all tests' }).click();
    const results = page.getByTestId('console-results').locator(':scope > li');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="console-results"] > li').length === 5, undefined, { timeout: 20_000 });
    const outcomes = await results.evaluateAll((items) => items.map((li) => `${li.getAttribute('data-test-type')}:${li.getAttribute('data-success')}`));
    expect(outcomes.sort()).toEqual(['cors:true', 'dataParam:true', 'postman:true', 'postmanFix:true', 'python:true']);
    const log = await page.getByLabel('Test log', { exact: true }).innerText();
    expect(log.split('\n')).toHaveLength(5);
    expect(log).toMatch(/python \[200\] PASS/);

    await page.getByLabel('Test type').selectOption('reset');
    await page.getByRole('button', { name: 'Run test' }).click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="console-results"] > li').length === 6);
    expect(await results.first().innerText()).toMatch(/reset: passed Test state cleared \(\d+ stored values removed\)/);
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('blogApiTest.')))).toEqual([]);
    expect(await site.server.store.posts.counts()).toEqual({ published: 0, drafts: 0, scheduled: 0, inReview: 0, trashed: 0 });
    await context.close();
  });

  it('remembers a key only when asked, and only logs a stored list it cannot read', async () => {
    const key = await site.server.createKey('console');
    const { context, page, errors } = await openPage(site, `${site.url}/api/test-console`);
    await page.getByLabel('API key (optional)').fill(key);
    await page.getByLabel('Test type').selectOption('python');
    await page.getByRole('button', { name: 'Run test' }).click();
    await page.getByTestId('console-results').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('blog-api-keys'))).toBeNull();

    await page.getByLabel('Remember my key in this browser').check();
    await page.getByRole('button', { name: 'Run test' }).click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="console-results"] > li').length === 2);
    const stored = JSON.parse((await page.evaluate(() => localStorage.getItem('blog-api-keys'))) ?? '[]') as { key: string }[];
    expect(stored.map((s) => s.key)).toEqual([key]);
    expect(await page.getByLabel('Remembered keys').locator('option').count()).toBe(2);
    // "Validate only" is on by default: the key was checked, nothing was created.
    expect(await site.server.store.posts.counts()).toEqual({ published: 0, drafts: 0, scheduled: 0, inReview: 0, trashed: 0 });

    await page.evaluate(() => localStorage.setItem('blog-api-keys', '{broken'));
    await page.reload();
    await waitForHydration(page);
    expect(await page.getByLabel('Remembered keys').count()).toBe(0);
    expect(errors.some((e) => e.includes('Failed to load saved API keys'))).toBe(true);
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });
});
