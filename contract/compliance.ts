/**
 * The compliance rules for insurance advertising: what an agency's compliance reviewer would flag in a
 * post before it goes live (NAIC Model 570 treats a web page about a policy as an advertisement). The
 * rules are typed data, versioned here; `checkCompliance` runs them over a post and `findInText` over
 * any text (HTML, Markdown or plain), returning where each finding sits. Pure: the server, the CLI
 * (`blogpost lint`, `validate`, `publish`) and the usage-examples page run the same code.
 *
 * How matching works (docs/compliance.md has it for authors): words are compared without regard to
 * case and with any run of spaces, line breaks or punctuation between them ("risk-free", "Risk free",
 * "risk\nfree"), but never across a sentence end or a paragraph (a blank line, `</p><p>`); markup is
 * masked to spaces of the same length, so offsets point into the original. Each rule lists the
 * inflections it takes; a rule marked `negatable` ignores a match with a negation among the four words
 * before it in the same sentence ("IUL is not risk-free"); a qualifier is "nearby" when it is within
 * QUALIFIER_WINDOW characters before or after the match; and a rule's `exceptions` name what reads like
 * a finding and is not one ("the risk-free rate", "a 10% penalty"). Every step is linear in the text's
 * length: a post is checked on every request, and no input may make that slow.
 */
import { z } from 'zod';
import { COMPLIANCE_SEVERITIES } from './choices';

/** Bumped whenever a rule is added, removed or changes what it matches. */
export const COMPLIANCE_RULES_VERSION = '2026-11-26';

/** The header every answer with findings names the server's COMPLIANCE_RULES_VERSION in (the CLI compares it with its own). */
export const COMPLIANCE_RULES_HEADER = 'X-Compliance-Rules';

export const COMPLIANCE_MODES = ['warn', 'review', 'block'] as const;
export type ComplianceMode = (typeof COMPLIANCE_MODES)[number];

export { COMPLIANCE_SEVERITIES };
export type ComplianceSeverity = (typeof COMPLIANCE_SEVERITIES)[number];

/** How far (in characters, either side) a qualifier such as "hypothetical" counts as nearby. */
export const QUALIFIER_WINDOW = 300;
/** How many words before a match are searched for a negation. */
export const NEGATION_WORDS = 4;

/** The fields of a post the text rules read. */
export const COMPLIANCE_FIELDS = ['title', 'excerpt', 'content'] as const;
export type ComplianceField = (typeof COMPLIANCE_FIELDS)[number];

/** An author's acceptance of a rule's findings in one post, with the reason a reviewer reads. */
export interface ComplianceAcceptance {
  rule: string;
  reason: string;
}

export const COMPLIANCE_LIMITS = { acceptMax: 20, reasonMin: 10, reasonMax: 500 } as const;

/** The `compliance` field a post payload may carry (and Markdown front matter as `compliance:`). */
export const complianceInputSchema = z.object({
  accept: z
    .array(
      z.object({
        rule: z.string().trim().min(1).max(60),
        reason: z
          .string()
          .trim()
          .min(COMPLIANCE_LIMITS.reasonMin, `must say in at least ${COMPLIANCE_LIMITS.reasonMin} characters why the finding is acceptable (the reviewer reads it)`)
          .max(COMPLIANCE_LIMITS.reasonMax),
      }),
    )
    .max(COMPLIANCE_LIMITS.acceptMax)
    .default([]),
});

/** Where a finding's matched text sits in a field: offsets into the field's text, line and column from 1. */
export interface FindingLocation {
  field: ComplianceField;
  text: string;
  start: number;
  end: number;
  line: number;
  column: number;
}

export interface ComplianceFinding {
  rule: string;
  severity: ComplianceSeverity;
  /** What was found, in a sentence. */
  message: string;
  /** Why it matters to a regulator, in a sentence. */
  why: string;
  /** How to say it instead. */
  suggestion: string;
  /** Null for a finding about the whole post (a news article without a fact-checker). */
  location: FindingLocation | null;
  /** Set when the post's `compliance.accept` accepts this rule, with the author's reason. */
  accepted?: { reason: string };
  /**
   * For a post sent with its Markdown source: where the finding sits in that file as it was sent (front
   * matter included; line and column from 1), found by the same code `blogpost lint` runs on the file.
   */
  source?: { line: number; column: number };
}

/** What the rules need of a post. */
export interface ComplianceSubject {
  title?: string;
  excerpt?: string;
  content?: string;
  /** How `content` is written: HTML (the API), Markdown (a post file) or plain text. */
  format?: 'html' | 'markdown' | 'text';
  isNewsArticle?: boolean | null;
  author?: { credentials?: string | null } | null;
  trust?: { factCheckedBy?: { name?: string } | null; sources?: readonly unknown[] | null } | null;
  accept?: readonly ComplianceAcceptance[];
}

/**
 * A case in which a rule's match is not a finding, and why. Every condition given must hold: `before` is
 * tested on the sentence up to the match (anchor it with `$`), `after` on the sentence from the end of
 * the match (anchor it with `^`), `match` on the matched text.
 */
export interface RuleException {
  before?: RegExp;
  match?: RegExp;
  after?: RegExp;
  why: string;
}

/** A rule matched against text. */
export interface TextRule {
  kind: 'text';
  id: string;
  severity: ComplianceSeverity;
  title: string;
  why: string;
  suggestion: string;
  patterns: readonly RegExp[];
  /** A negation among the words before the match makes it harmless. */
  negatable: boolean;
  /** Any of these nearby makes the match qualified (and not a finding). */
  qualifiers: readonly RegExp[];
  /** A match is only a finding when one of these is within CONTEXT_WINDOW characters of it, in its sentence (when given). */
  context?: RegExp;
  /** Matches that read like a finding and are not one ("the risk-free rate", "a 10% penalty"). */
  exceptions?: readonly RuleException[];
  /** The rule's matches in one sentence are one finding spanning them (the figures of one worked example). */
  mergeBySentence?: boolean;
  /** A post with one of these is qualified as a whole (the superlative rule: the post cites sources). */
  postQualifies?: (subject: ComplianceSubject) => boolean;
}

