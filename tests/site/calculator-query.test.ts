/**
 * The home page's calculator answered by the server, as a visitor without JavaScript (or a checker)
 * gets it: `GET /?annualContribution=...&years=...` is complete HTML with the figures for those inputs,
 * or the message for each wrong one, the inputs keeping their values; any query string answers 200.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALCULATOR_FIELDS, calculateGrowth, formatDollars } from '../../web/content/calculator';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

async function home(query: string): Promise<{ status: number; html: string; cacheControl: string | null }> {
  const res = await fetch(`${server.url}/?${query}`);
  return { status: res.status, html: await res.text(), cacheControl: res.headers.get('cache-control') };
}

/** The text of the element with this data-testid ('' when absent). */
function testIdText(html: string, testId: string): string {
  const match = new RegExp(`data-testid="${testId}"[^>]*>([\\s\\S]*?)</(?:p|strong|td)>`).exec(html);
  return (match?.[1] ?? '').replace(/<[^>]*>/g, '');
}

/** The value attribute of the calculator's input for this field. */
function inputValue(html: string, field: string): string | undefined {
  const input = new RegExp(`<input[^>]*data-testid="calculator-${field}"[^>]*>`).exec(html)?.[0] ?? '';
  return /value="([^"]*)"/.exec(input)?.[1];
}

describe('GET / with the calculator inputs', () => {
  it('is a real form: GET to the section, named inputs and a Calculate button', async () => {
    const { html } = await home('');
    const form = /<form[^>]*data-testid="calculator-form"[^>]*>/.exec(html)?.[0] ?? '';
    expect(form).toContain('method="get"');
    expect(form).toContain('action="/#calculator"');
    expect(html).toContain('id="calculator"');
    for (const field of CALCULATOR_FIELDS) expect(html).toMatch(new RegExp(`<input[^>]*name="${field}"`));
    expect(html).toMatch(/<button type="submit"[^>]*>Calculate<\/button>/);
    expect(testIdText(html, 'result-taxFree-keep')).toBe('$838,017');
  });

  it('answers with the figures for the inputs sent, keeping them in the inputs', async () => {
    const { status, html, cacheControl } = await home('annualContribution=15000&years=20&annualRatePercent=7&taxRatePercent=24');
    expect(status).toBe(200);
    const expected = calculateGrowth({ annualContribution: 15_000, years: 20, annualRatePercent: 7, taxRatePercent: 24 });
    expect(testIdText(html, 'result-taxFree-keep')).toBe(formatDollars(expected.taxFree.afterTax));
    expect(testIdText(html, 'result-taxable-keep')).toBe(formatDollars(expected.taxable.afterTax));
    expect(testIdText(html, 'result-taxDeferred-keep')).toBe(formatDollars(expected.taxDeferred.afterTax));
    expect(testIdText(html, 'result-total')).toBe('$300,000');
    expect(inputValue(html, 'annualContribution')).toBe('15000');
    expect(inputValue(html, 'years')).toBe('20');
    // Rendered for this visitor, not kept among the cached pages; the canonical page stays `/`.
    expect(cacheControl).toBe('no-store');
    expect(html).toMatch(/<link rel="canonical" href="http:\/\/localhost:3000\/"/);
  });

  it('keeps the defaults for fields left out', async () => {
    const { html } = await home('years=10');
    const expected = calculateGrowth({ annualContribution: 10_000, years: 10, annualRatePercent: 6, taxRatePercent: 33 });
    expect(testIdText(html, 'result-taxFree-keep')).toBe(formatDollars(expected.taxFree.afterTax));
    expect(inputValue(html, 'annualContribution')).toBe('10000');
  });

  it('shows the message next to each wrong field and the summary instead of figures', async () => {
    const { status, html } = await home('annualContribution=10000&years=75&annualRatePercent=6&taxRatePercent=');
    expect(status).toBe(200);
    expect(testIdText(html, 'calculator-error-years')).toBe('Number of years must be between 1 year and 60 years.');
    expect(testIdText(html, 'calculator-error-taxRatePercent')).toBe('Enter the income tax rate.');
    expect(testIdText(html, 'calculator-invalid')).toBe('Correct the highlighted values to see the results.');
    expect(html).not.toContain('data-testid="result-taxFree-keep"');
    expect(inputValue(html, 'years')).toBe('75');
    expect(html).toMatch(/<input[^>]*aria-invalid="true"[^>]*data-testid="calculator-years"/);
  });

  it('refuses an absurdly long value with its message and ignores unknown parameters', async () => {
    const { status, html } = await home(`years=${'9'.repeat(5000)}&utm_source=x`);
    expect(status).toBe(200);
    expect(testIdText(html, 'calculator-error-years')).toBe('Number of years is too long: enter a number from 1 year to 60 years.');
    expect(html).not.toContain('9'.repeat(100));

    const plain = await home('utm_source=newsletter');
    expect(testIdText(plain.html, 'result-taxFree-keep')).toBe('$838,017');
    expect(plain.cacheControl).toBe('no-cache');
  });

  it('answers any query string with a 200 page', async () => {
    const name = fc.oneof(fc.constantFrom(...CALCULATOR_FIELDS), fc.string({ maxLength: 20 }));
    const value = fc.oneof(fc.string({ maxLength: 40 }), fc.double().map(String), fc.integer().map(String), fc.string({ minLength: 100, maxLength: 400 }));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(name, value), { maxLength: 6 }), async (pairs) => {
        const { status, html } = await home(new URLSearchParams(pairs).toString());
        expect(status).toBe(200);
        expect(html).toContain('data-testid="calculator-form"');
      }),
      { numRuns: 40 },
    );
  });
});
