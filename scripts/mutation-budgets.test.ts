/**
 * The budget check of `npm run mutate`: which mutants a budget counts (its declarations, wherever the
 * lines have moved), when it is met, and what the report tells someone whose budget is not.
 */
import { describe, expect, it } from 'vitest';
import { allBudgets, type Budget, budgetFailed, budgetReport, checkBudget, declarationSpans, type ReportedMutant } from './mutation-budgets';

const SOURCE = [
  "export const LIST = { schemes: ['http', 'https'], other: 1 };", // line 1
  'export function verify(key: string): boolean {', // 2
  "  return key.startsWith('k_');", // 3
  '}', // 4
  'class Service {', // 5
  '  check(value: number): boolean {', // 6
  '    return value > 1;', // 7
  '  }', // 8
  '}', // 9
  'function bookkeeping(): number {', // 10
  '  return 2;', // 11
  '}', // 12
].join('\n');

function mutant(line: number, column: number, status: ReportedMutant['status']): ReportedMutant {
  return { status, location: { start: { line, column }, end: { line, column: column + 1 } } };
}

const budget = (scope: Budget['scope'], minimum = 100): Budget => ({ name: 'key verification', file: 'contract/keys.ts', scope, minimum });

describe('declarationSpans', () => {
  it('finds functions, methods and object properties by name, and names what it cannot find', () => {
    const { spans, missing } = declarationSpans(SOURCE, ['verify', 'check', 'schemes', 'renamed']);
    expect(spans).toEqual([
      { start: { line: 1, column: 23 }, end: { line: 1, column: 49 } },
      { start: { line: 2, column: 1 }, end: { line: 4, column: 2 } },
      { start: { line: 6, column: 3 }, end: { line: 8, column: 4 } },
    ]);
    expect(missing).toEqual(['renamed']);
  });
});

describe('checkBudget', () => {
  const mutants = [
    mutant(1, 32, 'Killed'), // in `schemes`
    mutant(1, 60, 'Survived'), // in `other`: outside a budget over `schemes`
    mutant(3, 10, 'Killed'), // in verify
    mutant(3, 20, 'Timeout'), // in verify: detected
    mutant(7, 12, 'CompileError'), // in check: not counted
    mutant(7, 18, 'Killed'), // in check
    mutant(11, 10, 'Survived'), // in bookkeeping
  ];

  it('counts only the mutants inside the named declarations, timeouts as detected and compile errors not at all', () => {
    const result = checkBudget(budget(['verify', 'check', 'schemes']), { source: SOURCE, mutants });
    expect(result).toMatchObject({ mutants: 4, detected: 4, score: 100, met: true, missing: [] });
  });

  it('is not met by one survivor in its scope, and is met below 100% when its minimum allows', () => {
    const withBookkeeping = checkBudget(budget(['verify', 'bookkeeping']), { source: SOURCE, mutants });
    expect(withBookkeeping).toMatchObject({ mutants: 3, detected: 2, met: false });
    expect(withBookkeeping.score).toBeCloseTo(66.67, 2);
    expect(checkBudget(budget('module', 70), { source: SOURCE, mutants })).toMatchObject({ mutants: 6, detected: 4, met: false });
    expect(checkBudget(budget('module', 66), { source: SOURCE, mutants })).toMatchObject({ mutants: 6, detected: 4, met: true });
  });

  it('is not met when the report lacks the module, its scope has no mutant, or a declaration was renamed', () => {
    expect(checkBudget(budget('module'), undefined)).toMatchObject({ score: null, met: false });
    expect(checkBudget(budget(['bookkeeping']), { source: SOURCE, mutants: [mutant(3, 10, 'Killed')] })).toMatchObject({ score: null, met: false });
    expect(checkBudget(budget(['verify', 'renamed']), { source: SOURCE, mutants })).toMatchObject({ score: 100, met: false, missing: ['renamed'] });
  });
});

describe('budgetReport', () => {
  const met = checkBudget(budget(['verify']), { source: SOURCE, mutants: [mutant(3, 10, 'Killed')] });
  const notMeasured = checkBudget(budget('module', 90), undefined);

  it('says every budget is met', () => {
    expect(budgetReport([met])).toContain('| key verification | contract/keys.ts | `verify` | 100% | 1 of 1, 100.00% | yes |');
    expect(budgetReport([met])).toContain('All 1 budgets are met.');
    expect(budgetFailed(met)).toBe(false);
  });

  it('lists a budget whose module is in no report as not measured, which fails nothing', () => {
    const report = budgetReport([met, notMeasured]);
    expect(report).toContain('| contract/keys.ts | whole module | 90% | not measured | **no** |');
    expect(report).toContain('The 1 budgets measured are met; 1 are not measured in these reports:');
    expect(report).toContain('no mutant of it in the reports; run `npm run mutate -- --mutate contract/keys.ts`');
    expect(budgetFailed(notMeasured)).toBe(false);
  });

  it('says which budgets are not met and what to do about each', () => {
    const survivor = checkBudget(budget(['verify']), { source: SOURCE, mutants: [mutant(3, 10, 'Killed'), mutant(3, 20, 'Survived')] });
    const below90 = checkBudget(budget('module', 90), { source: SOURCE, mutants: [mutant(3, 10, 'Killed'), mutant(3, 20, 'Survived')] });
    const renamed = checkBudget(budget(['renamed']), { source: SOURCE, mutants: [mutant(3, 10, 'Killed')] });
    expect([survivor, below90, renamed].map(budgetFailed)).toEqual([true, true, true]);
    const report = budgetReport([met, survivor, below90, notMeasured, renamed]);
    expect(report).toContain('| 1 of 2, 50.00% | **no** |');
    expect(report).toContain('3 of 5 budgets are not met:');
    expect(report).toContain('contract/keys.ts (key verification): kill the surviving mutants listed above with a test; one that no input can tell apart needs simpler code without it (a 100% budget allows no survivor).');
    expect(report).toContain('needs simpler code without it, or a one-line reason in docs/quality.md.');
    expect(report).toContain('no declaration named renamed; update STRICT_BUDGETS');
  });
});

describe('allBudgets', () => {
  it('holds the strict budgets and 90% for every configured module', () => {
    const budgets = allBudgets(['api/http/cors.ts', 'web/seo/feeds.ts']);
    expect(budgets.filter((b) => b.minimum === 100).map((b) => b.name)).toEqual([
      'key verification',
      'key verification',
      'permissions',
      'scripts and event handlers removed',
    ]);
    expect(budgets.filter((b) => b.minimum === 90)).toEqual([
      { name: 'each module', file: 'api/http/cors.ts', scope: 'module', minimum: 90 },
      { name: 'each module', file: 'web/seo/feeds.ts', scope: 'module', minimum: 90 },
    ]);
  });
});
