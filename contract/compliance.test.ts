/**
 * The compliance rules (contract/compliance.ts) as an author and a reviewer meet them: each rule finds
 * the claims it names in their usual phrasings and leaves alone the careful ways of saying the same
 * thing (negations, qualifiers nearby, a sentence or paragraph between the words); a finding points at
 * its words in the original text, HTML and Markdown included; acceptances, the post-level rules and
 * the one-line description behave as the CLI and the review queue show them. Properties: a compliant
 * post stays free of high findings under edits that change nothing a reader would notice, and any
 * text whatever is checked without an error, with locations that hold the words they quote.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  COMPLIANCE_RULES,
  COMPLIANCE_RULES_VERSION,
  QUALIFIER_WINDOW,
  blockingFindings,
  checkCompliance,
  complianceInputSchema,
  describeFinding,
  findInText,
  findInTextAsWritten,
  foldText,
  lowerCaseLiterals,
  smallClasses,
  caseFolded,
  lineColumn,
  maskMarkup,
  unknownAcceptances,
  type ComplianceFinding,
  type ComplianceSubject,
} from './compliance';

type Format = 'html' | 'markdown' | 'text';

/**
 * Mutation runs (vitest.mutate.config.ts sets MUTATION_RUN) run these tests once for every mutant of
 * the rules: there, the properties try a tenth of their random cases and the long text is 50,000
 * characters, not 250,000 (see docs/quality.md). `npm test` runs them in full.
 */
const MUTATION_RUN = process.env.MUTATION_RUN === '1';
const runs = (full: number): number => (MUTATION_RUN ? full / 10 : full);

/** HTML when the text has a tag in it, plain text otherwise. */
function formatOf(text: string): Format {
  return /<\/?[a-z][^>]*>/i.test(text) ? 'html' : 'text';
}

/** The finding of one rule among findings; the test fails when there is none. */
function findingOf(findings: readonly ComplianceFinding[], rule: string): ComplianceFinding {
  const finding = findings.find((candidate) => candidate.rule === rule);
  if (!finding) throw new Error(`no ${rule} finding among ${findings.map((candidate) => candidate.rule).join(', ') || 'none'}`);
  return finding;
}

/** What one rule finds in a text: the matched words, as a finding quotes them. */
function found(rule: string, text: string, format: Format = formatOf(text)): string[] {
  return findInText(text, format)
    .filter((match) => match.rule.id === rule)
    .map((match) => match.text);
}

interface RuleCases {
  /** Texts the rule flags, each with the words its finding quotes. */
  finds: ReadonlyArray<readonly [text: string, quoted: string]>;
  /** Texts the rule leaves alone. */
  passes: readonly string[];
}

