/**
 * The site eats its own cooking: the compliance rules that check every post (contract/compliance.ts)
 * run over every string of the site's own copy, the exported values of every module under
 * web/content/. Each finding there is either fixed in the copy or accepted beside it: the module
 * exports `complianceAccepted`, one record per accepted finding with the matched text and the reason
 * a reviewer reads. An unaccepted finding fails (naming the module, the rule, the matched text and its
 * sentence), and so does an acceptance that no longer matches anything, so the records cannot go stale.
 */
import { describe, expect, it } from 'vitest';
import { findInText, unknownAcceptances, type ComplianceCopyAcceptance } from '../../contract/compliance';
import { DEFAULT_SITE_CONFIG } from '../../contract/site-config';

const MODULES = import.meta.glob<Record<string, unknown>>(['../../web/content/**/*.ts', '!../../web/content/**/*.test.ts'], { eager: true });

/** Exported functions that build copy from the site config: their results are copy. */
const COPY_BUILDERS = new Set([
  'about.ts:aboutContent',
  'about.ts:aboutPageJsonLd',
  'get-quote.ts:quoteContent',
  'get-quote.ts:quoteServiceJsonLd',
  'guide/overview.ts:guideContents',
  'guide/overview.ts:guideHero',
  'guide/overview.ts:guideTitle',
  'guide/overview.ts:whatIsIulTitle',
  'home.ts:benefitsContent',
  'home.ts:heroContent',
  'home.ts:homeMeta',
  'home.ts:whatIsContent',
  'navigation.ts:footerQuickLinks',
  'navigation.ts:mainNavigation',
  'privacy-policy.ts:privacyPolicy',
  'public-pages.ts:publicPagePaths',
  'quote-request-form.ts:quoteRequestFormCopy',
  'quote-request-form.ts:quoteThankYouCopy',
  'quote-request-form.ts:quoteNothingSentCopy',
  'sep-comparison.ts:sepComparisonContent',
]);

/** Exported functions that are not copy, and why. A new function must be put in one list or the other. */
const NOT_COPY: Record<string, string> = {
  'api-examples.ts:withOrigin': 'rewrites the origin in a code example',
  'calculator.ts:calculateGrowth': 'arithmetic of the calculator',
  'calculator.ts:formatDollars': 'formats a number',
  'calculator.ts:futureValueOfAnnualContributions': 'arithmetic of the calculator',
  'calculator.ts:parseField': 'reads a number typed into the calculator; its messages name the field and its limits',
  'calculator.ts:validateCalculatorInput': 'parseField over every field',
  'calculator.ts:calculatorInputFromQuery': 'reads the form\'s query string into the calculator\'s inputs; its messages name the field and its limits',
  'calculator.ts:calculatorQuery': 'writes the inputs back as a query string',
  'calculator.ts:projectGrowthByYear': 'arithmetic of the calculator, year by year',
  'calculator.ts:projectionChartText':
    "fills the chart's note and summary with the visitor's figures; tests/content/calculator.test.ts runs the rules over its output",
  'legal.ts:findLegalDocument': 'looks up an entry of LEGAL_DOCUMENTS, which is walked as it is',
  'family.ts:familyMember': 'looks up an entry of FAMILY, which is walked as it is',
  'family.ts:leadersToday': 'filters FAMILY, which is walked as it is',
  'family.ts:generationLabel': 'turns a generation number into "Second generation"',
  'family.ts:generationsLeadingTodayWord': 'counts the generations leading today and spells the number',
  'family.ts:monogram': 'the initials of a name, for the portraits',
  'review.ts:formatReviewDate': 'formats a date',
  'contribution-limits.ts:limitDollars': 'formats a limit',
  'contribution-limits.ts:limitLabel': 'the year label of a limit ("2024 limit")',
  'review.ts:reviewNote': "the reviewer's name, credentials and role from FAMILY (walked as it is) and a date",
};

/**
 * Properties whose values are identifiers and addresses, not copy a reader sees as a sentence
 * ("tax-free-income" as a row id, a rule id in a sample payload).
 */
const NOT_COPY_KEYS = new Set(['id', 'slug', 'path', 'href', 'url', 'to', 'icon', 'key', 'categoryId', 'anchor', 'rule']);

/** The export that holds the acceptances: it quotes the findings, so it is not walked itself. */
const ACCEPTED_EXPORT = 'complianceAccepted';

function moduleName(path: string): string {
  return path.replace('../../web/content/', '');
}

/** Every copy string under a value: plain objects and arrays are walked; class instances (a zod schema) are not copy. */
function copyStrings(value: unknown, into: Set<string>): void {
  if (typeof value === 'string') into.add(value);
  else if (Array.isArray(value)) for (const item of value) copyStrings(item, into);
  else if (value !== null && typeof value === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(value))) {
    for (const [key, item] of Object.entries(value)) if (!NOT_COPY_KEYS.has(key)) copyStrings(item, into);
  }
}