/** A rule about the post as a whole. */
export interface PostRule {
  kind: 'post';
  id: string;
  severity: ComplianceSeverity;
  title: string;
  why: string;
  suggestion: string;
  applies: (subject: ComplianceSubject, textFindings: readonly ComplianceFinding[]) => string | null;
}

export type ComplianceRule = TextRule | PostRule;

/**
 * A finding in the site's own copy (web/content) accepted beside the copy: a content module exports
 * `complianceAccepted: ComplianceCopyAcceptance[]`, and tests/content/compliance.test.ts fails for a
 * finding without one and for one that no longer matches a finding.
 */
export interface ComplianceCopyAcceptance {
  rule: string;
  /** The finding's matched text, exactly as `location.text` shows it. */
  text: string;
  /** A piece of the string that holds the match, when the same match is found in more than one string of the module. */
  where?: string;
  /** Why the copy may say it, for the reviewer: what the statement is about and what qualifies it. */
  reason: string;
}

/** How far (in characters, either side, within the sentence) a rule's context words count as "about" a match. */
export const CONTEXT_WINDOW = 80;

/** Letters and digits; everything else separates words. */
const SEP = "[^\\p{L}\\p{N}%$#']+";
const SEP_OPT = `(?:${SEP})?`;
/** Between the words of a compound noun ("IUL investment"): spaces or a hyphen, not a comma of a list. */
const SPACE = '[\\s\\-‐–]+';
const START = '(?<![\\p{L}\\p{N}])';
const END = '(?![\\p{L}\\p{N}])';
const ANY_WORD = `[\\p{L}\\p{N}'%$]+`;

/** A pattern for a sequence of words (each a regex alternation), any separators between them. */
function words(...parts: string[]): RegExp {
  return new RegExp(`${START}${parts.map((part) => `(?:${part})`).join(SEP)}${END}`, 'giu');
}

/** Any pattern, with word boundaries. */
function pattern(source: string): RegExp {
  return new RegExp(`${START}(?:${source})${END}`, 'giu');
}

/** A source for words written with single spaces ("claims paying ability"), any separators between them. */
function seq(text: string): string {
  return text.split(' ').join(SEP);
}

/** Text before a match that ends with one of `cues` and at most `gap` more words ("a charge of typically"). */
function endsWithCue(cues: string, gap: number): RegExp {
  return new RegExp(`${START}(?:${cues})(?:${SEP}${ANY_WORD}){0,${gap}}${SEP}$`, 'iu');
}

/** Text after a match that starts, within `gap` words, with one of `cues` ("5-10% of each premium"). */
function startsWithCue(cues: string, gap: number): RegExp {
  return new RegExp(`^(?:${SEP}${ANY_WORD}){0,${gap}}${SEP}(?:${cues})${END}`, 'iu');
}

/**
 * Words that join two ideas instead of modifying one ("guarantees above growth", "an alternative to an
 * investment"): a rule's words may be separated by modifiers ("guaranteed 7% annual returns"), never by these.
 */
const JOINERS =
  'above|over|and|or|but|than|versus|vs|before|after|instead|rather|not|no|nor|without|with|to|like|unlike|plus|except|while|minimum|floor|death|benefits?|premiums?|alternatives?|substitutes?|replacements?|supplements?|complements?';

/** Up to `max` words that are not joiners, each followed by a separator. */
function modifiers(max: number): string {
  // Lazy: the shortest phrase that makes the claim is the one to show ("Guaranteed growth", not "Guaranteed growth; dividends").
  return `(?:(?!(?:${JOINERS})${END})${ANY_WORD}${SEP}){0,${max}}?`;
}

const GAINS = `returns?|growth|income|gains?|profits?|yields?|earnings|interest|results?|appreciation|dividends?|payouts?|rates?(?:${SEP}of${SEP}returns?)?`;
const POLICY = `polic(?:y|ies)`;
const IUL = `iuls?|indexed${SEP}universal${SEP}life(?:${SEP}insurance)?(?:${SEP}${POLICY})?|(?:this|the|an?|your|my|our)${SEP}(?:life${SEP}insurance${SEP})?${POLICY}|life${SEP}insurance(?:${SEP}${POLICY})?`;
const AS_WHAT = `is|are|as|becomes?|(?:works?|acts?|serves?|functions?|doubles?)${SEP}as|makes?(?:${SEP}for)?`;
const ARTICLE = 'an?|your|the|my|our|their|one';
const RETIREMENT_VEHICLE = `investments?|investment${SPACE}(?:vehicles?|accounts?|products?|portfolios?)|retirement${SPACE}(?:plans?|accounts?|vehicles?|savings${SPACE}(?:plans?|accounts?))|pensions?(?:${SPACE}plans?)?|401${SEP_OPT}k|(?:roth${SPACE})?iras?`;

const TAX_QUALIFIERS = [
  pattern(`(?:current|today's|present|existing)${SEP}(?:federal${SEP})?(?:income${SEP})?tax${SEP}(?:laws?|rules|code)|under${SEP}(?:current|today's|present)${SEP}(?:law|rules)`),
  pattern(`internal${SEP}revenue${SEP}code|irc|(?:section${SEP})?7702|modified${SEP}endowment|mec`),
  pattern(`(?:properly|correctly|well)${SEP}(?:structured|funded|designed)|in${SEP}force`),
];