/** One table per text rule: the phrasings it must catch and the careful copy it must not flag. */
const TEXT_RULE_CASES: Record<string, RuleCases> = {
  'guaranteed-returns': {
    finds: [
      ['Our policy guarantees returns every year.', 'guarantees returns'],
      ['Guaranteed growth, year after year.', 'Guaranteed growth'],
      ['GUARANTEED INCOME FOR LIFE', 'GUARANTEED INCOME'],
      ['A guaranteed 7% annual return.', 'guaranteed 7% annual return'],
      ['Guaranteed tax-free lifetime income', 'Guaranteed tax-free lifetime income'],
      ['Your returns are guaranteed.', 'returns are guaranteed'],
      ['The growth will always be guaranteed.', 'growth will always be guaranteed'],
      ['This strategy is guaranteed to grow your money.', 'guaranteed to grow'],
      ['We guarantee 8% a year.', 'guarantee 8%'],
      ['guaranteed\nreturns', 'guaranteed returns'],
      ['a guaranteed rate of return', 'guaranteed rate of return'],
      ['<p>Guaranteed <em>returns</em> for you.</p>', 'Guaranteed returns'],
      // "Now" starts like "no": it is no negation.
      ['Now you can enjoy guaranteed income for life.', 'guaranteed income'],
      // Only the word "non" says the opposite, not a word that ends in it.
      ['The Canon guaranteed returns fund pays 8%.', 'guaranteed returns'],
      // ... and only just before the claim, not at the start of a word further back.
      ['Nonprofit buyers like guaranteed returns.', 'guaranteed returns'],
      // A footnote mark or an inline picture between the words does not end the sentence.
      ['<p>Guaranteed<sup>1</sup> income for life.</p>', 'Guaranteed 1 income'],
      ['<p>Guaranteed <picture><img src="/media/badge.png" alt=""></picture> returns.</p>', 'Guaranteed returns'],
    ],
    passes: [
      'Returns are not guaranteed.',
      'No policy offers guaranteed returns.',
      'Nothing here guarantees growth.',
      'Whole life offers guaranteed growth, subject to the claims-paying ability of the insurer.',
      'The contract has a guaranteed minimum interest rate, and its guaranteed interest is credited yearly.',
      'Index credits have a guaranteed 0% floor.',
      'You value guarantees above growth potential.',
      'A guaranteed death benefit and tax-free income under current tax law.',
      'The premium is guaranteed. Returns vary with the index.',
      '<p>The death benefit is guaranteed</p><p>Returns vary with the index.</p>',
      '<h2>The death benefit is guaranteed</h2>Returns vary with the index.',
      '<p>The death benefit is guaranteed&hellip; returns are not.</p>',
      'Illustrations show nonguaranteed returns.',
      'Some agents claim guaranteed returns.',
      'Ignore the promise of guaranteed returns.',
      'The myth of guaranteed returns.',
      // A guaranteed 0% (or a fraction of a percent) is the floor, however it is spaced.
      'In a down year, the index credit is a guaranteed 0%.',
      'The fixed account is guaranteed 0.25% in a down year.',
      'Index credits are guaranteed 0 % in a down year.',
      'Index credits are guaranteed 0 percent in a down year.',
      'Illustrations show non-guaranteed returns.',
      // Any spaces and dashes between "non" and the claim, markup included.
      'Cash value has non-<em>guaranteed</em> returns.',
      // A claim starts at the start of a word: "guaranteed" inside "unguaranteed" is no claim.
      'Unguaranteed returns are projections.',
      'Illustrations show non guaranteed returns.',
      // A quoted sentence ends at its full stop, inside the quotes; so does a sentence at "…".
      'He said "The premium is guaranteed." Returns vary with the index.',
      "The death benefit is guaranteed (in the contract.) Returns vary with the index.",
      'The death benefit is guaranteed… returns are not.',
    ],
  },
  'risk-free': {
    finds: [
      ['This strategy is risk-free.', 'risk-free'],
      ['Risk free growth', 'Risk free'],
      ['A policy that is risk\nfree', 'risk free'],
      ['A riskless way to grow.', 'riskless'],
      ['There is no risk to your principal.', 'no risk'],
      ['Zero market risk.', 'Zero market risk'],
      ['0% market loss risk', '0% market loss risk'],
      ["You can't lose money.", "can't lose"],
      ['You can’t lose.', "can't lose"],
      ['Your cash value will never lose value.', 'will never lose'],
      ['<p>The <strong>risk</strong>-free way to retire.</p>', 'risk -free'],
      // "Minor" ends like "nor": it is no negation.
      ['It is a minor, risk-free change to your plan.', 'risk-free'],
      // An apostrophe written as an entity, as editors write it.
      ['<p>You can&rsquo;t lose money.</p>', "can' t lose"],
      ['<p>Your cash value won&#8217;t lose value.</p>', "won' t lose"],
    ],
    passes: [
      'IUL is not risk-free.',
      '<p>IUL isn&rsquo;t risk-free.</p>',
      'No policy is risk-free.',
      'There is no risk-free investment.',
      'Treasury bills pay the risk-free rate.',
      'No risk, no obligation: ask for an illustration.',
      'Every policy carries risk. Free illustrations explain it.',
      '<p>Every policy carries risk</p><p>Free consultations are available.</p>',
      'Never lose sight of the costs.',
    ],
  },
  'investment-or-retirement-plan': {
    finds: [
      ['IULs are investments.', 'IULs are investments'],
      ['An IUL is a great investment.', 'IUL is a great investment'],
      ['Use your IUL as a retirement account.', 'IUL as a retirement account'],
      ['Invest in an indexed universal life policy.', 'Invest in an indexed universal life policy'],
      ['Start investing in IULs today.', 'investing in IULs'],
      ['This policy is your retirement plan.', 'This policy is your retirement plan'],
      ['The IUL investment strategy', 'IUL investment'],
      ['A LIRP is the answer.', 'LIRP'],
    ],
    passes: [
      'An IUL is not an investment.',
      "An IUL isn't an investment.",
      'An IUL is an alternative to an investment portfolio.',
      'An IUL is a 401(k) alternative for some savers.',
      'It is a life insurance policy, not an investment.',
      'Compare an IUL, an investment portfolio and a 401(k).',
      'The cash value can supplement retirement income.',
      'Never think of an IUL as an investment.',
    ],
  },
  'tax-free-unqualified': {
    finds: [
      ['Enjoy tax-free income.', 'tax-free'],
      ['TAX FREE retirement', 'TAX FREE'],
      ['Tax\nexempt growth', 'Tax exempt'],
      ['Income free of income tax', 'free of income tax'],
      ['You will never pay taxes on it.', 'never pay taxes'],
      ['Pay no tax in retirement.', 'Pay no tax'],
      ['A tax-free death benefit', 'tax-free'],
    ],
    passes: [
      'Loans are tax-free under current tax law.',
      'Loans are tax-free while the policy stays in force.',
      'Income is tax-free if the policy is properly structured.',
      'A withdrawal above basis is not tax-free.',
      'An income-tax-free death benefit.',
      'Beneficiaries receive the death benefit, generally free of income tax.',
      'A 401(k) is tax-deferred rather than tax-free.',
      'Loans are tax-free as long as the contract is not a modified endowment contract.',
      'Income-tax-free death benefits protect your family.',
      'The Death Benefit is income-tax-free.',
    ],
  },
  'unqualified-projection': {
    finds: [
      ['It grows 6% a year.', '6%'],
      ['Your cash value could reach $1,200,000 by 65.', '$1,200,000'],
      ['Average returns of 7-9 percent', '7-9 percent'],
      ['$10,000 a year for 30 years gives $838,017 at 6%.', '$10,000 a year for 30 years gives $838,017 at 6%'],
      ['Retire with $2.5 million.', '$2.5 million'],
      // A figure is a projection even when the sentence negates something near it.
      ["You won't earn less than 6% a year.", '6%'],
      ['The cash value grows 1100% of its starting value by year 30.', '1100%'],
      // A range written with an entity's dash is read as one figure.
      ['<p>Average returns of 7&ndash;9%.</p>', '7- 9%'],
      ['<p>It could grow 6&mdash;8% a year.</p>', '6- 8%'],
    ],
    passes: [
      'A hypothetical 6% illustrated return.',
      'Projected: a $1,200,000 cash value at 65.',
      'Not guaranteed: it grows 6% a year in this example.',
      'A premium expense charge of 5-10% applies.',
      'Before 59½, withdrawals usually carry a 10% penalty.',
      'A 401(k) allows $23,000 in 2024.',
      'Credits grow with the index up to a cap of 8-12%.',
      'Loan interest typically runs 4-6% a year.',
      'She pays $25,000 a year into the policy, and the cash value grows.',
      'The national debt is $34 trillion.',
      'Premiums of $500 a month build the cash value.',
      'How the 5-10% Premium Charge Affects Cash Value Growth',
      'Your income is 100% tax-free under current tax law.',
      'Policy loans give income that is 100 % tax-free under current tax law.',
    ],
  },
  'unsourced-superlative': {
    finds: [
      ['The best IUL company in Texas', 'best IUL'],
      ['We are the #1 agency.', '#1'],
      ['Number one in Texas', 'Number one'],
      ['Top-rated insurers only', 'Top-rated'],
      ['The safest place for your money', 'safest place'],
      ['industry-leading caps', 'industry-leading'],
    ],
    passes: [
      'The best time to start is while you are earning.',
      'Rated the best carrier in a 2025 J.D. Power survey.',
      'We compare AM Best ratings of insurers.',
      'No 10% penalty applies.',
      'This is not the best option for everyone.',
    ],
  },
};

/** The post-level rules, each with a post it flags and one it does not. */
const POST_RULE_CASES = {
  'news-without-fact-checker': {
    flags: { title: 'New IRS loan rules for 2027', content: '<p>The IRS published new rules.</p>', isNewsArticle: true },
    passes: { title: 'New IRS loan rules for 2027', content: '<p>The IRS published new rules.</p>', isNewsArticle: true, trust: { factCheckedBy: { name: 'Dana Ruiz, CPA' } } },
  },
  'projections-without-credentials': {
    flags: { title: 'Growing cash value', content: '<p>A hypothetical illustration: the cash value grows 6% a year.</p>', author: { credentials: null } },
    passes: { title: 'Growing cash value', content: '<p>A hypothetical illustration: the cash value grows 6% a year.</p>', author: { credentials: 'Licensed life agent, TX #1234567' } },
  },
} satisfies Record<string, { flags: ComplianceSubject; passes: ComplianceSubject }>;

