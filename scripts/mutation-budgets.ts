/**
 * Issue 22's mutation budgets, checked against Stryker's report: at least 90% on every module the
 * configuration mutates, and 100% on key verification, permissions and the sanitiser's removal of
 * scripts and event handlers. A budget over part of a module names its declarations (functions,
 * methods, object properties), found in the source the report carries, so it follows the code as
 * lines move; its mutants are those that start inside them.
 */
import ts from 'typescript';

type Status = 'Killed' | 'Survived' | 'NoCoverage' | 'Timeout' | 'CompileError' | 'RuntimeError' | 'Ignored' | 'Pending';

export interface Position {
  line: number;
  column: number;
}

export interface ReportedMutant {
  status: Status;
  location: { start: Position; end: Position };
}

export interface Budget {
  /** What the budget protects, as docs/quality.md names it. */
  name: string;
  file: string;
  /** The declarations whose mutants count, or the whole module. */
  scope: 'module' | readonly string[];
  /** The lowest acceptable score, in percent. */
  minimum: number;
}

/** The budgets beyond the 90% every module must reach (docs/quality.md explains each scope). */
export const STRICT_BUDGETS: readonly Budget[] = [
  { name: 'key verification', file: 'contract/keys.ts', scope: 'module', minimum: 100 },
  { name: 'key verification', file: 'api/services/keys.ts', scope: ['hashApiKey', 'hashesEqual', 'verify'], minimum: 100 },
  { name: 'permissions', file: 'api/http/auth.ts', scope: 'module', minimum: 100 },
  {
    name: 'scripts and event handlers removed',
    file: 'api/services/sanitize.ts',
    // The lists of what is dropped, the scheme a browser would see, what each opening tag and URL is
    // judged on and reported for, and the options handed to sanitize-html that drop elements,
    // attributes and URLs; not footnote attributes, srcsets or the tag rewrites (a link's rel, an
    // image's upload path).
    scope: [
      ...['urlAttributes', 'schemes', 'iframeSchemes', 'droppedWithContent', 'schemeOf', 'inspectTag', 'inspectUrl', 'inspectEmbedHost', 'inspectImageSource'],
      ...['allowedTags', 'allowedAttributes', 'allowedSchemes', 'allowedSchemesByTag', 'allowedSchemesAppliedToAttributes', 'allowProtocolRelative'],
      ...['allowedIframeHostnames', 'allowIframeRelativeUrls', 'disallowedTagsMode', 'nonTextTags', 'onOpenTag'],
    ],
    minimum: 100,
  },
];

export const MODULE_MINIMUM = 90;

export interface BudgetResult {
  budget: Budget;
  /** Mutants that count (killed, timed out, survived or without coverage). */
  mutants: number;
  detected: number;
  /** Null when the report has no mutant of the budget's scope: not measured. */
  score: number | null;
  met: boolean;
  /** Declarations of the scope that the source does not have (a renamed function). */
  missing: string[];
}