const PROJECTION_QUALIFIERS = [
  pattern(`hypothetical(?:ly)?|illustrat(?:ive|ion|ions|ed|es)|projections?|projected|assum(?:e|es|ed|ing|ptions?)`),
  pattern(`not${SEP}(?:a${SEP})?guarantee[ds]?|non${SEP}guaranteed|(?:may|will|can|could)${SEP}vary|for${SEP}example|e${SEP}g|past${SEP}(?:index${SEP})?performance`),
];

const NUMBER = '\\d+(?:,\\d{3})*(?:[.,]\\d+)?';
const PERCENT = `\\d+(?:[.,]\\d+)?(?:\\s*(?:-|–|to)\\s*\\d+(?:[.,]\\d+)?)?${SEP_OPT}(?:%|percent)`;
const DOLLARS = `\\$${SEP_OPT}${NUMBER}(?:\\s*(?:-|–|to)\\s*\\$?${NUMBER})?(?:${SEP_OPT}(?:k|m|mm|million|thousand|billion|trillion))?`;

/** The death benefit, by name or by what it is. */
const DEATH_BENEFIT = `death${SEP}benefits?|(?:payments?|payouts?)${SEP}to${SEP}(?:your${SEP}|their${SEP}|the${SEP})?beneficiar(?:y|ies)`;

/** What a figure is when it is not a return: a charge, a limit, a premium, a feature of the policy. */
const COST_BEFORE =
  `charges?|fees?|spread|penalt(?:y|ies)|costs?|premiums?|contribut\\w*|put${SEP}in|limits?|limited|allows?|caps?|capped|floors?|minimum|maximum|phase\\w*|catch${SEP}up|deduct\\w*|deferrals?|brackets?|loans?|borrow\\w*|access${SEP}to|start(?:s|ed|ing)?${SEP}(?:at|with)|recommend\\w*|suggest\\w*|budget\\w*|filers?|filing|tax${SEP}rates?|participation${SEP}rates?|expense${SEP}ratios?|inflation|debt|owe\\w*`;
const COST_AFTER = `penalt(?:y|ies)|fees?|charges?|spread|premiums?|catch${SEP}up|loan${SEP}interest|tax${SEP}(?:rate|bracket)s?|caps?|floors?|participation${SEP}rates?|single|married|filers?|filing|of${SEP}(?:each${SEP})?(?:premiums?|pay|compensation|salary|cash${SEP}value)`;

