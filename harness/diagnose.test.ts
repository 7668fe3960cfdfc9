/** What support staff and the CLI are told about answers of the compliance gate. */
import { describe, expect, it } from 'vitest';
import { checkCompliance } from '../contract/compliance';
import { diagnoseResponse } from './diagnose';

const findings = checkCompliance({ content: '<p>This policy offers guaranteed returns.</p>' });

describe('diagnoseResponse and the compliance gate', () => {
  it('explains a 422 compliance_blocked with each finding and its rewrite, before the guidance', () => {
    const body = {
      success: false,
      code: 'compliance_blocked',
      status: 422,
      message: 'The post makes a claim the agency does not publish (guaranteed-returns).',
      guidance: ['Rewrite each finding in `findings` as its suggestion says.'],
      findings,
    };
    const diagnosis = diagnoseResponse({ status: 422, headers: {}, text: JSON.stringify(body) });
    expect(diagnosis).toMatchObject({ ok: false, code: 'compliance_blocked', cause: expect.stringContaining('422 compliance_blocked') });
    expect(diagnosis.fixes[0]).toMatch(/^high guaranteed-returns: "guaranteed returns": .*claims-paying ability/);
    expect(diagnosis.fixes.at(-1)).toMatch(/Rewrite each finding/);
  });

  it('says a created post was held for review, and lists what held it', () => {
    const body = { success: true, message: 'Blog post created and held', post: { id: 'x', slug: 'held-post', status: 'in_review' }, warnings: [], findings };
    const diagnosis = diagnoseResponse({ status: 201, headers: {}, text: JSON.stringify(body) });
    expect(diagnosis.ok).toBe(true);
    expect(diagnosis.cause).toMatch(/created the post "held-post" and held it for compliance review/);
    expect(diagnosis.warnings).toEqual([expect.stringMatching(/^high guaranteed-returns:/)]);
  });
});