describe('the rule set', () => {
  it('has a table of cases for every rule, and no table for a rule that does not exist', () => {
    const ids = COMPLIANCE_RULES.map((rule) => rule.id).sort();
    expect([...Object.keys(TEXT_RULE_CASES), ...Object.keys(POST_RULE_CASES)].sort()).toEqual(ids);
  });

  it('gives every rule a severity, a reason and a rewrite', () => {
    for (const rule of COMPLIANCE_RULES) {
      expect(['high', 'medium', 'info']).toContain(rule.severity);
      expect(rule.why.length, rule.id).toBeGreaterThan(40);
      expect(rule.suggestion.length, rule.id).toBeGreaterThan(40);
    }
  });

  it.each([
    ['guaranteed-returns', 'Guaranteed growth, year after year.', '"Guaranteed growth": guaranteed returns, growth or income.'],
    ['risk-free', 'This strategy is risk-free.', '"risk-free": "Risk-free", "no risk" or "can\'t lose".'],
    ['investment-or-retirement-plan', 'IULs are investments.', '"IULs are investments": IUL called an investment or a retirement plan.'],
    ['tax-free-unqualified', 'Enjoy tax-free income.', '"tax-free": "Tax-free" without its condition.'],
    ['unqualified-projection', 'It grows 6% a year.', '"6%": a return or projected figure without "hypothetical".'],
    ['unsourced-superlative', 'We are the #1 agency.', '"#1": a superlative without a source.'],
  ])('names the claim in the message of a %s finding', (rule, content, message) => {
    expect(findingOf(checkCompliance({ content, format: 'text' }), rule).message).toBe(message);
  });
});

for (const [rule, cases] of Object.entries(TEXT_RULE_CASES)) {
  describe(rule, () => {
    it.each(cases.finds)('flags %j, quoting %j', (text, quoted) => {
      expect(found(rule, text)).toContain(quoted);
    });

    it.each(cases.passes)('leaves %j alone', (text) => {
      expect(found(rule, text)).toEqual([]);
    });
  });
}

describe('news-without-fact-checker', () => {
  const cases = POST_RULE_CASES['news-without-fact-checker'];

  it('flags a news article that names no fact-checker, as a finding about the whole post', () => {
    const finding = checkCompliance(cases.flags).find((candidate) => candidate.rule === 'news-without-fact-checker');
    expect(finding).toMatchObject({ severity: 'medium', location: null });
  });

  it('leaves alone a news article with a fact-checker, and an ordinary article', () => {
    expect(checkCompliance(cases.passes).map((finding) => finding.rule)).not.toContain('news-without-fact-checker');
    expect(checkCompliance({ ...cases.flags, isNewsArticle: false }).map((finding) => finding.rule)).not.toContain('news-without-fact-checker');
  });

  it('flags a news article whose trust names no fact-checker, or one without a name or with a blank one', () => {
    for (const trust of [{ sources: [] }, { factCheckedBy: {} }, { factCheckedBy: { name: '  ' } }]) {
      expect(checkCompliance({ ...cases.flags, trust }).map((finding) => finding.rule), JSON.stringify(trust)).toContain('news-without-fact-checker');
    }
  });
});

describe('projections-without-credentials', () => {
  const cases = POST_RULE_CASES['projections-without-credentials'];

  it('flags projections by an author with no credentials, even projections labelled hypothetical', () => {
    const finding = checkCompliance(cases.flags).find((candidate) => candidate.rule === 'projections-without-credentials');
    expect(finding).toMatchObject({ severity: 'info', location: null });
  });

  it('flags an unqualified projection by an author with blank credentials', () => {
    const rules = checkCompliance({ content: '<p>Your cash value grows 8% a year.</p>', author: { credentials: '  ' } }).map((finding) => finding.rule);
    expect(rules).toEqual(expect.arrayContaining(['unqualified-projection', 'projections-without-credentials']));
  });

  it('flags projections in a post that names no author at all', () => {
    expect(checkCompliance({ content: cases.flags.content }).map((finding) => finding.rule)).toContain('projections-without-credentials');
  });

  it('leaves alone the same post by a credentialed author, and a post without figures', () => {
    expect(checkCompliance(cases.passes).map((finding) => finding.rule)).not.toContain('projections-without-credentials');
    expect(checkCompliance({ content: '<p>How an index credit works.</p>' }).map((finding) => finding.rule)).not.toContain('projections-without-credentials');
  });

  it('does not take a fee or a contribution limit for a projection', () => {
    const content = '<p>A premium expense charge of 5-10% applies, and a 401(k) allows $23,000 in 2024.</p>';
    expect(checkCompliance({ content })).toEqual([]);
  });
});

describe('a superlative in a post that cites sources', () => {
  it('is not a finding: the sources are where the reader checks it', () => {
    const subject: ComplianceSubject = { content: '<p>The best IUL carriers cap credits at 10%.</p>' };
    expect(checkCompliance(subject).map((finding) => finding.rule)).toContain('unsourced-superlative');
    const sourced = checkCompliance({ ...subject, trust: { sources: [{ name: 'AM Best', url: 'https://web.ambest.com' }] } });
    expect(sourced.map((finding) => finding.rule)).not.toContain('unsourced-superlative');
  });
});

describe('negation and the qualifier window', () => {
  it('reads a negation only among the few words before the claim, in the same sentence', () => {
    expect(found('risk-free', 'This is not, as many agents say, risk-free.')).toEqual(['risk-free']);
    expect(found('risk-free', 'Not every promise holds. This plan is risk-free.')).toEqual(['risk-free']);
    expect(found('risk-free', 'It is not really risk-free.')).toEqual([]);
  });

  it('counts a qualifier as nearby within QUALIFIER_WINDOW characters, and not beyond', () => {
    const padding = ' Policy charges apply every month.'.repeat(Math.ceil(QUALIFIER_WINDOW / 34) + 1);
    expect(found('tax-free-unqualified', `Loans are tax-free.${padding.slice(0, 200)} Under current tax law, that is.`)).toEqual([]);
    expect(found('tax-free-unqualified', `Loans are tax-free.${padding} Under current tax law, that is.`)).toEqual(['tax-free']);
  });
});