export const COMPLIANCE_RULES: readonly ComplianceRule[] = [
  {
    kind: 'text',
    id: 'guaranteed-returns',
    severity: 'high',
    title: 'Guaranteed returns, growth or income',
    why: 'Indexed credits, growth and policy income are not guaranteed; calling them guaranteed is the classic misrepresentation finding.',
    suggestion: 'Say what is guaranteed and by whom (e.g. "a 0% floor on index credits, subject to the insurer\'s claims-paying ability"), and call growth and income "potential" or "projected, not guaranteed".',
    patterns: [
      words('guarantee[ds]?|guaranteeing', `${modifiers(3)}(?:${GAINS})`),
      pattern(`(?:${GAINS})(?:${SEP}(?:is|are|will|remains?|stays?)(?:${SEP}(?:be|always|fully|completely|100%)){0,2}${SEP}|${SPACE})guaranteed`),
      pattern(seq('guaranteed to (?:grow|earn|double|increase|compound|outperform|beat|rise|gain|return|make money)')),
      pattern(`guarantee[ds]?(?:${SEP}(?:an?|you|your))?${SEP}${PERCENT}`),
    ],
    negatable: true,
    qualifiers: [pattern(seq('claims paying ability')), pattern(`guaranteed${SEP}(?:minimum|floor)|minimum${SEP}guaranteed`)],
    exceptions: [
      { after: startsWithCue('floors?|minimum|death benefits?', 0), why: 'a guaranteed floor, minimum or death benefit is a term of the contract, not a promised return' },
      { match: /(?<![\d.,])0(?:[.,]\d+)?\s*(?:%|percent|-|–|to)/iu, why: 'a guaranteed 0% is the floor, not a promised return' },
      { before: /(?<![\p{L}\p{N}])non[\s\-‐–]*$/iu, why: '"non-guaranteed" says the opposite' },
    ],
  },
  {
    kind: 'text',
    id: 'risk-free',
    severity: 'high',
    title: '"Risk-free", "no risk" or "can\'t lose"',
    why: 'Every policy carries costs, lapse risk and the insurer\'s credit risk; promising no risk or no loss misrepresents the product.',
    suggestion: 'Name the protection precisely: "index credits have a 0% floor, so a market drop is not credited as a loss; policy charges still apply".',
    patterns: [
      words('risk', 'free|less'),
      words('riskless'),
      pattern(`(?:no|zero|0${SEP_OPT}%)(?:${SEP}(?:any|market|downside|loss|losses|investment|principal)){0,2}${SEP}risks?(?!${SEP}(?:free|less)${END})`),
      // `'\s*`: an apostrophe written as an entity ("can&rsquo;t") is read as "'" and spaces (maskMarkup).
      words(`can'\\s*t|cannot|can${SEP}not|can${SEP}never|won'\\s*t|will${SEP}never|never|impossible${SEP}to`, 'lose|loses|losing'),
    ],
    negatable: true,
    qualifiers: [],
    exceptions: [
      { after: startsWithCue(`rates?|interest${SEP}rates?|assets?|treasur\\w*|bonds?`, 0), why: '"the risk-free rate" is the finance term for a Treasury yield, not a claim about a policy' },
      { after: startsWithCue(`(?:no|zero)${SEP}(?:obligation|cost|commitment)|(?:to|in)${SEP}(?:ask|asking|request\\w*|call\\w*|book\\w*|try\\w*|talk\\w*)`, 0), why: '"no risk, no obligation" is about asking for an illustration, not about the policy' },
      { after: startsWithCue('sight|track|touch', 0), why: '"never lose sight of" is an idiom' },
    ],
  },
  {
    kind: 'text',
    id: 'investment-or-retirement-plan',
    severity: 'high',
    title: 'IUL called an investment or a retirement plan',
    why: 'Regulators have ordered IUL marketers to stop presenting life insurance as an investment, a retirement plan or a retirement account.',
    suggestion: 'Call it what it is: "a life insurance policy whose cash value can supplement retirement income".',
    patterns: [
      words(IUL, AS_WHAT, ARTICLE, `${modifiers(3)}(?:${RETIREMENT_VEHICLE})`),
      words(IUL, `is|are|as|becomes?|works?${SEP}as`, RETIREMENT_VEHICLE),
      words('invest(?:s|ed|ing)?', 'in(?:to)?', `(?:(?:an?|your|the)${SEP})?(?:${IUL})`),
      pattern(`(?:iuls?|indexed${SPACE}universal${SPACE}life(?:${SPACE}insurance)?)${SPACE}(?:investments?|retirement${SPACE}(?:plans?|accounts?))`),
      pattern(`lirps?|life${SEP}insurance${SEP}retirement${SEP}plans?`),
    ],
    negatable: true,
    qualifiers: [],
    exceptions: [
      {
        after: startsWithCue('alternatives?|substitutes?|replacements?|supplements?|complements?|rivals?|competitors?', 0),
        why: '"a 401(k) alternative" compares the policy with a plan; it does not call it one',
      },
    ],
  },
  {
    kind: 'text',
    id: 'tax-free-unqualified',
    severity: 'medium',
    title: '"Tax-free" without its condition',
    why: 'Policy loans and withdrawals are tax-free only under current tax law and while the policy stays in force and is not a modified endowment contract.',
    suggestion: 'Add the condition nearby: "tax-free under current tax law, if the policy is properly structured and stays in force".',
    patterns: [
      words('tax', 'free|exempt'),
      words('taxfree'),
      words('free', 'of', `(?:(?:federal|income)${SEP})?tax(?:es)?`),
      words('never', 'pay', `(?:any${SEP})?(?:income${SEP})?tax(?:es)?`),
      words('pay', 'no|zero', `(?:income${SEP})?tax(?:es)?`),
    ],
    negatable: true,
    qualifiers: TAX_QUALIFIERS,
    exceptions: [
      // The death benefit's exclusion from income tax (IRC 101(a)) is not the loan-and-withdrawal claim
      // this rule is about, when the copy says "income tax", as it should.
      { before: new RegExp(`income${SEP}$`, 'iu'), after: startsWithCue(DEATH_BENEFIT, 0), why: 'an income-tax-free death benefit is the general rule (IRC 101(a)), not a claim about policy income' },
      { before: endsWithCue(DEATH_BENEFIT, 5), match: /income/iu, why: 'a death benefit "free of income tax" is the general rule (IRC 101(a)), not a claim about policy income' },
      { before: new RegExp(`death${SEP}benefits?(?:${SEP}${ANY_WORD}){0,5}?${SEP}income${SEP}$`, 'iu'), why: 'a death benefit that is "income-tax-free" is the general rule (IRC 101(a)), not a claim about policy income' },
    ],
  },
  {
    kind: 'text',
    id: 'unqualified-projection',
    severity: 'medium',
    title: 'A return or projected figure without "hypothetical"',
    why: 'Illustrated rates and dollar projections are limited by AG 49-A and must be shown as hypothetical, not guaranteed.',
    suggestion: 'Label the figure: "a hypothetical projection at a 6% illustrated rate, not guaranteed; actual results will vary".',
    patterns: [pattern(PERCENT), pattern(DOLLARS)],
    negatable: false,
    qualifiers: PROJECTION_QUALIFIERS,
    context: pattern(
      `returns?|growth|grows?|growing|grown|grew|earn(?:s|ed|ing|ings)?|yield(?:s|ed|ing)?|gains?|averag(?:e|es|ed|ing)|compound(?:s|ed|ing)?|accumulat\\w*|gives?|becomes?|turns?${SEP}into|worth|reach(?:es|ed)?|doubles?|doubled|income|cash${SEP}value|payouts?|nest${SEP}egg|retire${SEP}with|results?|(?:illustrated|crediting|credited|assumed|interest|growth)${SEP}rates?`,
    ),
    exceptions: [
      { before: endsWithCue(COST_BEFORE, 3), why: 'a charge, a limit, a premium or a loan rate is not a return' },
      { after: startsWithCue(COST_AFTER, 3), why: 'a charge, a limit, a premium or a loan rate is not a return' },
      { after: startsWithCue('into', 6), why: 'money paid into a policy is a premium, not a return' },
      { match: /^100\s*%/u, after: startsWithCue('tax|of', 0), why: '"100% tax-free" is a share, not a rate of return' },
    ],
    mergeBySentence: true,
  },
  {
    kind: 'text',
    id: 'unsourced-superlative',
    severity: 'medium',
    title: 'A superlative without a source',
    why: 'Model 570 bars claims of superiority that the advertiser cannot substantiate; "best" and "#1" need a named source.',
    suggestion: 'Cite who says so (a rating agency, a survey, with its date) in the post\'s sources, or describe the feature instead of ranking it.',
    patterns: [
      words(
        'best|safest',
        `${modifiers(2)}(?:iuls?|polic(?:y|ies)|strateg(?:y|ies)|options?|compan(?:y|ies)|carriers?|insurers?|agents?|agenc(?:y|ies)|rates?|returns?|plans?|products?|investments?|choices?|advis[eo]rs?|coverage|places?|bets?)`,
      ),
      pattern(`#${SEP_OPT}1|number${SEP}one|no${SEP_OPT}1(?!${SEP_OPT}[\\d%])|top${SEP}(?:rated|performing)|highest${SEP}(?:rated|returns?|yielding|paying)|best${SEP}in${SEP}class|industry${SEP}leading`),
    ],
    negatable: true,
    qualifiers: [pattern(`according${SEP}to|source[ds]?|(?:rated|ranked|named)${SEP}by|survey(?:s|ed)?|study`)],
    exceptions: [{ before: new RegExp(`${START}a${SEP_OPT}m${SEP}$|${START}am${SEP}$`, 'iu'), why: 'AM Best is a rating agency, not a superlative' }],
    postQualifies: (subject) => (subject.trust?.sources?.length ?? 0) > 0,
  },
  {
    kind: 'post',
    id: 'news-without-fact-checker',
    severity: 'medium',
    title: 'A news article without a fact-checker',
    why: 'A post presented as news about insurance or tax rules is held to a higher standard of accuracy; readers and search engines look for who checked it.',
    suggestion: 'Add trust.factCheckedBy with the checker\'s name and credentials, or publish it as an ordinary article (isNewsArticle: false).',
    applies: (subject) => (subject.isNewsArticle && !subject.trust?.factCheckedBy?.name?.trim() ? 'The post is a news article (isNewsArticle) and names no fact-checker.' : null),
  },
  {
    kind: 'post',
    id: 'projections-without-credentials',
    severity: 'info',
    title: 'Projections by an author without credentials',
    why: 'Figures about returns or income carry more weight, and more responsibility, when the reader can see the author is licensed to give them.',
    suggestion: 'Add author.credentials (e.g. "Licensed life agent, CA #0123456" or "CFP"), or have a credentialed reviewer fact-check the post.',
    applies: (subject, findings) =>
      (findings.some((finding) => finding.rule === 'unqualified-projection') || hasProjection(subject)) && !subject.author?.credentials?.trim()
        ? 'The post shows return or dollar projections, and its author has no credentials listed.'
        : null,
  },
];

