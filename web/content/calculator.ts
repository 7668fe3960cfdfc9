/**
 * The compound-growth calculator on the home page: pure functions, so the figures the page shows can be
 * checked in a unit test. Equal contributions are made at the START of each year (an annuity due), and
 * the three accounts differ only in when tax is paid:
 *
 * - tax-free: the balance grows at the full rate and nothing is owed on the way out;
 * - tax-deferred: the balance grows at the full rate, and the whole balance is taxed at the tax rate
 *   when it is withdrawn;
 * - taxable: the growth is taxed every year, so the balance grows at rate x (1 - tax rate).
 *
 * With the defaults ($10,000 a year, 30 years, 6%) the tax-free balance is $838,017, the first of the
 * spec's quoted examples.
 */
import type { ComplianceCopyAcceptance } from '../../contract/compliance';

export interface CalculatorInput {
  /** Dollars contributed at the start of every year. */
  annualContribution: number;
  years: number;
  /** Annual growth rate in percent, e.g. 6 for 6%. */
  annualRatePercent: number;
  /** Income tax rate in percent, e.g. 33 for 33%. */
  taxRatePercent: number;
}

export type CalculatorField = keyof CalculatorInput;

export interface FieldLimits {
  label: string;
  min: number;
  max: number;
  step: number;
  /** How the limits read in a message: "$100", "60 years", "15%". */
  format: (value: number) => string;
}

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

/** Whole dollars with a thousands separator: 838017 -> "$838,017". */
export function formatDollars(value: number): string {
  return dollars.format(Math.round(value));
}

export const CALCULATOR_DEFAULTS: CalculatorInput = {
  annualContribution: 10_000,
  years: 30,
  annualRatePercent: 6,
  taxRatePercent: 33,
};

export const CALCULATOR_LIMITS: Record<CalculatorField, FieldLimits> = {
  annualContribution: { label: 'Annual contribution', min: 100, max: 1_000_000, step: 100, format: formatDollars },
  years: { label: 'Number of years', min: 1, max: 60, step: 1, format: (v) => (v === 1 ? '1 year' : `${v} years`) },
  annualRatePercent: { label: 'Annual growth rate', min: 0, max: 15, step: 0.1, format: (v) => `${v}%` },
  taxRatePercent: { label: 'Income tax rate', min: 0, max: 60, step: 1, format: (v) => `${v}%` },
};

export const CALCULATOR_FIELDS: readonly CalculatorField[] = ['annualContribution', 'years', 'annualRatePercent', 'taxRatePercent'];

/** The value the visitor typed, or the message that says what is wrong with it. */
export type FieldResult = { ok: true; value: number } | { ok: false; message: string };

/**
 * The longest value an input is read from: no number within the limits needs more characters, so a
 * longer one (typed, or sent in a query string) is refused with a message instead of being parsed.
 */
export const MAX_FIELD_LENGTH = 32;

/** Parses one input as typed (commas and a leading $ or trailing % are tolerated). */
export function parseField(field: CalculatorField, raw: string): FieldResult {
  const limits = CALCULATOR_LIMITS[field];
  if (raw.length > MAX_FIELD_LENGTH) {
    return { ok: false, message: `${limits.label} is too long: enter a number from ${limits.format(limits.min)} to ${limits.format(limits.max)}.` };
  }
  const cleaned = raw.replace(/[$,%\s]/g, '');
  if (cleaned === '') return { ok: false, message: `Enter the ${limits.label.toLowerCase()}.` };
  const value = Number(cleaned);
  if (!Number.isFinite(value)) return { ok: false, message: `${limits.label} must be a number.` };
  if (field === 'years' && !Number.isInteger(value)) return { ok: false, message: 'Number of years must be a whole number.' };
  if (value < limits.min || value > limits.max) {
    return {
      ok: false,
      message: `${limits.label} must be between ${limits.format(limits.min)} and ${limits.format(limits.max)}.`,
    };
  }
  return { ok: true, value };
}

export type RawCalculatorInput = Record<CalculatorField, string>;

export type ValidationResult =
  | { ok: true; input: CalculatorInput }
  | { ok: false; errors: Partial<Record<CalculatorField, string>> };