function moduleCopy(path: string, exports: Record<string, unknown>): Set<string> {
  const copy = new Set<string>();
  for (const [name, value] of Object.entries(exports)) {
    if (name === ACCEPTED_EXPORT) continue;
    if (typeof value !== 'function') copyStrings(value, copy);
    else if (COPY_BUILDERS.has(`${moduleName(path)}:${name}`)) copyStrings((value as (config: typeof DEFAULT_SITE_CONFIG) => unknown)(DEFAULT_SITE_CONFIG), copy);
  }
  return copy;
}

interface CopyFinding {
  rule: string;
  text: string;
  /** The string of copy that holds it. */
  copy: string;
  sentence: string;
}

/** The sentence around a match, for the failure message: the author fixes or accepts it there. */
function sentenceAround(copy: string, start: number, end: number): string {
  let from = 0;
  for (const stop of copy.slice(0, start).matchAll(/[.!?]\s+/g)) from = stop.index + stop[0].length;
  const to = copy.slice(end).search(/[.!?](?:\s|$)/);
  return copy.slice(from, to === -1 ? copy.length : end + to + 1).trim();
}

function findingsIn(copy: ReadonlySet<string>): CopyFinding[] {
  return [...copy].flatMap((string) =>
    findInText(string, /<\/?[a-z][^<>]*>/i.test(string) ? 'html' : 'text').map((match) => ({
      rule: match.rule.id,
      text: match.text,
      copy: string,
      sentence: sentenceAround(string, match.start, match.end),
    })),
  );
}

function covers(acceptance: ComplianceCopyAcceptance, finding: CopyFinding): boolean {
  return acceptance.rule === finding.rule && acceptance.text === finding.text && (acceptance.where === undefined || finding.copy.includes(acceptance.where));
}

const modules = Object.entries(MODULES).map(([path, exports]) => ({
  name: moduleName(path),
  exports,
  copy: moduleCopy(path, exports),
  accepted: (exports[ACCEPTED_EXPORT] ?? []) as readonly ComplianceCopyAcceptance[],
}));

describe('the walk over web/content', () => {
  it('reads every module, and the copy builders with the default config', () => {
    expect(modules.map((module) => module.name)).toEqual(expect.arrayContaining(['home.ts', 'faq.ts', 'guide/overview.ts', 'sep-comparison.ts']));
    const home = modules.find((module) => module.name === 'home.ts');
    expect([...(home?.copy ?? [])]).toContain('Tax-Free Retirement Income, Protected From Market Losses');
  });

  it('knows every exported function as a copy builder or as not copy', () => {
    const unknown = modules.flatMap((module) =>
      Object.entries(module.exports)
        .filter(([name, value]) => typeof value === 'function' && !COPY_BUILDERS.has(`${module.name}:${name}`) && !(`${module.name}:${name}` in NOT_COPY))
        .map(([name]) => `${module.name}:${name}`),
    );
    expect(unknown, 'add each to COPY_BUILDERS (called with the site config) or NOT_COPY (with the reason)').toEqual([]);
  });

  it('finds what the rules find in copy: the records below are checked against real findings', () => {
    expect(modules.flatMap((module) => findingsIn(module.copy)).length).toBeGreaterThan(0);
  });
});

describe.each(modules.map((module) => [module.name, module] as const))('%s', (_name, module) => {
  const findings = findingsIn(module.copy);

  it('has every compliance finding fixed or accepted beside the copy', () => {
    const open = findings
      .filter((finding) => !module.accepted.some((acceptance) => covers(acceptance, finding)))
      .map((finding) => `${module.name}: [${finding.rule}] "${finding.text}" in "${finding.sentence}"`);
    expect(open, `fix the copy, or add { rule, text, where?, reason } to ${ACCEPTED_EXPORT} in web/content/${module.name}`).toEqual([]);
  });

  it('has no acceptance that matches no finding, names no rule, or gives no real reason', () => {
    const stale = module.accepted
      .filter((acceptance) => !findings.some((finding) => covers(acceptance, finding)))
      .map((acceptance) => `${module.name}: [${acceptance.rule}] "${acceptance.text}"${acceptance.where ? ` where "${acceptance.where}"` : ''} matches no finding`);
    expect(stale, 'remove the record, or correct its text or where').toEqual([]);
    expect(unknownAcceptances(module.accepted)).toEqual([]);
    for (const acceptance of module.accepted) {
      expect(acceptance.reason.length, `the reason for "${acceptance.text}" says why this copy may say it`).toBeGreaterThanOrEqual(40);
    }
  });
});