const NEGATION =
  /^(?:not|no|never|cannot|can't|isn't|aren't|wasn't|won't|doesn't|don't|didn't|nothing|none|neither|nor|without|avoid|beware|rather|instead|false|untrue|misleading|claims?|promises?|myths?)$/iu;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', rsquo: "'", lsquo: "'", ldquo: '"', rdquo: '"', ndash: '-', mdash: '-', hellip: '.' };

/**
 * An entity's character, when it is one character of punctuation or space (as entities in copy are);
 * a letter or digit written as an entity stays a space, so every letter the rules see sits where the
 * same letter is in the original (a finding's offsets then always point at its words).
 */
function entityChar(name: string): string {
  const named = ENTITIES[name.toLowerCase()];
  if (named !== undefined) return named;
  const code = name.startsWith('#x') || name.startsWith('#X') ? parseInt(name.slice(2), 16) : name.startsWith('#') ? Number(name.slice(1)) : NaN;
  if (!Number.isInteger(code) || code < 0 || code > 0xffff) return ' ';
  const char = String.fromCharCode(code);
  return /^[\p{P}\p{S}\s]$/u.test(char) ? char : ' ';
}

const BLOCK_TAG = /^(?:p|div|li|ul|ol|h[1-6]|br|tr|td|th|table|blockquote|section|article|figure|figcaption|pre|hr|dd|dt)$/i;