describe('where a finding points', () => {
  it('gives the field, line and column, and offsets that slice the matched words out of the original', () => {
    const content = 'A plain first line.\nOur policy guarantees returns.';
    const [finding] = checkCompliance({ content, format: 'text' });
    expect(finding?.location).toEqual({ field: 'content', text: 'guarantees returns', start: 31, end: 49, line: 2, column: 12 });
    expect(content.slice(31, 49)).toBe('guarantees returns');
  });

  it('points into the HTML source, past tags and entities before the match', () => {
    const content = '<p>Fees &amp; charges apply.</p>\n<p>This plan is <strong>risk-free</strong>.</p>';
    const finding = checkCompliance({ content, format: 'html' }).find((candidate) => candidate.rule === 'risk-free');
    const start = content.indexOf('risk-free');
    expect(finding?.location).toMatchObject({ field: 'content', text: 'risk-free', start, end: start + 'risk-free'.length, line: 2, column: 25 });
  });

  it('spans the tags between the words of one phrase, and quotes the words alone', () => {
    const content = '<p>Guaranteed <em>returns</em> for you.</p>';
    const finding = checkCompliance({ content, format: 'html' }).find((candidate) => candidate.rule === 'guaranteed-returns');
    expect(finding?.location?.text).toBe('Guaranteed returns');
    expect(content.slice(finding?.location?.start, finding?.location?.end)).toBe('Guaranteed <em>returns');
  });

  it('points into the Markdown source, past headings and emphasis marks', () => {
    const content = '# Retirement\n\nSome say an IUL is **risk-free**.\n';
    const finding = checkCompliance({ content, format: 'markdown' }).find((candidate) => candidate.rule === 'risk-free');
    expect(finding?.location).toMatchObject({ text: 'risk-free', line: 3, column: 22 });
    expect(content.slice(finding?.location?.start, finding?.location?.end)).toBe('risk-free');
  });

  it('does not read a Markdown link target as copy', () => {
    expect(checkCompliance({ content: 'See [our guide](https://example.com/risk-free-guide).', format: 'markdown' })).toEqual([]);
  });

  it('names the field for findings in the title and the excerpt, which are plain text', () => {
    const findings = checkCompliance({ title: 'Risk-free retirement', excerpt: 'Guaranteed returns & more', content: '<p>Nothing to see.</p>' });
    expect(findings.map((finding) => [finding.location?.field, finding.location?.text])).toEqual([
      ['title', 'Risk-free'],
      ['excerpt', 'Guaranteed returns'],
    ]);
  });

  it('reads the title and the excerpt as plain text, whatever the format of the content', () => {
    // An entity or a Markdown mark in a title is what the title shows, and the finding quotes it as it stands.
    const quoted = (subject: ComplianceSubject) => checkCompliance(subject).map((finding) => [finding.location?.field, finding.location?.text]);
    expect(quoted({ title: 'Guaranteed&nbsp;returns', excerpt: 'Guaranteed&nbsp;income', content: '<p>Nothing to see.</p>' })).toEqual([
      ['title', 'Guaranteed&nbsp;returns'],
      ['excerpt', 'Guaranteed&nbsp;income'],
    ]);
    expect(quoted({ title: '*Guaranteed* returns', excerpt: '*Guaranteed* income', content: 'Nothing to see.', format: 'markdown' })).toEqual([
      ['title', 'Guaranteed* returns'],
      ['excerpt', 'Guaranteed* income'],
    ]);
  });

  it('reports the figures of one worked example as one finding spanning them', () => {
    const text = '$10,000 a year for 30 years gives $838,017 at 6%, $1,244,563 at 8% and $1,889,315 at 10%.';
    expect(found('unqualified-projection', text)).toEqual(['$10,000 a year for 30 years gives $838,017 at 6%, $1,244,563 at 8% and $1,889,315 at 10%']);
  });
});

describe('sentences and their order', () => {
  it('does not let a negation in the sentence before excuse a claim', () => {
    expect(found('guaranteed-returns', 'It is not a loan. Guaranteed returns every year.')).toEqual(['Guaranteed returns']);
    expect(found('guaranteed-returns', 'Not guaranteed returns.')).toEqual([]);
  });

  it('does not read the tail of a word far back in a long sentence as a negation ("knot" is not "not")', () => {
    // 120 characters before the claim fall on the "n" of "knot"; four words back are read.
    const gap = ` ${'x'.repeat(52)} ${'y'.repeat(62)} `;
    expect(found('guaranteed-returns', `The knot${gap}guaranteed returns every year.`)).toEqual(['guaranteed returns']);
  });

  it('ends a sentence at a blank line, so a claim split by one is no claim', () => {
    expect(found('risk-free', 'It is risk\n\nfree.')).toEqual([]);
    expect(found('risk-free', 'It is risk free.')).toEqual(['risk free']);
  });

  it('reports the figures of two sentences as two findings', () => {
    expect(found('unqualified-projection', 'You could earn 6% a year. You could earn 8% a year.')).toEqual(['6%', '8%']);
  });

  it('lists the findings of every rule in the order of the text', () => {
    expect(findInText('Risk free and guaranteed returns.').map((match) => match.text)).toEqual(['Risk free', 'guaranteed returns']);
  });
});

