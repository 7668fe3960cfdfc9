/**
 * The IRS contribution limits the copy quotes, each with the tax year it belongs to (SPEC section 9,
 * "Figures quoted in content"): one place to read and update them. Pages write a limit through these
 * constants and label it with its year ("2024 limit"), so a figure never appears without its year.
 */

/** The limits by tax year, in dollars (percentages of pay where the IRS sets one). */
export const CONTRIBUTION_LIMITS = {
  2023: { k401: 22_500, ira: 7_000, sepPercent: 25, sep: 66_000 },
  2024: {
    k401: 23_000,
    k401CatchUp: 7_500,
    ira: 7_000,
    rothIra: 7_000,
    rothCatchUp: 1_000,
    rothPhaseOutSingle: 146_000,
    rothPhaseOutJoint: 230_000,
  },
  2025: { sepPercent: 25, sep: 70_000 },
} as const;

export type LimitYear = keyof typeof CONTRIBUTION_LIMITS;

/** The latest year of each kind of limit the copy quotes (the figures SPEC.md gives). */
export const LIMIT_YEARS = { k401: 2024, ira: 2024, rothIra: 2024, rothPhaseOut: 2024, sep: 2025 } as const satisfies Record<string, LimitYear>;

/** "$23,000": a limit as the copy writes it. */
export function limitDollars(amount: number): string {
  return `$${amount.toLocaleString('en-US')}`;
}

/** "2024 limit": the label a limit carries wherever it is shown. */
export function limitLabel(year: LimitYear): string {
  return `${year} limit`;
}