/** The source spans (1-based lines, 1-based columns, end exclusive) of the named declarations. */
export function declarationSpans(source: string, names: readonly string[]): { spans: Array<{ start: Position; end: Position }>; missing: string[] } {
  const file = ts.createSourceFile('module.ts', source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const spans: Array<{ start: Position; end: Position }> = [];
  const found = new Set<string>();
  const position = (offset: number): Position => {
    const { line, character } = file.getLineAndCharacterOfPosition(offset);
    return { line: line + 1, column: character + 1 };
  };
  const visit = (node: ts.Node): void => {
    const named =
      ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isPropertyAssignment(node) || ts.isPropertyDeclaration(node) || ts.isVariableDeclaration(node)
        ? node.name
        : undefined;
    if (named && (ts.isIdentifier(named) || ts.isStringLiteral(named)) && names.includes(named.text)) {
      found.add(named.text);
      spans.push({ start: position(node.getStart(file)), end: position(node.getEnd()) });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return { spans, missing: names.filter((name) => !found.has(name)) };
}

function before(a: Position, b: Position): boolean {
  return a.line < b.line || (a.line === b.line && a.column < b.column);
}

/** The budget's result over one module's mutants and source (undefined: the report lacks the module). */
export function checkBudget(budget: Budget, module: { source: string; mutants: readonly ReportedMutant[] } | undefined): BudgetResult {
  if (!module) return { budget, mutants: 0, detected: 0, score: null, met: false, missing: [] };
  let inScope = module.mutants;
  let missing: string[] = [];
  if (budget.scope !== 'module') {
    const found = declarationSpans(module.source, budget.scope);
    missing = found.missing;
    inScope = module.mutants.filter((mutant) => found.spans.some((span) => !before(mutant.location.start, span.start) && before(mutant.location.start, span.end)));
  }
  const counted = inScope.filter((mutant) => ['Killed', 'Timeout', 'Survived', 'NoCoverage'].includes(mutant.status));
  const detected = counted.filter((mutant) => mutant.status === 'Killed' || mutant.status === 'Timeout').length;
  const score = counted.length === 0 ? null : (100 * detected) / counted.length;
  return { budget, mutants: counted.length, detected, score, met: score !== null && score >= budget.minimum && missing.length === 0, missing };
}

/**
 * A budget measured and missed, or naming a declaration the code no longer has. One with no mutant in
 * the reports (a run of some modules only) is not measured, which is not a failure.
 */
export function budgetFailed(result: BudgetResult): boolean {
  return result.missing.length > 0 || (result.score !== null && !result.met);
}

/** Every budget: the strict ones, then 90% for each module of the configuration. */
export function allBudgets(configured: readonly string[]): Budget[] {
  return [...STRICT_BUDGETS, ...configured.map((file) => ({ name: 'each module', file, scope: 'module' as const, minimum: MODULE_MINIMUM }))];
}

/** The budgets as a Markdown table, with what to do about any that is not met. */
export function budgetReport(results: readonly BudgetResult[]): string {
  const scopeOf = (budget: Budget) => (budget.scope === 'module' ? 'whole module' : budget.scope.map((name) => `\`${name}\``).join(', '));
  const scoreText = (result: BudgetResult) => (result.score === null ? 'not measured' : `${result.detected} of ${result.mutants}, ${(Math.floor(result.score * 100) / 100).toFixed(2)}%`);
  const lines = [
    '| Budget | Module | Scope | Minimum | Measured | Met? |',
    '| --- | --- | --- | ---: | --- | --- |',
    ...results.map((r) => `| ${r.budget.name} | ${r.budget.file} | ${scopeOf(r.budget)} | ${r.budget.minimum}% | ${scoreText(r)} | ${r.met ? 'yes' : '**no**'} |`),
  ];
  const failed = results.filter(budgetFailed);
  const unmeasured = results.filter((result) => !budgetFailed(result) && !result.met);
  if (failed.length === 0 && unmeasured.length === 0) lines.push('', `All ${results.length} budgets are met.`);
  else if (failed.length === 0) lines.push('', `The ${results.length - unmeasured.length} budgets measured are met; ${unmeasured.length} are not measured in these reports:`);
  else lines.push('', `${failed.length} of ${results.length} budgets are not met:`);
  for (const result of [...failed, ...unmeasured]) {
    const where = `${result.budget.file} (${result.budget.name})`;
    if (result.missing.length > 0) lines.push(`- ${where}: no declaration named ${result.missing.join(', ')}; update STRICT_BUDGETS in scripts/mutation-budgets.ts to the code's names.`);
    else if (result.score === null) lines.push(`- ${where}: no mutant of it in the reports; run \`npm run mutate -- --mutate ${result.budget.file}\`.`);
    else {
      lines.push(
        `- ${where}: kill the surviving mutants listed above with a test; one that no input can tell apart needs simpler code without it` +
          (result.budget.minimum < 100 ? ', or a one-line reason in docs/quality.md.' : ' (a 100% budget allows no survivor).'),
      );
    }
  }
  return lines.join('\n');
}