describe('the edges of the engine: windows, exceptions, contexts and order', () => {
  it('does not read a Markdown link title after two spaces as copy, nor a "#" inside a line as a heading', () => {
    expect(checkCompliance({ content: 'See [our guide](https://example.com/guide  "Risk-free returns").', format: 'markdown' })).toEqual([]);
    expect(maskMarkup('Rule # 1 and a #2', 'markdown')).toBe('Rule # 1 and a #2');
  });

  it('reads "n\'t" as a negation only at the end of a word ("don\'ts" is no negation)', () => {
    expect(found('guaranteed-returns', "Do's and don'ts: guaranteed returns every year.")).toEqual(['guaranteed returns']);
  });

  it('counts a qualifier before the claim only within QUALIFIER_WINDOW characters', () => {
    const padding = ' Policy charges apply every month.'.repeat(Math.ceil(QUALIFIER_WINDOW / 34) + 1);
    expect(found('unqualified-projection', `Hypothetical.${padding} You could earn 6% a year.`)).toEqual(['6%']);
    expect(found('unqualified-projection', `Hypothetical. You could earn 6% a year.`)).toEqual([]);
  });

  it('reads an exception\'s words before and after a match within its sentence only', () => {
    // "Premiums" in the next sentence does not make the figure a premium.
    expect(found('unqualified-projection', 'You could earn 5%. Premiums vary.')).toEqual(['5%']);
    // A death benefit in the sentence before does not make "Income tax-free" the death benefit's exclusion.
    expect(found('tax-free-unqualified', 'The death benefit pays out. Income tax-free loans fund retirement.')).toEqual(['tax-free']);
  });

  it('reads an exception\'s own words in the match, not elsewhere in the text', () => {
    // "free of income tax" after a death benefit is the general rule; "free of tax" is not, whatever else the text says.
    expect(found('tax-free-unqualified', 'The death benefit is free of tax, unlike income from a bond.')).toEqual(['free of tax']);
    expect(found('tax-free-unqualified', 'The death benefit is free of income tax.')).toEqual([]);
  });

  it('flags a figure only with a word about returns in its own sentence, near it', () => {
    expect(found('unqualified-projection', 'About 40% of our readers are over 50.')).toEqual([]);
    expect(found('unqualified-projection', 'Returns vary. About 40% of readers agree.')).toEqual([]);
    expect(found('unqualified-projection', 'About 40% of readers agree. Returns vary.')).toEqual([]);
    expect(found('unqualified-projection', 'About 40% of readers say returns matter.')).toEqual(['40%']);
  });

  it('judges overlapping matches of one rule once: a negated match is not found again by another pattern', () => {
    expect(found('tax-free-unqualified', 'You pay no tax-free bonus.')).toEqual([]);
  });

  it('drops only the tail of a word cut by the look-back, not a whole word after it, nor a letter of it', () => {
    // Exactly 120 characters before the claim fall on the space before "not": four words back, "not" is read.
    expect(found('guaranteed-returns', `Well not ${'a'.repeat(36)} ${'b'.repeat(36)} ${'c'.repeat(40)} guaranteed returns.`)).toEqual([]);
    // Exactly 120 characters before the claim fall on the "k" of "knot": the word is whole, and "knot" is no "not".
    expect(found('guaranteed-returns', `The knot ${'x'.repeat(52)} ${'y'.repeat(61)} guaranteed returns every year.`)).toEqual(['guaranteed returns']);
    // ... on the "o" of "knot": only its tail "ot" is in the slice, and goes.
    expect(found('guaranteed-returns', `The knot ${'x'.repeat(51)} ${'y'.repeat(61)} guaranteed returns every year.`)).toEqual(['guaranteed returns']);
    // ... on the "k" of "slipknot": all of the cut tail "knot" goes, not just its first letter (which would leave "not").
    expect(found('guaranteed-returns', `The slipknot ${'x'.repeat(52)} ${'y'.repeat(61)} guaranteed returns every year.`)).toEqual(['guaranteed returns']);
    // ... on the "n" of "not": the whole word is in the slice, four words back, and negates the claim.
    expect(found('guaranteed-returns', `Well not ${'a'.repeat(36)} ${'b'.repeat(36)} ${'c'.repeat(41)} guaranteed returns.`)).toEqual([]);
  });

  it('reads a text as plain text unless told otherwise: a Markdown link target is copy there', () => {
    expect(findInText('See [our guide](https://example.com/risk-free-guide).').map((match) => match.text)).toEqual(['risk-free']);
    expect(findInText('See [our guide](https://example.com/risk-free-guide).', 'markdown')).toEqual([]);
  });

  it('lists two findings that start at the same place shorter first', () => {
    expect(findInText('0% risk on returns.').map((match) => [match.rule.id, match.text])).toEqual([
      ['unqualified-projection', '0%'],
      ['risk-free', '0% risk'],
    ]);
  });
});