/** The defaults as the inputs show them before the visitor changes anything. */
export const CALCULATOR_DEFAULT_RAW: RawCalculatorInput = {
  annualContribution: String(CALCULATOR_DEFAULTS.annualContribution),
  years: String(CALCULATOR_DEFAULTS.years),
  annualRatePercent: String(CALCULATOR_DEFAULTS.annualRatePercent),
  taxRatePercent: String(CALCULATOR_DEFAULTS.taxRatePercent),
};

/**
 * The calculator's inputs from a query string (the form submitted without JavaScript: `GET /?years=20&...`),
 * or null when it names none of the fields. A field the query leaves out keeps its default; other
 * parameters are ignored; a repeated one counts once (the first). Values are kept as sent, for
 * validateCalculatorInput to judge, except that one longer than MAX_FIELD_LENGTH is cut to one
 * character more, which is enough for parseField to refuse it (so the page never echoes a huge value).
 */
export function calculatorInputFromQuery(params: URLSearchParams): RawCalculatorInput | null {
  if (!CALCULATOR_FIELDS.some((field) => params.has(field))) return null;
  const raw: RawCalculatorInput = { ...CALCULATOR_DEFAULT_RAW };
  for (const field of CALCULATOR_FIELDS) {
    const value = params.get(field);
    if (value !== null) raw[field] = value.slice(0, MAX_FIELD_LENGTH + 1);
  }
  return raw;
}

/** The query string that reproduces these inputs (`annualContribution=15000&years=20&...`), for a link to share. */
export function calculatorQuery(raw: RawCalculatorInput): string {
  const params = new URLSearchParams();
  for (const field of CALCULATOR_FIELDS) params.set(field, raw[field]);
  return params.toString();
}

/** Checks every input at once: the numbers, or a message per field that is wrong. */
export function validateCalculatorInput(raw: RawCalculatorInput): ValidationResult {
  const errors: Partial<Record<CalculatorField, string>> = {};
  const values: Partial<CalculatorInput> = {};
  for (const field of CALCULATOR_FIELDS) {
    const result = parseField(field, raw[field]);
    if (result.ok) values[field] = result.value;
    else errors[field] = result.message;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, input: values as CalculatorInput };
}

/**
 * Future value of equal contributions made at the start of each year:
 * FV = P x ((1 + r)^n - 1) / r x (1 + r), and P x n when r is 0.
 */
export function futureValueOfAnnualContributions(annualContribution: number, ratePercent: number, years: number): number {
  const r = ratePercent / 100;
  if (r === 0) return annualContribution * years;
  return (annualContribution * ((1 + r) ** years - 1)) / r * (1 + r);
}

export interface AccountOutcome {
  /** Balance at the end of the last year. */
  balance: number;
  /** Income tax still owed if the whole balance were withdrawn then. */
  taxDueOnWithdrawal: number;
  /** What the owner keeps: balance minus the tax due. */
  afterTax: number;
}

export interface CalculatorResult {
  totalContributions: number;
  taxable: AccountOutcome;
  taxDeferred: AccountOutcome;
  taxFree: AccountOutcome;
}

/** One year of the projection: where each account stands at the end of that year. */
export interface ProjectionYear {
  /** 1 for the first year, up to the number of years. */
  year: number;
  /** Everything contributed so far (one contribution per year, at its start). */
  contributions: number;
  /** Tax-free balance: grows at the full rate. */
  taxFree: number;
  /** Tax-deferred balance before the tax due on withdrawal: grows at the full rate too. */
  taxDeferred: number;
  /** Taxable balance: its growth taxed every year, so it grows at rate x (1 - tax rate). */
  taxable: number;
}

/**
 * The projection year by year: each year the contribution is added at the start and the year's growth
 * credited at the end. calculateGrowth reads its last year, and the chart draws every year, so the
 * figures and the chart come from one computation and cannot disagree.
 */
