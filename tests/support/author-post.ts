/**
 * The post of issue 37, as an author writes it (hard-wrapped paragraphs, a table with `:---:` and `---:`
 * columns, a fenced code block, a footnote, a blockquote, negative percentages and two local images),
 * for the tests that publish it and pull it back (tests/cli/markdown-source.test.ts, in the test's
 * process; tests/processes/markdown-round-trip.test.ts, the server and the CLI as real processes).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

/** The post, as an author writes it: every line wrapped by hand at 72 columns or so. */
export const AUTHOR_FILE = `---
title: "Policy Loans in a Down Year: What the Numbers Say"
category: IUL Strategies
tags: [policy loans, cash value]
# The excerpt is written out: the first paragraph is too long for a card.
excerpt: >-
  How a policy loan behaves when the index falls, with a hypothetical
  illustration and the costs spelled out.
author:
  name: Evelyn Hartwell
  credentials: Licensed life agent, Texas
status: published
---

A policy loan borrows from the insurer with your cash value as the
collateral. In a year when the index falls, the crediting floor keeps
the account at zero while the loan balance still accrues interest.

The figures below are hypothetical: an illustration, not a promise. A
fall of -8.1% in the index credits 0%, and a loan rate of 5.5% against
a variable credit can make the spread -2.4% in a bad year.[^spread]

![Cash value over twenty years, hypothetical](img/cash-value.png)

| Year | Index return | Credited | Loan rate |
|:-----|:------------:|---------:|----------:|
| 1    | -8.1%        | 0.0%     | 5.5%      |
| 2    | 12.4%        | 10.0%    | 5.5%      |
| 3    | 3.2%         | 3.2%     | 5.5%      |

> Borrowing against a policy is a loan, and loans cost money. Ask for
> an in-force illustration before you take one.

\`\`\`text
spread = credited rate - loan rate
       = 0.0% - 5.5%
       = -5.5%
\`\`\`

* A wasted loan can lapse the policy.
* Repay what you can in good years.

![The loan balance against the cash value](img/loan-chart.jpg)

[^spread]: The spread is the credited rate minus the loan rate, before
    any fees; see the policy's illustration for the guaranteed values.
`;

/** The file without the lines the CLI writes itself: what must come back exactly. */
export function withoutBookkeeping(text: string): string {
  return text.replace(/^(id|revision|status): .*\n/gm, '');
}

/** The two pictures the post shows, in `dir/img/`. */
export async function writeAuthorImages(dir: string): Promise<void> {
  mkdirSync(path.join(dir, 'img'), { recursive: true });
  await sharp({ create: { width: 900, height: 600, channels: 3, background: '#1d4ed8' } }).png().toFile(path.join(dir, 'img/cash-value.png'));
  await sharp({ create: { width: 900, height: 600, channels: 3, background: '#15803d' } }).jpeg({ quality: 70 }).toFile(path.join(dir, 'img/loan-chart.jpg'));
}
