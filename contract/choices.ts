/**
 * The fixed lists and limits the schemas are built from, as plain values with no import: the CLI's
 * wiring (cli/wiring/) shows them in its help and completion without loading zod and the schemas
 * (decision 0035). Each is exported again by the module it belongs to; import it from there.
 */

/** How many posts a list page holds: the default and the most a request may ask for. */
export const LIST_LIMITS = { defaultLimit: 10, maxLimit: 100 } as const;

/** The statuses a list can ask for: a post's status, or the trash. */
export const LIST_STATUSES = ['draft', 'scheduled', 'published', 'in_review', 'trashed'] as const;

export const COMPLIANCE_SEVERITIES = ['high', 'medium', 'info'] as const;

/** blog:write creates posts and changes its owner's; blog:admin changes anyone's; blog:read reads drafts. */
export const API_PERMISSIONS = ['blog:write', 'blog:read', 'blog:admin'] as const;

export const LEAD_STATUSES = ['new', 'in-progress', 'closed'] as const;