describe('maskMarkup and lineColumn', () => {
  it('keeps the length of the text, so offsets into the masked text are offsets into the original', () => {
    const html = '<p>A &amp; B &#8217; &#x2014; <a href="/x">link</a> &#9999999; &bogus;</p><br/>';
    expect(maskMarkup(html, 'html')).toHaveLength(html.length);
    const markdown = '## Heading\n\n**bold** and [a link](https://example.com "title") and `code`';
    expect(maskMarkup(markdown, 'markdown')).toHaveLength(markdown.length);
  });

  it('reads an entity as the punctuation or space it stands for, and a tag as spaces or a line break, where they stood', () => {
    // A letter or digit written as an entity, or no character at all, stays a space: every letter the rules see is in the original.
    expect(maskMarkup('<p>A &amp; B &#8217; &#x2014; &#X2014; &#65; &#65574; &bogus; &LT; &Rsquo;</p>', 'html')).toBe(
      '.\n\nA &     B ’       —        —                               <    \'      .\n\n ',
    );
    expect(maskMarkup('<p>&gt; &quot; &apos; &lsquo; &ldquo; &rdquo; &ndash; &mdash; &hellip; &nbsp;|</p>', 'html')).toBe(
      '.\n\n>    "      \'      \'       "       "       -       -       .              |.\n\n ',
    );
    expect(maskMarkup('<P CLASS="x">a<br/>b<span>c</span>', 'html')).toBe('.\n\n          a.\n\n  b      c       ');
    expect(maskMarkup('## Heading\n\n**bold** and [a link](https://example.com "title") and `code` ~~x~~ _y_\n### Not #1', 'markdown')).toBe(
      '   Heading\n\n  bold   and [a link                               and  code    x    y \n    Not #1',
    );
    expect(maskMarkup('<p>a</p> &amp; **b**', 'text')).toBe('<p>a</p> &amp; **b**');
    expect(maskMarkup('a<!-- x -->b', 'html')).toBe('a          b');
  });

  it('reads a made-up named entity as spaces, even one whose name ends in digits', () => {
    // "&b46;" is no entity: it is not the character 46, ".", so it ends no sentence.
    expect(maskMarkup('A&b46; B &x21;', 'html')).toBe('A      B      ');
    expect(found('guaranteed-returns', '<p>Guaranteed&b46; returns every year.</p>')).toEqual(['Guaranteed returns']);
  });

  it('counts lines and columns from 1', () => {
    expect(lineColumn('ab\ncd', 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
    // An offset on a line break is the end of its line, not the start of the next.
    expect(lineColumn('ab\ncd', 2)).toEqual({ line: 1, column: 3 });
    expect(lineColumn('ab\ncd', 3)).toEqual({ line: 2, column: 1 });
  });
});

describe('acceptances', () => {
  const content = '<p>A risk-free plan with guaranteed returns.</p>';

  it('marks the findings of an accepted rule with the reason, and blockingFindings leaves them out', () => {
    const findings = checkCompliance({ content, accept: [{ rule: 'risk-free', reason: 'quoting a competitor’s ad to rebut it' }] });
    expect(findings.find((finding) => finding.rule === 'risk-free')?.accepted).toEqual({ reason: 'quoting a competitor’s ad to rebut it' });
    expect(findings.find((finding) => finding.rule === 'guaranteed-returns')?.accepted).toBeUndefined();
    expect(blockingFindings(findings).map((finding) => finding.rule)).toEqual(['guaranteed-returns']);
  });

  it('leaves nothing blocking when every high finding is accepted, and never blocks on a medium one', () => {
    const accept = [
      { rule: 'risk-free', reason: 'quoting a competitor’s ad to rebut it' },
      { rule: 'guaranteed-returns', reason: 'quoting the same ad, in the same paragraph' },
    ];
    expect(blockingFindings(checkCompliance({ content, accept }))).toEqual([]);
    expect(blockingFindings(checkCompliance({ content: '<p>Enjoy tax-free income.</p>' }))).toEqual([]);
  });

  it('names the acceptances that name no rule of this version', () => {
    expect(unknownAcceptances([
      { rule: 'risk-free', reason: 'a reason long enough' },
      { rule: 'risk_free', reason: 'a reason long enough' },
    ])).toEqual(['risk_free']);
  });

  it('tells an author whose reason is too short what the reviewer needs', () => {
    const result = complianceInputSchema.safeParse({ accept: [{ rule: 'risk-free', reason: 'ok' }] });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual(['must say in at least 10 characters why the finding is acceptable (the reviewer reads it)']);
  });

  it('names the rules\' version as a date', () => {
    expect(COMPLIANCE_RULES_VERSION).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('takes `compliance.accept` from a payload only with a reason a reviewer can read', () => {
    expect(complianceInputSchema.parse({})).toEqual({ accept: [] });
    expect(complianceInputSchema.safeParse({ accept: [{ rule: 'risk-free', reason: 'ok' }] }).success).toBe(false);
    expect(complianceInputSchema.parse({ accept: [{ rule: ' risk-free ', reason: ' quoting a competitor to rebut it ' }] })).toEqual({
      accept: [{ rule: 'risk-free', reason: 'quoting a competitor to rebut it' }],
    });
  });
});

describe('describeFinding', () => {
  it('gives the field, line:column, severity, rule, message and rewrite on one line', () => {
    const line = describeFinding(findingOf(checkCompliance({ content: 'Intro.\nOur policy guarantees returns.', format: 'text' }), 'guaranteed-returns'));
    expect(line).toMatch(/^content 2:12 high guaranteed-returns: "guarantees returns": guaranteed returns, growth or income\. Say what is guaranteed/);
    expect(line).not.toContain('\n');
    // An unaccepted finding ends with its rewrite.
    expect(line).toMatch(/"projected, not guaranteed"\.$/);
  });

  it('reads content as HTML unless told otherwise: words in an attribute are not findings', () => {
    const content = '<p><a href="/x" title="Your returns are guaranteed.">x</a></p>';
    expect(checkCompliance({ content }).filter((finding) => finding.severity === 'high')).toEqual([]);
    expect(checkCompliance({ content, format: 'text' }).map((finding) => finding.rule)).toContain('guaranteed-returns');
  });

  it('adds the acceptance reason, and leaves out the place for a finding about the whole post', () => {
    const findings = checkCompliance({ content: '<p>Risk-free.</p>', isNewsArticle: true, accept: [{ rule: 'risk-free', reason: 'a quoted headline' }] });
    expect(describeFinding(findingOf(findings, 'risk-free'))).toMatch(/\(accepted: a quoted headline\)$/);
    expect(describeFinding(findingOf(findings, 'news-without-fact-checker'))).toMatch(/^medium news-without-fact-checker: /);
  });
});

// ---------------------------------------------------------------------------------------------------
// Properties

/** Careful IUL copy, the way a compliance reviewer would want it written: it has no finding at all. */
const COMPLIANT_POST = {
  title: 'Indexed universal life, explained without the sales pitch',
  excerpt: 'What an IUL is, what it is not, and what an illustration can and cannot tell you.',
  paragraphs: [
    'An indexed universal life (IUL) policy is permanent life insurance. An IUL is not an investment, and it is not a retirement plan or a retirement account; it is a life insurance policy whose cash value can supplement retirement income.',
    'The cash value is credited from an index formula with a floor and a cap. Returns are not guaranteed, and no policy is risk-free: charges, loan interest and lapse all carry risk. A market drop is not credited as a loss, but policy charges still reduce the cash value.',
    'Policy loans can be tax-free under current tax law, if the policy is properly structured and stays in force. A loan reduces the death benefit until it is repaid.',
    'Our illustration shows a hypothetical 6% illustrated rate; actual results will vary and are not guaranteed. Whole life offers guaranteed cash value growth, subject to the claims-paying ability of the insurer.',
  ],
};

/** A random harmless edit of one word: its case, and the punctuation after it. */
const wordEdit = fc.record({
  casing: fc.constantFrom('keep', 'lower', 'upper', 'capital'),
  punctuation: fc.constantFrom('keep', 'keep', 'keep', 'comma', 'semicolon', 'drop', 'exclaim'),
  emphasis: fc.boolean(),
});

/** White space inside a sentence: spaces, tabs and at most one line break (a blank line would end it). */
const innerSpace = fc
  .array(fc.constantFrom(' ', '\t'), { minLength: 0, maxLength: 2 })
  .chain((run) => fc.boolean().map((newline) => (newline ? [...run, '\n'] : run.length > 0 ? run : [' ']).join('')));

const harmlessEdit = fc.record({
  words: fc.array(wordEdit, { minLength: 400, maxLength: 400 }),
  spaces: fc.array(innerSpace, { minLength: 400, maxLength: 400 }),
  format: fc.constantFrom<Format>('html', 'markdown', 'text'),
});

type HarmlessEdit = typeof harmlessEdit extends fc.Arbitrary<infer T> ? T : never;

function recase(word: string, casing: string): string {
  if (casing === 'lower') return word.toLowerCase();
  if (casing === 'upper') return word.toUpperCase();
  if (casing === 'capital') return word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
  return word;
}

/**
 * Punctuation after a word: a comma or semicolon added, a trailing comma, semicolon, colon or full stop
 * dropped, a full stop turned into "!". ("!" in the middle of a sentence would end it, and "No! Policy
 * is risk-free" reads as the claim: that edit is not harmless.)
 */
function repunctuate(word: string, punctuation: string): string {
  if (punctuation === 'comma') return `${word},`;
  if (punctuation === 'semicolon') return `${word};`;
  if (punctuation === 'drop') return word.replace(/[,;:.]$/, '');
  if (punctuation === 'exclaim') return word.replace(/\.$/, '!');
  return word;
}

/** The sample post after the edits, in the chosen format. */
function edited(edit: HarmlessEdit): ComplianceSubject {
  let wordIndex = 0;
  let spaceIndex = 0;
  const rewrite = (text: string, emphasise: boolean) =>
    text.replace(/\S+|\s+/g, (token) => {
      if (/^\s/.test(token)) return edit.spaces[spaceIndex++ % edit.spaces.length] ?? ' ';
      const change = edit.words[wordIndex++ % edit.words.length] ?? { casing: 'keep', punctuation: 'keep', emphasis: false };
      const word = repunctuate(recase(token, change.casing), change.punctuation);
      if (!emphasise || !change.emphasis) return word;
      return edit.format === 'html' ? `<strong>${word}</strong>` : edit.format === 'markdown' ? `**${word}**` : word;
    });
  const paragraphs = COMPLIANT_POST.paragraphs.map((paragraph) => rewrite(paragraph, true));
  const content = edit.format === 'html' ? paragraphs.map((paragraph) => `<p>${paragraph}</p>`).join('\n') : paragraphs.join('\n\n');
  return {
    title: rewrite(COMPLIANT_POST.title, false),
    excerpt: rewrite(COMPLIANT_POST.excerpt, false),
    content,
    format: edit.format,
    author: { credentials: 'Licensed life agent, TX #1234567' },
  };
}

function highFindings(findings: readonly ComplianceFinding[]): string[] {
  return findings.filter((finding) => finding.severity === 'high').map((finding) => `${finding.rule}: ${finding.location?.text ?? ''}`);
}

describe('a compliant post', () => {
  it('has no finding at all, in any format', () => {
    const plain = COMPLIANT_POST.paragraphs.join('\n\n');
    const author = { credentials: 'Licensed life agent, TX #1234567' };
    expect(checkCompliance({ title: COMPLIANT_POST.title, excerpt: COMPLIANT_POST.excerpt, content: plain, format: 'text', author })).toEqual([]);
    expect(checkCompliance({ content: plain, format: 'markdown', author })).toEqual([]);
    expect(checkCompliance({ content: COMPLIANT_POST.paragraphs.map((paragraph) => `<p>${paragraph}</p>`).join(''), format: 'html', author })).toEqual([]);
  });

  it('never gets a high finding after edits that change case, white space, punctuation or markup', () => {
    fc.assert(
      fc.property(harmlessEdit, (edit) => {
        expect(highFindings(checkCompliance(edited(edit)))).toEqual([]);
      }),
      { numRuns: runs(300) },
    );
  });
});

/** Letters and digits of a text, word by word, in lower case. */
function wordsOf(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/** Whether `words` appear in `text`, in order. */
function holdsInOrder(text: string, words: readonly string[]): boolean {
  const lower = text.toLowerCase();
  let from = 0;
  for (const word of words) {
    const at = lower.indexOf(word, from);
    if (at === -1) return false;
    from = at + word.length;
  }
  return true;
}

/** Text made of the rules' own words and markup, so that random text often holds a finding. */
const ruleishText = fc
  .array(
    fc.constantFrom(
      'guaranteed', 'returns', 'growth', 'risk', 'free', 'no', 'not', "can't", 'lose', 'IUL', 'is', 'an', 'investment', 'retirement', 'plan',
      'tax', 'tax-free', 'current', 'law', '6%', '$1,000', 'grows', 'hypothetical', 'best', 'policy', '#1', 'invest', 'in', 'the',
      '<p>', '</p>', '<em>', '</em>', '&amp;', '&#8217;', '&#9999999;', '**', '](x)', '.', ',', ';', '!', '\n', '\n\n', ' ', '\t', 'é', '😀',
    ),
    { maxLength: 60 },
  )
  .map((parts) => parts.join(' '));

describe('any text at all', () => {
  const anyText = fc.oneof(fc.string({ maxLength: 300 }), fc.string({ unit: 'binary', maxLength: 300 }), ruleishText);

  it('is checked without an error, and every finding points at the words it quotes', () => {
    fc.assert(
      fc.property(anyText, fc.constantFrom<Format>('html', 'markdown', 'text'), (text, format) => {
        const subject: ComplianceSubject = { title: text, excerpt: text, content: text, format };
        for (const finding of checkCompliance(subject)) {
          if (!finding.location) continue;
          const { field, start, end, line, column } = finding.location;
          const original = subject[field] ?? '';
          expect(holdsInOrder(original.slice(start, end), wordsOf(finding.location.text))).toBe(true);
          expect(lineColumn(original, start)).toEqual({ line, column });
        }
      }),
      { numRuns: runs(1000) },
    );
  });

  it('of 250,000 characters is checked in one go, whatever it repeats', () => {
    const size = MUTATION_RUN ? 50_000 : 250_000;
    const inputs = ['guaranteed ', 'a ', 'guaranteed returns ', 'risk free. ', '$1,000 at 6% ', '<p', '<p>', '](', '&amp', '1,1', '!', '\n \n'].map((unit) =>
      unit.repeat(Math.ceil(size / unit.length)).slice(0, size),
    );
    for (const content of inputs) {
      for (const format of ['html', 'markdown', 'text'] as const) {
        expect(() => checkCompliance({ content, format })).not.toThrow();
      }
    }
  });
});

/**
 * The rules run without `i` on text folded once (decision 0040): they must find exactly what the rules as
 * written (`iu`) find on the text as it is, at the same offsets, on any text: the rules' own words in any
 * casing, with the characters a case-insensitive match treats as others (the Kelvin sign as "k", the long
 * s as "s", the Greek iota subscript as a letter, the dotted and dotless i which match no "i"), markup,
 * entities and sentence ends.
 */
describe('the folded matcher', () => {
  const ruleWords = [
    'guaranteed', 'returns', 'return', 'tax-free', 'tax free', 'income', 'IUL', 'policy', 'risk-free', 'no risk', 'never', 'lose', 'money', 'best',
    'the best', 'AM Best', 'not', "can't", 'cannot', 'death benefit', 'according to', 'hypothetical', 'illustration', 'average', 'earn', 'growth',
    'market', 'losses', 'investment', 'retirement plan', 'Roth IRA', '401k', 'like a Roth', 'under current tax law', 'if the policy', 'stays in force',
    'compound', 'cash value', 'double', 'safe', 'protected', 'zero', 'floor', 'cap', 'minimum', 'fees', 'premiums', 'loan', 'rate', 'free of tax',
    '10%', '7.5 percent', '$5,000', '$1.2 million', '0%', 'non-guaranteed', 'rated by', 'number one', '#1', 'top', 'only', 'always', 'everyone',
  ];
  const tricky = ['\u0663', '\u00bd', '\u{1d7d9}', '\u00c9', '\u212a', '\u017f', '\u0345', '\u0130', '\u0131', '\u00df', '\u1e9e', '\u03c2', '\u03a3', '\u00e9', '\u2019', '\u2013', '\u2014', '\u00a0', '\u{10400}', '\u{1f600}', '\u2160', '\u24b6'];
  const casing = (word: string, how: number, at: number): string => {
    if (how === 0) return word;
    if (how === 1) return word.toUpperCase();
    if (how === 2) return word.charAt(0).toUpperCase() + word.slice(1);
    // A letter swapped for one a case-insensitive match takes for it (or for another letter, or none).
    const swap: Record<string, string> = { k: '\u212a', K: '\u212a', s: '\u017f', S: '\u017f', i: '\u0131', I: '\u0130', t: 'T' };
    // The letter at `at`, or the first one a swap exists for, if any.
    const swappable = [...word].findIndex((letter) => swap[letter] !== undefined);
    const index = at % 2 === 0 && swappable !== -1 ? swappable : at % Math.max(1, word.length);
    const letter = word.charAt(index);
    return word.slice(0, index) + (swap[letter] ?? letter.toUpperCase()) + word.slice(index + 1);
  };
  const token = fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .tuple(fc.constantFrom(...ruleWords), fc.integer({ min: 0, max: 3 }), fc.nat(), fc.option(fc.constantFrom(...tricky), { freq: 3 }), fc.option(fc.constantFrom(...tricky), { freq: 3 }))
        // A tricky character right against a word: what a word boundary (a letter or not?) decides.
        .map(([word, how, at, before, after]) => `${before ?? ''}${casing(word, how, at)}${after ?? ''}`),
    },
    { weight: 2, arbitrary: fc.constantFrom(...tricky) },
    { weight: 1, arbitrary: fc.constantFrom('.', '!', '?', ',', ';', '"', "'", '(', ')', '\n\n', '<p>', '</p>', '<b>', '&amp;', '&#8217;', '&nbsp;', '*', '_', '# ', '[a](http://x.test)') },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 4 }) },
  );
  const separator = fc.constantFrom(' ', ' ', ' ', '', '-', '\n', '\u2013');
  const text = fc.array(fc.tuple(token, separator), { maxLength: 60 }).map((parts) => parts.map(([word, gap]) => word + gap).join(''));
  const format = fc.constantFrom<Format>('text', 'html', 'markdown');
  const plain = (matches: ReturnType<typeof findInText>) => matches.map((match) => ({ rule: match.rule.id, start: match.start, end: match.end, text: match.text }));

  it('finds exactly what the rules as written find, at the same offsets, on generated text', () => {
    fc.assert(
      fc.property(text, format, (value, how) => {
        expect(plain(findInText(value, how))).toEqual(plain(findInTextAsWritten(value, how)));
      }),
      { numRuns: 1000 },
    );
  });

  it('finds exactly what the rules as written find in the demo and fixture posts', () => {
    const samples = [
      'IUL offers GUARANTEED RETURNS and \u212aeeps your money risk-free.',
      'It is ta\u017f-free income. It is TA\u0130X-FREE? It is tax-free under current tax law.',
      'Returns of 10% a year, \u0345 8% hypothetical, $5,000 tax\u2013free income \u2014 the be\u017ft policy.',
      'No\u0131 guaranteed returns. Never lose money. Never lo\u017fe money.',
      '\u0345guaranteed returns, guaranteed returns\u0345 and guaranteed returns.',
      // A mark a case-insensitive match takes for a letter, but the negation's word split does not.
      '\u0345cannot tax-free income. \u00e9cannot tax-free income. It is \u0345not risk-free.',
    ];
    for (const sample of samples) expect(plain(findInText(sample))).toEqual(plain(findInTextAsWritten(sample)));
    expect(plain(findInText(samples[0] ?? '')).map((match) => match.text)).toContain('GUARANTEED RETURNS');
  });

  it('folds without moving an offset: the same length, capitals small, the Kelvin sign and long s as k and s', () => {
    // Other letters and numbers are one letter and one number of their UTF-16 length; marks, symbols and emoji stay.
    expect(foldText('IUL \u212a\u017f \u0345\u0130\u0131\u00df\u00c9 \u{10400}\u{1f600} \u0663\u2160\u00bd\u{1d7d9} \u2013\u24b6')).toBe(
      'iul ks \u00e9\u00e9\u00e9\u00e9\u00e9 \u{10428}\u{1f600} \u00b2\u00b2\u00b2\u{1d7ce} \u2013\u24b6',
    );
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (value) => foldText(value).length === value.length));
  });

  it('makes a rule regex its twin for folded text, and refuses one it cannot fold: not case-insensitive Unicode, or naming a letter outside ASCII', () => {
    const written = /(?<![\p{L}])Guaranteed\s+IUL/giu;
    const twin = caseFolded(written);
    expect(twin.flags).toBe('gu');
    expect(twin.source).toBe(String.raw`(?<![a-z\u00e9\u{10428}])guaranteed\s+iul`);
    // Made once per regex.
    expect(caseFolded(written)).toBe(twin);
    const letterFree = /^100\s*%/u;
    expect(caseFolded(letterFree)).toBe(letterFree);
    expect(() => caseFolded(/guaranteed/gu)).toThrow('is not case-insensitive Unicode (iu)');
    expect(() => caseFolded(/guaranteed/i)).toThrow('is not case-insensitive Unicode (iu)');
    // Letter-free but not Unicode, and a case-sensitive one whose only letters are capitals: neither reads folded text as written.
    expect(() => caseFolded(/^100\s*%/)).toThrow('is not case-insensitive Unicode (iu)');
    expect(() => caseFolded(/IUL/u)).toThrow('is not case-insensitive Unicode (iu)');
    expect(() => caseFolded(/garantie\u0301|garantié/iu)).toThrow('names a letter outside ASCII');
  });

  it('writes \\p{L} and \\p{N} as the letters and numbers folded text holds, in a class or as one', () => {
    expect(smallClasses(String.raw`\p{N}+\[\p{L}`)).toBe(String.raw`[0-9\u00b2\u{1d7ce}]+\[[a-z\u00e9\u{10428}]`);
    expect(smallClasses(String.raw`(?<![\p{L}\p{N}])a[^\p{L}\p{N}%$#']+\p{L}\\p{N}\P{L}[\]\p{N}]`)).toBe(
      String.raw`(?<![a-z\u00e9\u{10428}0-9\u00b2\u{1d7ce}])a[^a-z\u00e9\u{10428}0-9\u00b2\u{1d7ce}%$#']+[a-z\u00e9\u{10428}]\\p{N}\P{L}[\]0-9\u00b2\u{1d7ce}]`,
    );
  });

  it('makes small only the literal capitals of a source, not its escapes or group names', () => {
    expect(lowerCaseLiterals(String.raw`(?<Name>A[B-Z]\S\P{L}\p{Lu}\u00C0\u{1F600}\x4A\cJ\k<Name>)(?<!Q)(?<=R)`)).toBe(String.raw`(?<Name>a[b-z]\S\P{L}\p{Lu}\u00C0\u{1F600}\x4A\cJ\k<Name>)(?<!q)(?<=r)`);
  });
});
