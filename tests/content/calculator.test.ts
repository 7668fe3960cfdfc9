/** The home page's compound-growth calculator: formula, defaults, the three accounts, the yearly series and input checks. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findInText } from '../../contract/compliance';
import {
  CALCULATOR_DEFAULT_RAW,
  CALCULATOR_DEFAULTS,
  CALCULATOR_FIELDS,
  CALCULATOR_LIMITS,
  MAX_FIELD_LENGTH,
  calculateGrowth,
  calculatorInputFromQuery,
  calculatorQuery,
  formatDollars,
  futureValueOfAnnualContributions,
  parseField,
  projectGrowthByYear,
  projectionChartText,
  validateCalculatorInput,
} from '../../web/content/calculator';

describe('futureValueOfAnnualContributions', () => {
  it('reproduces the spec example: $10,000 a year for 30 years at 6% gives $838,017', () => {
    expect(formatDollars(futureValueOfAnnualContributions(10_000, 6, 30))).toBe('$838,017');
  });

  it('credits contributions at the start of each year', () => {
    // One year: the single contribution earns one year of growth.
    expect(futureValueOfAnnualContributions(1_000, 10, 1)).toBeCloseTo(1_100, 6);
    // Two years: 1,000 x 1.1^2 + 1,000 x 1.1.
    expect(futureValueOfAnnualContributions(1_000, 10, 2)).toBeCloseTo(2_310, 6);
  });

  it('adds contributions without growth at 0%', () => {
    expect(futureValueOfAnnualContributions(5_000, 0, 12)).toBe(60_000);
  });

  it('gives different figures from the quoted 8% and 10% illustrations, which use other assumptions', () => {
    expect(formatDollars(futureValueOfAnnualContributions(10_000, 8, 30))).toBe('$1,223,459');
    expect(formatDollars(futureValueOfAnnualContributions(10_000, 10, 30))).toBe('$1,809,434');
  });
});

describe('calculateGrowth', () => {
  it('with the defaults shows the three outcomes', () => {
    const result = calculateGrowth(CALCULATOR_DEFAULTS);
    expect(CALCULATOR_DEFAULTS).toEqual({ annualContribution: 10_000, years: 30, annualRatePercent: 6, taxRatePercent: 33 });
    expect(result.totalContributions).toBe(300_000);
    expect(formatDollars(result.taxFree.balance)).toBe('$838,017');
    expect(formatDollars(result.taxFree.afterTax)).toBe('$838,017');
    expect(formatDollars(result.taxDeferred.balance)).toBe('$838,017');
    expect(formatDollars(result.taxDeferred.taxDueOnWithdrawal)).toBe('$276,546');
    expect(formatDollars(result.taxDeferred.afterTax)).toBe('$561,471');
    // Growth taxed every year: 6% x (1 - 0.33) = 4.02% a year.
    expect(formatDollars(result.taxable.afterTax)).toBe(formatDollars(futureValueOfAnnualContributions(10_000, 4.02, 30)));
    expect(formatDollars(result.taxable.afterTax)).toBe('$585,348');
  });

  it('makes the three accounts equal when the tax rate is 0%', () => {
    const result = calculateGrowth({ ...CALCULATOR_DEFAULTS, taxRatePercent: 0 });
    expect(result.taxable.afterTax).toBeCloseTo(result.taxFree.afterTax, 6);
    expect(result.taxDeferred.afterTax).toBeCloseTo(result.taxFree.afterTax, 6);
  });

  it('never lets the taxed accounts beat the tax-free one', () => {
    for (const taxRatePercent of [10, 22, 33, 45]) {
      for (const annualRatePercent of [2, 6, 12]) {
        const r = calculateGrowth({ annualContribution: 7_000, years: 25, annualRatePercent, taxRatePercent });
        expect(r.taxable.afterTax).toBeLessThan(r.taxFree.afterTax);
        expect(r.taxDeferred.afterTax).toBeLessThan(r.taxFree.afterTax);
      }
    }
  });
});

describe('projectGrowthByYear (the series the chart draws)', () => {
  it('has one entry per year, and its last year is exactly the figures calculateGrowth shows', () => {
    for (const input of [CALCULATOR_DEFAULTS, { annualContribution: 15_000, years: 20, annualRatePercent: 7, taxRatePercent: 24 }]) {
      const series = projectGrowthByYear(input);
      expect(series.map((year) => year.year)).toEqual(Array.from({ length: input.years }, (_, index) => index + 1));
      const last = series.at(-1);
      const result = calculateGrowth(input);
      expect(last?.contributions).toBe(result.totalContributions);
      expect(last?.taxFree).toBe(result.taxFree.balance);
      expect(last?.taxDeferred).toBe(result.taxDeferred.balance);
      expect(last?.taxable).toBe(result.taxable.afterTax);
    }
    const defaults = projectGrowthByYear(CALCULATOR_DEFAULTS).at(-1);
    expect([defaults?.contributions, defaults?.taxFree, defaults?.taxable].map((value) => formatDollars(value ?? 0))).toEqual(['$300,000', '$838,017', '$585,348']);
  });

  it('agrees with the closed formula in every year, for the full and the after-tax rate', () => {
    const series = projectGrowthByYear(CALCULATOR_DEFAULTS);
    for (const year of series) {
      expect(year.contributions).toBe(10_000 * year.year);
      expect(year.taxFree).toBeCloseTo(futureValueOfAnnualContributions(10_000, 6, year.year), 6);
      expect(year.taxable).toBeCloseTo(futureValueOfAnnualContributions(10_000, 6 * (1 - 0.33), year.year), 6);
    }
    // The first year: one contribution and one year's growth.
    expect(series[0]?.taxFree).toBeCloseTo(10_600, 9);
  });

  it('rises every year, the tax-free line never below the taxable one nor the taxable below what was put in', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 1_000_000 }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 0, max: 150 }).map((tenths) => tenths / 10),
        fc.integer({ min: 0, max: 60 }),
        (annualContribution, years, annualRatePercent, taxRatePercent) => {
          const series = projectGrowthByYear({ annualContribution, years, annualRatePercent, taxRatePercent });
          series.forEach((year, index) => {
            expect(year.taxFree).toBeGreaterThanOrEqual(year.taxable);
            expect(year.taxable).toBeGreaterThanOrEqual(year.contributions * (1 - 1e-12));
            if (index > 0) expect(year.taxFree).toBeGreaterThan(series[index - 1]?.taxFree ?? Infinity);
          });
        },
      ),
    );
  });
});

describe('projectionChartText (the words beside the chart)', () => {
  it('labels the chart a projection at the assumed rate, not guaranteed, and sums up its figures', () => {
    const last = projectGrowthByYear(CALCULATOR_DEFAULTS).at(-1);
    if (!last) throw new Error('no series');
    const text = projectionChartText(CALCULATOR_DEFAULTS, last);
    expect(text.note).toContain('hypothetical projection at an assumed 6% a year');
    expect(text.note).toContain('not guaranteed');
    expect(text.summary).toBe(
      'Over 30 years, $300,000 is contributed. At the assumed rate, the projected tax-free account reaches $838,017 and the projected taxable account $585,348.',
    );
  });

  it('passes the compliance rules the rest of the copy passes (the tax-free account is the accepted column name)', () => {
    const last = projectGrowthByYear({ annualContribution: 25_000, years: 1, annualRatePercent: 9.5, taxRatePercent: 40 }).at(-1);
    if (!last) throw new Error('no series');
    const text = projectionChartText({ annualContribution: 25_000, years: 1, annualRatePercent: 9.5, taxRatePercent: 40 }, last);
    expect(text.summary).toContain('Over 1 year,');
    for (const copy of [text.note, text.summary]) {
      expect(findInText(copy, 'text').filter((finding) => finding.rule.id !== 'tax-free-unqualified')).toEqual([]);
    }
  });
});

describe('input checks', () => {
  it('accepts the defaults as typed', () => {
    const result = validateCalculatorInput({ annualContribution: '10,000', years: '30', annualRatePercent: '6', taxRatePercent: '33%' });
    expect(result).toEqual({ ok: true, input: CALCULATOR_DEFAULTS });
  });

  it('gives a clear message for empty, non-numeric and out-of-range input', () => {
    expect(parseField('annualContribution', '')).toEqual({ ok: false, message: 'Enter the annual contribution.' });
    expect(parseField('years', 'abc')).toEqual({ ok: false, message: 'Number of years must be a number.' });
    expect(parseField('years', '2.5')).toEqual({ ok: false, message: 'Number of years must be a whole number.' });
    expect(parseField('years', '0')).toEqual({ ok: false, message: 'Number of years must be between 1 year and 60 years.' });
    expect(parseField('annualContribution', '50')).toEqual({
      ok: false,
      message: 'Annual contribution must be between $100 and $1,000,000.',
    });
    expect(parseField('annualRatePercent', '20')).toEqual({ ok: false, message: 'Annual growth rate must be between 0% and 15%.' });
    expect(parseField('taxRatePercent', '-1')).toEqual({ ok: false, message: 'Income tax rate must be between 0% and 60%.' });
  });

  it('reports every invalid field at once', () => {
    const result = validateCalculatorInput({ annualContribution: '0', years: '100', annualRatePercent: '6', taxRatePercent: '33' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(Object.keys(result.errors).sort()).toEqual(['annualContribution', 'years']);
  });

  it('accepts the limits themselves', () => {
    for (const field of CALCULATOR_FIELDS) {
      const { min, max } = CALCULATOR_LIMITS[field];
      expect(parseField(field, String(min)).ok, `${field} min`).toBe(true);
      expect(parseField(field, String(max)).ok, `${field} max`).toBe(true);
    }
  });
});

describe('inputs from a query string (the form sent without JavaScript)', () => {
  it('is null when the query names no field, so the page shows the defaults', () => {
    expect(calculatorInputFromQuery(new URLSearchParams(''))).toBeNull();
    expect(calculatorInputFromQuery(new URLSearchParams('utm_source=mail&tab=roth'))).toBeNull();
  });

  it('reads the fields sent, keeps the defaults for the others and ignores unknown parameters', () => {
    const raw = calculatorInputFromQuery(new URLSearchParams('years=20&annualContribution=15000&years=40&other=1'));
    expect(raw).toEqual({ ...CALCULATOR_DEFAULT_RAW, years: '20', annualContribution: '15000' });
    expect(validateCalculatorInput(raw ?? CALCULATOR_DEFAULT_RAW)).toEqual({
      ok: true,
      input: { ...CALCULATOR_DEFAULTS, years: 20, annualContribution: 15_000 },
    });
  });

  it('keeps an empty or out-of-range value, for its message', () => {
    const raw = calculatorInputFromQuery(new URLSearchParams('years=75&taxRatePercent='));
    const result = validateCalculatorInput(raw ?? CALCULATOR_DEFAULT_RAW);
    expect(result).toEqual({
      ok: false,
      errors: { years: 'Number of years must be between 1 year and 60 years.', taxRatePercent: 'Enter the income tax rate.' },
    });
  });

  it('refuses an absurdly long value with a message, without keeping all of it', () => {
    const raw = calculatorInputFromQuery(new URLSearchParams({ years: '1'.repeat(10_000) }));
    expect(raw?.years.length).toBe(MAX_FIELD_LENGTH + 1);
    expect(parseField('years', raw?.years ?? '')).toEqual({ ok: false, message: 'Number of years is too long: enter a number from 1 year to 60 years.' });
  });

  it('round-trips through the query a shared link carries', () => {
    const raw = { annualContribution: '15000', years: '20', annualRatePercent: '7.5', taxRatePercent: '24' };
    expect(calculatorInputFromQuery(new URLSearchParams(calculatorQuery(raw)))).toEqual(raw);
  });

  it('never throws, and either computes or explains, for any query string', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.oneof(fc.constantFrom(...CALCULATOR_FIELDS), fc.string()), fc.string({ maxLength: 60 }))), (pairs) => {
        const raw = calculatorInputFromQuery(new URLSearchParams(pairs));
        if (!raw) return;
        for (const field of CALCULATOR_FIELDS) expect(raw[field].length).toBeLessThanOrEqual(MAX_FIELD_LENGTH + 1);
        const result = validateCalculatorInput(raw);
        if (result.ok) expect(Number.isFinite(calculateGrowth(result.input).taxFree.afterTax)).toBe(true);
        else expect(Object.values(result.errors).every((message) => message.length > 0)).toBe(true);
      }),
    );
  });
});