/** The text with markup turned into spaces of the same length (block tags into line breaks), so offsets still point into the original. */
export function maskMarkup(text: string, format: 'html' | 'markdown' | 'text'): string {
  if (format === 'text') return text;
  let masked = text;
  if (format === 'html') {
    // `[^<>]*`, not `[^>]*`: a stray "<" with no ">" after it must not make every later "<" scan to the end.
    masked = masked.replace(/<(\/?)([a-zA-Z][a-zA-Z0-9-]*)?[^<>]*>/g, (tag, _slash: string, name: string | undefined) => {
      const block = name !== undefined && BLOCK_TAG.test(name);
      return block ? '.' + '\n'.repeat(Math.min(2, tag.length - 1)) + ' '.repeat(Math.max(0, tag.length - 3)) : ' '.repeat(tag.length);
    });
    masked = masked.replace(/&(#\d{1,7}|#x[0-9a-f]{1,6}|[a-z][a-z0-9]{1,31});/gi, (entity, name: string) => entityChar(name).padEnd(entity.length, ' '));
  } else {
    // Link targets and image sources are addresses, not copy; emphasis and code marks are not words.
    masked = masked.replace(/\]\([^()\s]*(?:\s+"[^"\n]*")?\)/g, (target) => ' '.repeat(target.length));
    masked = masked.replace(/[*_`~]/g, ' ');
    masked = masked.replace(/^(#{1,6}) /gm, (marks) => ' '.repeat(marks.length));
  }
  return masked;
}

/**
 * Where sentences begin: after ".", "!", "?" or "…" (and any closing quotes or brackets) followed by
 * white space, and after a blank line. A match that spans one of these offsets spans two sentences and
 * is no match.
 */
function sentenceCuts(text: string): number[] {
  const cuts = [0];
  // A sentence begins right after the mark and any closing quotes or brackets, or after the blank line.
  for (const match of text.matchAll(/[.!?…]["'”’)\]]*(?=\s)|\n[^\S\n]*\n/gu)) cuts.push(match.index + match[0].length);
  return cuts;
}

/** The index of the first value in ascending `values` greater than `offset`. */
function firstAbove(values: readonly number[], offset: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((values[mid] ?? 0) > offset) high = mid;
    else low = mid + 1;
  }
  return low;
}

/** The sentence holding [start, end), or null when the span crosses into another sentence. */
function sentenceOf(cuts: readonly number[], length: number, start: number, end: number): { start: number; end: number } | null {
  const next = firstAbove(cuts, start);
  const nextCut = cuts[next] ?? length;
  if (nextCut < end) return null;
  return { start: cuts[next - 1] ?? 0, end: nextCut };
}

/** The last few words before `start` in its sentence, as lower-case tokens. */
function wordsBefore(text: string, sentenceStart: number, start: number, count: number): string[] {
  const from = Math.max(sentenceStart, start - 30 * count);
  let before = text.slice(from, start);
  // A slice that starts inside a word would show only its tail ("knot" as "not"); one that starts at
  // a word's first letter shows the whole word.
  if (from > sentenceStart && /[\p{L}\p{N}']/u.test(text[from - 1] ?? '')) before = before.replace(/^[\p{L}\p{N}']+/u, '');
  // An apostrophe written as an entity is "'" and spaces (maskMarkup): "can'      t" is "can't".
  before = before.replace(/'\s+(?=\p{L})/gu, "'");
  return before.split(/[^\p{L}\p{N}']+/u).filter(Boolean).slice(-count);
}

/** The words before are cut from the masked text itself (what is a letter there decides them); each is then read as the matcher reads. */
function negated(m: Matcher, masked: string, sentenceStart: number, start: number): boolean {
  const negation = m.re(NEGATION);
  return wordsBefore(masked, sentenceStart, start, NEGATION_WORDS).some((token) => negation.test(m.fold(token)) || /n't$/i.test(token));
}

/** A regex's non-global twin (a global regex's `test` moves its lastIndex), made once per regex. */
const onceCache = new WeakMap<RegExp, RegExp>();
function once(regex: RegExp): RegExp {
  let single = onceCache.get(regex);
  if (!single) {
    single = new RegExp(regex.source, regex.flags.replace('g', ''));
    onceCache.set(regex, single);
  }
  return single;
}

function near(m: Matcher, start: number, end: number, qualifiers: readonly RegExp[]): boolean {
  if (qualifiers.length === 0) return false;
  const around = m.text.slice(Math.max(0, start - QUALIFIER_WINDOW), Math.min(m.text.length, end + QUALIFIER_WINDOW));
  return qualifiers.some((qualifier) => once(m.re(qualifier)).test(around));
}

function excepted(rule: TextRule, m: Matcher, sentence: { start: number; end: number }, start: number, end: number): boolean {
  if (!rule.exceptions) return false;
  const before = m.text.slice(Math.max(sentence.start, start - 160), start);
  const after = m.text.slice(end, Math.min(sentence.end, end + 160));
  const matched = m.text.slice(start, end);
  return rule.exceptions.some(
    (exception) =>
      (!exception.before || m.re(exception.before).test(before)) && (!exception.after || m.re(exception.after).test(after)) && (!exception.match || m.re(exception.match).test(matched)),
  );
}

function inContext(rule: TextRule, m: Matcher, sentence: { start: number; end: number }, start: number, end: number): boolean {
  if (!rule.context) return true;
  const around = m.text.slice(Math.max(sentence.start, start - CONTEXT_WINDOW), Math.min(sentence.end, end + CONTEXT_WINDOW));
  return once(m.re(rule.context)).test(around);
}

/** Line and column (from 1) of an offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** `lineColumn` for many offsets of one text: the line starts are found once. */
function lineIndex(text: string): (offset: number) => { line: number; column: number } {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    const line = firstAbove(starts, offset);
    return { line, column: offset - (starts[line - 1] ?? 0) + 1 };
  };
}

/** A text match of one rule: where it is and what it says. */
export interface TextMatch {
  rule: TextRule;
  start: number;
  end: number;
  text: string;
}

/**
 * What the rules' regular expressions run on: `text` (of the same length as the masked text, so every
 * offset is the same in both) and each rule regex as it is run on that text.
 */
interface Matcher {
  text: string;
  re: (regex: RegExp) => RegExp;
  /** What `text` is of a piece of the masked text. */
  fold: (piece: string) => string;
}

/**
 * The rules' regexes are case-insensitive Unicode ones (`iu`). V8 compiles each to machine code at its
 * first run on a text over 1,000 characters, and with `i` every \p{L} and \p{N} class in it is first
 * closed over case, which made the first check in a process cost 150 ms or more of a `blogpost validate`
 * (decision 0040). They run instead without `i` (`u` only) on the text folded once: each character
 * replaced by the one a case-insensitive match treats it as (`foldChar`), so they find exactly what the
 * `iu` originals find, at the same offsets (contract/compliance.test.ts compares the two on generated text).
 */
function foldedMatcher(masked: string): Matcher {
  return { text: foldText(masked), re: caseFolded, fold: foldText };
}

/** The rules' regexes as written, on the masked text: what the folded matcher must find the same as. */
function writtenMatcher(masked: string): Matcher {
  return { text: masked, re: (regex) => regex, fold: (piece) => piece };
}

const foldedChars = new Map<string, string>();
// Each tested against one code point.
const ANY_LETTER_I = /\p{L}/iu;
const ANY_NUMBER_I = /\p{N}/iu;
const LETTER_OR_NUMBER = /[\p{L}\p{N}]/u;
/**
 * What every letter and number outside ASCII is folded to (the rules name ASCII words only): one letter and
 * one number of each UTF-16 length, so a folded text holds 40 letters and numbers in all, and the folded
 * regexes' `\p{L}` and `\p{N}` are classes of those (`smallClasses`), which V8 compiles far faster.
 */
const FOLDED_LETTER = ['é', '\u{10428}'] as const;
const FOLDED_NUMBER = ['\u00b2', '\u{1d7ce}'] as const;
const LETTERS_CLASS = 'a-z\\u00e9\\u{10428}';
const NUMBERS_CLASS = '0-9\\u00b2\\u{1d7ce}';

/**
 * The character `char` (one code point: an ASCII capital, or any character outside ASCII) is for the
 * case-insensitive rules: the small ASCII letter it matches when it matches one (a capital its small
 * letter, the Kelvin sign "k", the long s "s": Unicode's simple case folding; all of one UTF-16 unit);
 * otherwise the folded letter when `\p{L}` matches it case-insensitively (any other letter, and the Greek
 * iota subscript, a mark V8 takes for a letter), the folded number when `\p{N}` does; else itself. Asked of
 * V8's own `iu` matching once per character, so the folding is V8's. Always of the same UTF-16 length as
 * `char` (offsets stay put).
 */
function foldChar(char: string): string {
  let folded = foldedChars.get(char);
  if (folded !== undefined) return folded;
  folded = char;
  const ascii = /[a-z]/iu.test(char) ? 'abcdefghijklmnopqrstuvwxyz'.split('').find((letter) => new RegExp(`^${letter}$`, 'iu').test(char)) : undefined;
  const wide = char.length === 1 ? 0 : 1;
  if (ascii !== undefined) folded = ascii;
  else if (ANY_LETTER_I.test(char)) folded = FOLDED_LETTER[wide];
  else if (ANY_NUMBER_I.test(char)) folded = FOLDED_NUMBER[wide];
  foldedChars.set(char, folded);
  return folded;
}

/** The text with ASCII capitals made small and every other character folded as `foldChar` says. */
export function foldText(text: string): string {
  return text.replace(/[A-Z\u0080-\u{10ffff}]/gu, (char) => foldChar(char));
}

const foldedRegexes = new WeakMap<RegExp, RegExp>();
/**
 * A rule's case-insensitive Unicode regex as a case-sensitive one for folded text, made once per regex; a
 * Unicode regex that names no letter (`/^100\s*%/u`) reads folded text as it reads the text, and is kept.
 * Any other would read folded text differently from the text it was written for: it throws, so the first
 * test that runs its rule fails.
 */
export function caseFolded(regex: RegExp): RegExp {
  // Asked for every rule's regexes on every check: what was made for a regex once is kept.
  const kept = foldedRegexes.get(regex);
  if (kept) return kept;
  const letterFree = !/[A-Za-z]/.test(regex.source.replace(SOURCE_PARTS, (part) => (part.length === 1 ? part : '')));
  if (regex.unicode && !regex.flags.includes('i') && letterFree) {
    foldedRegexes.set(regex, regex);
    return regex;
  }
  if (!regex.flags.includes('i') || !regex.unicode) throw new Error(`The compliance regex /${regex.source}/${regex.flags} is not case-insensitive Unicode (iu): the rules run on folded text.`);
  // A letter or number outside ASCII written in a rule would never match folded text (it is folded away).
  for (const char of regex.source) if (char > '\x7f' && LETTER_OR_NUMBER.test(char)) throw new Error(`The compliance regex /${regex.source}/ names a letter outside ASCII: fold it in foldChar first.`);
  const folded = new RegExp(smallClasses(lowerCaseLiterals(regex.source)), regex.flags.replace('i', ''));
  foldedRegexes.set(regex, folded);
  return folded;
}

/**
 * A regex source with its ASCII capitals made small, but not in its escapes (`\S`, `\P{L}`, `\u00C0`,
 * `\k<Name>`) or group names. Any other capital in a source is a literal or a range end, which the
 * folded text never holds: small, it means what it meant case-insensitively.
 */
export function lowerCaseLiterals(source: string): string {
  return source.replace(SOURCE_PARTS, (part) => (part.length === 1 ? part.toLowerCase() : part));
}
/**
 * A regex source for folded text with its `\p{L}` and `\p{N}` as the few letters and numbers folded text
 * holds (in a class, or as a class of their own); what they match there is unchanged.
 */
export function smallClasses(source: string): string {
  let inClass = false;
  return source.replace(CLASS_PARTS, (part) => {
    if (part === '[' || part === ']') {
      inClass = part === '[';
      return part;
    }
    const members = part === '\\p{L}' ? LETTERS_CLASS : part === '\\p{N}' ? NUMBERS_CLASS : undefined;
    if (members === undefined) return part;
    return inClass ? members : `[${members}]`;
  });
}
/** In a regex source: `\p{L}` or `\p{N}`, any other escape's first two characters (so `\[` is no bracket), or a bracket that opens or closes a class. */
const CLASS_PARTS = /\\p\{[LN]\}|\\[\s\S]|[[\]]/g;

/** In a regex source: an escape, a group's name, or a capital (the one part `lowerCaseLiterals` changes). */
const SOURCE_PARTS = /\\(?:[pP]\{[^}]*\}|u\{[0-9A-Fa-f]+\}|u[0-9A-Fa-f]{4}|x[0-9A-Fa-f]{2}|c[A-Za-z]|k<[^>]*>|[\s\S])|\(\?<(?![=!])[^>]*>|[A-Z]/g;

/** The text the rules read: markup masked, typographic apostrophes made plain ("can’t" is "can't"). */
function prepare(text: string, format: 'html' | 'markdown' | 'text'): { masked: string; cuts: number[] } {
  const masked = maskMarkup(text, format).replace(/[\u2018\u2019\u02bc]/g, "'");
  return { masked, cuts: sentenceCuts(masked) };
}

/** One rule's matches in prepared text; `qualified` keeps matches a qualifier nearby would excuse. */
function scan(rule: TextRule, masked: string, m: Matcher, cuts: readonly number[], qualified: boolean): TextMatch[] {
  // Every match is judged once: a match one pattern dismissed (negated, excepted) is not found again by another.
  let judged: Uint8Array | null = null;
  const kept: Array<{ start: number; end: number; sentenceStart: number }> = [];
  for (const source of rule.patterns) {
    for (const match of m.text.matchAll(m.re(source))) {
      const start = match.index;
      const end = start + match[0].length;
      judged ??= new Uint8Array(masked.length);
      if (judged.subarray(start, end).includes(1)) continue;
      judged.fill(1, start, end);
      const sentence = sentenceOf(cuts, masked.length, start, end);
      if (!sentence) continue;
      if (rule.negatable && negated(m, masked, sentence.start, start)) continue;
      if (!inContext(rule, m, sentence, start, end)) continue;
      if (excepted(rule, m, sentence, start, end)) continue;
      if (!qualified && near(m, start, end, rule.qualifiers)) continue;
      kept.push({ start, end, sentenceStart: sentence.start });
    }
  }
  kept.sort((a, b) => a.start - b.start);
  const spans = rule.mergeBySentence ? mergeSentences(kept) : kept;
  return spans.map(({ start, end }) => ({ rule, start, end, text: masked.slice(start, end).replace(/\s+/g, ' ') }));
}

function mergeSentences(kept: ReadonlyArray<{ start: number; end: number; sentenceStart: number }>): Array<{ start: number; end: number; sentenceStart: number }> {
  const merged: Array<{ start: number; end: number; sentenceStart: number }> = [];
  for (const span of kept) {
    const last = merged.at(-1);
    if (last && last.sentenceStart === span.sentenceStart) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}

/** Every finding of the text rules in `text` (qualified and negated matches left out), in order. */
export function findInText(text: string, format: 'html' | 'markdown' | 'text' = 'text', subject: ComplianceSubject = {}): TextMatch[] {
  return findWith(foldedMatcher, text, format, subject);
}

/** `findInText` with the rules' regexes run as written (case-insensitive) on the text as it is: what `findInText` must equal. */
export function findInTextAsWritten(text: string, format: 'html' | 'markdown' | 'text' = 'text', subject: ComplianceSubject = {}): TextMatch[] {
  return findWith(writtenMatcher, text, format, subject);
}

function findWith(matcher: (masked: string) => Matcher, text: string, format: 'html' | 'markdown' | 'text', subject: ComplianceSubject): TextMatch[] {
  const { masked, cuts } = prepare(text, format);
  const m = matcher(masked);
  const found: TextMatch[] = [];
  for (const rule of COMPLIANCE_RULES) {
    if (rule.kind !== 'text' || rule.postQualifies?.(subject)) continue;
    found.push(...scan(rule, masked, m, cuts, false));
  }
  return found.sort((a, b) => a.start - b.start || a.end - b.end);
}

/** Whether the post shows a return or dollar projection at all, labelled hypothetical or not. */
function hasProjection(subject: ComplianceSubject): boolean {
  const projection = COMPLIANCE_RULES.find((rule): rule is TextRule => rule.kind === 'text' && rule.id === 'unqualified-projection');
  if (!projection) return false;
  return COMPLIANCE_FIELDS.some((field) => {
    const value = subject[field];
    if (!value) return false;
    const { masked, cuts } = prepare(value, fieldFormat(subject, field));
    return scan(projection, masked, foldedMatcher(masked), cuts, true).length > 0;
  });
}

function fieldFormat(subject: ComplianceSubject, field: ComplianceField): 'html' | 'markdown' | 'text' {
  return field === 'content' ? (subject.format ?? 'html') : 'text';
}

function messageFor(rule: TextRule, text: string): string {
  // "Guaranteed returns" reads on as "guaranteed returns"; "IUL called…" and a quoted title stay as written.
  const title = /^(?:[A-Z][a-z]|A )/.test(rule.title) ? rule.title.charAt(0).toLowerCase() + rule.title.slice(1) : rule.title;
  return `"${text}": ${title}.`;
}

/** Every finding in a post, text findings first (by field, then position), then the findings about the post. */
export function checkCompliance(subject: ComplianceSubject): ComplianceFinding[] {
  const findings: ComplianceFinding[] = [];
  for (const field of COMPLIANCE_FIELDS) {
    const value = subject[field];
    if (!value) continue;
    const where = lineIndex(value);
    for (const match of findInText(value, fieldFormat(subject, field), subject)) {
      findings.push({
        rule: match.rule.id,
        severity: match.rule.severity,
        message: messageFor(match.rule, match.text),
        why: match.rule.why,
        suggestion: match.rule.suggestion,
        location: { field, text: match.text, start: match.start, end: match.end, ...where(match.start) },
      });
    }
  }
  for (const rule of COMPLIANCE_RULES) {
    if (rule.kind !== 'post') continue;
    const message = rule.applies(subject, findings);
    if (message) findings.push({ rule: rule.id, severity: rule.severity, message, why: rule.why, suggestion: rule.suggestion, location: null });
  }
  const accepted = new Map((subject.accept ?? []).map((acceptance) => [acceptance.rule, acceptance.reason]));
  return findings.map((finding) => {
    const reason = accepted.get(finding.rule);
    return reason === undefined ? finding : { ...finding, accepted: { reason } };
  });
}

/** Acceptances naming no rule of this version (an author's typo, or a rule since renamed). */
export function unknownAcceptances(accept: readonly ComplianceAcceptance[]): string[] {
  const ids = new Set(COMPLIANCE_RULES.map((rule) => rule.id));
  return accept.filter((acceptance) => !ids.has(acceptance.rule)).map((acceptance) => acceptance.rule);
}

/** High findings the author has not accepted: what `review` holds and `block` refuses. */
export function blockingFindings(findings: readonly ComplianceFinding[]): ComplianceFinding[] {
  return findings.filter((finding) => finding.severity === 'high' && !finding.accepted);
}

/** One line per finding, as the CLI and the error guidance print them. */
export function describeFinding(finding: ComplianceFinding): string {
  const where = finding.location ? `${finding.location.field} ${finding.location.line}:${finding.location.column} ` : '';
  const accepted = finding.accepted ? ` (accepted: ${finding.accepted.reason})` : '';
  return `${where}${finding.severity} ${finding.rule}: ${finding.message} ${finding.suggestion}${accepted}`;
}
