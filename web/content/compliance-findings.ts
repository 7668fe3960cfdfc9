/**
 * The usage-examples page's section on compliance findings: what the API answers beside `warnings`,
 * what each COMPLIANCE_MODE does, and an example finding made by the rules themselves (so the page
 * can never show a shape or a wording the API does not give).
 */
import { checkCompliance, type ComplianceCopyAcceptance, type ComplianceMode } from '../../contract/compliance';

export const COMPLIANCE_INTRO =
  'Every create, validate and change answers with findings beside warnings: what the agency\'s compliance rules for insurance advertising found in the post, each with its rule, severity (high, medium or info), the matched text and where it is, why it matters and a suggested rewrite. POST /api/blog/validate shows them without saving anything, and npx blogpost lint checks Markdown files offline with the same rules.';

export const COMPLIANCE_MODE_ROWS: ReadonlyArray<{ mode: ComplianceMode; effect: string }> = [
  { mode: 'warn', effect: 'The default: findings are returned and the post is saved as sent.' },
  {
    mode: 'review',
    effect: 'A post asking to go public with a high finding, from a key without blog:admin, is saved with the status in_review: it is on no public page, list or feed until a staff member approves it. GET /api/blog/:id shows its review, and the reviewer\'s note if it is sent back as a draft.',
  },
  { mode: 'block', effect: 'A high finding the author has not accepted is refused with 422 compliance_blocked, naming the findings; accepted ones wait for review instead.' },
];

/** The sentence the example finding is made from: a claim the rules exist to catch. */
const EXAMPLE_CONTENT = '<p>This strategy offers guaranteed returns.</p>';

/** What the API answers for that sentence, as the rules make it. */
export const FINDING_SAMPLE = checkCompliance({ content: EXAMPLE_CONTENT, format: 'html' }).find((finding) => finding.rule === 'guaranteed-returns') ?? null;

export const ACCEPT_SAMPLE = {
  compliance: { accept: [{ rule: 'tax-free-unqualified', reason: 'The next paragraph states the conditions: current tax law, a policy kept in force, not a MEC.' }] },
};

export const ACCEPT_NOTE =
  'A finding that is a false alarm can be accepted in the payload (or a Markdown file\'s front matter) with a reason of at least 10 characters: the finding is then marked accepted, and the staff member who reviews the post reads the reason.';

/** This page shows a risky claim on purpose, as the example the rules flag. */
export const complianceAccepted: ComplianceCopyAcceptance[] = [
  { rule: 'guaranteed-returns', text: 'guaranteed returns', reason: 'The example finding on the usage-examples page quotes the claim the rule catches, to show integrators what the API answers.' },
];