export function projectGrowthByYear(input: CalculatorInput): ProjectionYear[] {
  const { annualContribution, years, annualRatePercent, taxRatePercent } = input;
  const growth = 1 + annualRatePercent / 100;
  const taxedGrowth = 1 + (annualRatePercent / 100) * (1 - taxRatePercent / 100);
  const series: ProjectionYear[] = [];
  let grown = 0;
  let taxable = 0;
  for (let year = 1; year <= years; year += 1) {
    grown = (grown + annualContribution) * growth;
    taxable = (taxable + annualContribution) * taxedGrowth;
    series.push({ year, contributions: annualContribution * year, taxFree: grown, taxDeferred: grown, taxable });
  }
  return series;
}

/** The three outcomes at the end of the last year of projectGrowthByYear. */
export function calculateGrowth(input: CalculatorInput): CalculatorResult {
  const last = projectGrowthByYear(input).at(-1) ?? { contributions: 0, taxFree: 0, taxDeferred: 0, taxable: 0 };
  const deferredTax = last.taxDeferred * (input.taxRatePercent / 100);
  return {
    totalContributions: last.contributions,
    taxable: { balance: last.taxable, taxDueOnWithdrawal: 0, afterTax: last.taxable },
    taxDeferred: { balance: last.taxDeferred, taxDueOnWithdrawal: deferredTax, afterTax: last.taxDeferred - deferredTax },
    taxFree: { balance: last.taxFree, taxDueOnWithdrawal: 0, afterTax: last.taxFree },
  };
}

/** The formula and assumptions, shown on the page under the calculator. */
export const CALCULATOR_FORMULA =
  'Balance = P × ((1 + r)ⁿ − 1) ÷ r × (1 + r), where P is the annual contribution, r the annual growth rate and n the number of years.';

export const CALCULATOR_ASSUMPTIONS: readonly string[] = [
  'The same contribution is made at the start of every year, and growth is credited once at the end of each year at the same rate every year.',
  'Tax-free: the balance grows at the full rate and nothing is owed when it is taken out.',
  'Tax-deferred: the balance grows at the full rate, and the whole balance is taxed at your tax rate when it is withdrawn. The tax saved on pre-tax contributions is not added back.',
  'Taxable: the growth is taxed every year at your tax rate, so the balance grows at the rate × (1 − tax rate); nothing more is owed at the end.',
  'No fees, policy charges, cost of insurance, caps, floors, inflation or changes in tax rates are included. It illustrates the arithmetic of compounding and taxes; it is not an illustration of any insurance policy, and real results will differ.',
];

/** The chart under the calculator's results: its fixed copy (the figures come from projectGrowthByYear). */
export const CALCULATOR_CHART = {
  title: 'Year by year: what is put in, and what each account could grow to',
  contributionsLabel: 'Total contributed',
  taxFreeLabel: 'Tax-free account',
  taxableLabel: 'Taxable account',
  xAxisLabel: 'Years from today',
  yAxisLabel: 'Balance in dollars',
  tableSummary: 'Show the numbers as a table',
  tableCaption: 'Projected balances at the end of each year',
  yearHeader: 'Year',
  invalid: 'Correct the highlighted values to see the chart.',
} as const;

/**
 * The words around the chart for these inputs: `note`, shown beside it, says the line is a projection
 * at an assumed rate; `summary` is what the chart shows, for a screen reader (the chart's description).
 */
export function projectionChartText(input: CalculatorInput, last: ProjectionYear): { note: string; summary: string } {
  const years = CALCULATOR_LIMITS.years.format(input.years);
  return {
    note: `A hypothetical projection at an assumed ${input.annualRatePercent}% a year, credited every year: not guaranteed. Real accounts and policies have fees and charges, and returns vary from year to year.`,
    summary: `Over ${years}, ${formatDollars(last.contributions)} is contributed. At the assumed rate, the projected tax-free account reaches ${formatDollars(last.taxFree)} and the projected taxable account ${formatDollars(last.taxable)}.`,
  };
}

/**
 * Compliance findings in this copy that stay as written, each with the reason a reviewer reads
 * (contract/compliance.ts; checked against the rules' findings by tests/content/compliance.test.ts).
 */
export const complianceAccepted: ComplianceCopyAcceptance[] = [
  {
    rule: 'tax-free-unqualified',
    text: 'Tax-free',
    reason: "Defines the calculator's tax-free account column for the arithmetic; the last assumption says the calculator illustrates compounding and taxes and is not an illustration of any insurance policy.",
  },
];
