/**
 * Approval codes with an expiry (decision 0028): approving a post in compliance review records the
 * approval's code (typed by the reviewer, e.g. a carrier's compliance code, or generated like
 * ADV-2026-0042) and until when it holds (APPROVAL_VALID_MONTHS after the approval unless the reviewer
 * gives a date). When it runs out, the post goes back to review (or, with APPROVAL_EXPIRED=unpublish,
 * becomes a draft); the staff dashboard lists the approvals running out within 30 days.
 */
import { validationError } from '../../contract/errors';

export type ApprovalExpiry = 'review' | 'unpublish';

export interface ApprovalSettings {
  /** APPROVAL_VALID_MONTHS: how long an approval holds when the reviewer gives no date (default 12). */
  validMonths: number;
  /** APPROVAL_EXPIRED: what becomes of a post whose approval ran out: back to review (default), or a draft. */
  onExpiry: ApprovalExpiry;
}

export const DEFAULT_APPROVAL_SETTINGS: ApprovalSettings = { validMonths: 12, onExpiry: 'review' };

/** How far ahead the dashboard lists approvals that run out. */
export const EXPIRING_WITHIN_DAYS = 30;

/** What a reviewer may give with an approval; both optional. */
export interface ApprovalInput {
  code?: string | undefined;
  /** A date (YYYY-MM-DD: the end of that day, UTC) or an ISO 8601 time. */
  expires?: string | undefined;
}

const CODE = /^[A-Za-z0-9][A-Za-z0-9 ._/#:-]{0,63}$/;

/** A generated code: ADV-<year>-<number, at least four digits>. */
export function generatedCode(year: number, n: number): string {
  return `ADV-${year}-${String(n).padStart(4, '0')}`;
}

function addMonths(at: Date, months: number): Date {
  const next = new Date(at.getTime());
  next.setUTCMonth(next.getUTCMonth() + months);
  return next;
}

/**
 * The code and expiry an approval records: the reviewer's, checked, or the defaults; a 400 that says
 * what to give instead. `generate` is only called when no code was typed.
 */
export async function approvalOf(input: ApprovalInput, now: Date, settings: ApprovalSettings, generate: () => Promise<string>): Promise<{ code: string; expiresAt: string }> {
  const problems: Array<{ field: string; problem: 'invalid'; message: string }> = [];
  const typed = input.code?.trim() ?? '';
  if (typed && !CODE.test(typed)) problems.push({ field: 'approval_code', problem: 'invalid', message: 'approval_code must be 1 to 64 letters, digits, spaces or . _ / # : - (starting with a letter or digit), e.g. ADV-2026-0042 or a carrier\'s code; leave it empty to have one generated' });
  let expiresAt = addMonths(now, settings.validMonths).toISOString();
  const given = input.expires?.trim() ?? '';
  if (given) {
    const day = /^\d{4}-\d{2}-\d{2}$/.test(given);
    const ms = /^\d{4}-\d{2}-\d{2}/.test(given) ? Date.parse(day ? `${given}T23:59:59.999Z` : given) : Number.NaN;
    if (Number.isNaN(ms)) problems.push({ field: 'approval_expires', problem: 'invalid', message: `approval_expires must be a date, YYYY-MM-DD (e.g. ${addMonths(now, settings.validMonths).toISOString().slice(0, 10)}), or an ISO 8601 time; leave it empty for ${settings.validMonths} months from today` });
    else if (ms <= now.getTime()) problems.push({ field: 'approval_expires', problem: 'invalid', message: `approval_expires (${given}) is not in the future: give a later date, or leave it empty for ${settings.validMonths} months from today` });
    else expiresAt = new Date(ms).toISOString();
  }
  if (problems.length > 0) throw validationError(problems);
  return { code: typed || (await generate()), expiresAt };
}
