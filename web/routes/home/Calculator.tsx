/**
 * The compound-growth calculator: four labelled inputs with their limits, a message per field when a
 * value is out of range, the three outcomes in a live region, and a chart of the projection year by
 * year with its numbers as a table. The arithmetic lives in content/calculator.ts (one yearly series,
 * whose last year is the outcomes); this component only reads inputs and shows results.
 *
 * It is a real form first: without JavaScript, Calculate sends `GET /?annualContribution=...#calculator`
 * and the home route's loader renders the figures (or the messages) for those inputs, which arrive here
 * as `initial`, chart included. Once hydrated, the results and the chart follow every keystroke, and Calculate (or Enter) only puts the
 * inputs in the address bar, so the figures can be shared, without reloading the page. Figures typed
 * before the app has loaded stay in the inputs (React leaves a field's value alone when it hydrates)
 * and are taken over when it does, so the results follow what the visitor typed (decision 0020).
 */
import { type FormEvent, useId, useLayoutEffect, useRef, useState } from 'react';
import { ProjectionChart } from '../../components/ui/ProjectionChart';
import {
  CALCULATOR_ASSUMPTIONS,
  CALCULATOR_CHART,
  CALCULATOR_DEFAULT_RAW,
  CALCULATOR_FIELDS,
  CALCULATOR_FORMULA,
  CALCULATOR_LIMITS,
  type CalculatorField,
  type CalculatorInput,
  type RawCalculatorInput,
  calculateGrowth,
  calculatorQuery,
  formatDollars,
  projectGrowthByYear,
  projectionChartText,
  validateCalculatorInput,
} from '../../content/calculator';

const UNITS: Record<CalculatorField, { prefix?: string; suffix?: string }> = {
  annualContribution: { prefix: '$' },
  years: { suffix: 'years' },
  annualRatePercent: { suffix: '%' },
  taxRatePercent: { suffix: '%' },
};

const ACCOUNTS = [
  { key: 'taxable', label: 'Taxable' },
  { key: 'taxDeferred', label: 'Tax-deferred' },
  { key: 'taxFree', label: 'Tax-free' },
] as const;

/** Where the form is sent without JavaScript: the home page, back at this section. */
const CALCULATOR_ACTION = '/#calculator';

const SCALES = [
  { size: 1e9, suffix: 'B' },
  { size: 1e6, suffix: 'M' },
  { size: 1e3, suffix: 'K' },
] as const;

/**
 * An axis tick, short: 250000 -> "$250K", 1250000 -> "$1.25M". Written out rather than Intl's compact
 * notation, whose output differs between Node's and the browser's ICU and would break hydration.
 */
function tickDollars(value: number): string {
  const scale = SCALES.find((candidate) => value >= candidate.size);
  if (!scale) return `$${Math.round(value)}`;
  return `$${String(Math.round((value / scale.size) * 100) / 100)}${scale.suffix}`;
}

/** The projection drawn year by year: contributions, the tax-free account and the taxable one. */
function CalculatorChart({ input }: { input: CalculatorInput }) {
  const series = projectGrowthByYear(input);
  const last = series.at(-1);
  if (!last) return null;
  const text = projectionChartText(input, last);
  return (
    <ProjectionChart
      title={CALCULATOR_CHART.title}
      summary={text.summary}
      note={text.note}
      xLabel={CALCULATOR_CHART.xAxisLabel}
      yLabel={CALCULATOR_CHART.yAxisLabel}
      xValues={series.map((year) => year.year)}
      series={[
        { id: 'taxFree', label: CALCULATOR_CHART.taxFreeLabel, values: series.map((year) => year.taxFree), variant: 'primary' },
        { id: 'taxable', label: CALCULATOR_CHART.taxableLabel, values: series.map((year) => year.taxable), variant: 'comparison' },
        { id: 'contributions', label: CALCULATOR_CHART.contributionsLabel, values: series.map((year) => year.contributions), variant: 'baseline' },
      ]}
      formatValue={formatDollars}
      formatTick={tickDollars}
      table={{ summary: CALCULATOR_CHART.tableSummary, caption: CALCULATOR_CHART.tableCaption, xHeader: CALCULATOR_CHART.yearHeader }}
    />
  );
}

/** With JavaScript the figures are already shown: keep the page, and put the inputs in its address. */
function shareInputs(event: FormEvent<HTMLFormElement>, raw: RawCalculatorInput): void {
  event.preventDefault();
  const url = new URL(window.location.href);
  url.search = calculatorQuery(raw);
  url.hash = 'calculator';
  // The router's own state is kept, so back and forward still work as before.
  window.history.replaceState(window.history.state, '', url);
}

export function Calculator({ headingId, initial = CALCULATOR_DEFAULT_RAW }: { headingId: string; initial?: RawCalculatorInput }) {
  const baseId = useId();
  const [raw, setRaw] = useState<RawCalculatorInput>(initial);
  const validation = validateCalculatorInput(raw);
  const result = validation.ok ? calculateGrowth(validation.input) : null;
  const errors = validation.ok ? {} : validation.errors;

  // What the inputs hold when the app hydrates is what the visitor typed: take it over.
  const form = useRef<HTMLFormElement>(null);
  useLayoutEffect(() => {
    const inputs = form.current?.elements;
    if (!inputs) return;
    const typed = { ...CALCULATOR_DEFAULT_RAW };
    for (const field of CALCULATOR_FIELDS) {
      const input = inputs.namedItem(field);
      if (input instanceof HTMLInputElement) typed[field] = input.value;
    }
    setRaw((current) => (CALCULATOR_FIELDS.some((field) => typed[field] !== current[field]) ? typed : current));
  }, []);

  return (
    <div className="calculator" data-testid="calculator">
      {/* noValidate: an out-of-range value still reaches the server, which answers with its message. */}
      <form
        ref={form}
        className="calculator-form"
        method="get"
        action={CALCULATOR_ACTION}
        noValidate
        aria-labelledby={headingId}
        data-testid="calculator-form"
        onSubmit={(event) => shareInputs(event, raw)}
      >
        {CALCULATOR_FIELDS.map((field) => {
          const limits = CALCULATOR_LIMITS[field];
          const inputId = `${baseId}-${field}`;
          const hintId = `${inputId}-hint`;
          const errorId = `${inputId}-error`;
          const error = errors[field];
          const unit = UNITS[field];
          return (
            <div key={field} className={error ? 'calculator-field has-error' : 'calculator-field'}>
              <label htmlFor={inputId}>{limits.label}</label>
              <div className="calculator-input">
                {unit.prefix ? <span aria-hidden="true">{unit.prefix}</span> : null}
                <input
                  id={inputId}
                  name={field}
                  type="number"
                  inputMode="decimal"
                  min={limits.min}
                  max={limits.max}
                  step={limits.step}
                  value={raw[field]}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `${hintId} ${errorId}` : hintId}
                  data-testid={`calculator-${field}`}
                  onChange={(event) => {
                    const value = event.currentTarget.value;
                    setRaw((current) => ({ ...current, [field]: value }));
                  }}
                />
                {unit.suffix ? <span aria-hidden="true">{unit.suffix}</span> : null}
              </div>
              <p id={hintId} className="calculator-hint">
                From {limits.format(limits.min)} to {limits.format(limits.max)}
              </p>
              {error ? (
                <p id={errorId} className="calculator-error" data-testid={`calculator-error-${field}`}>
                  {error}
                </p>
              ) : null}
            </div>
          );
        })}
        <div className="calculator-actions">
          <button type="submit" className="button button-primary" data-testid="calculator-submit">
            Calculate
          </button>
        </div>
      </form>

      <div className="calculator-results" aria-live="polite" data-testid="calculator-results">
        {result ? (
          <>
            <p className="calculator-total">
              Total contributed: <strong data-testid="result-total">{formatDollars(result.totalContributions)}</strong>
            </p>
            {/* Focusable, so the table can be scrolled from the keyboard on narrow screens. */}
            <div className="table-scroll" tabIndex={0} role="region" aria-label="Calculator results">
              <table className="calculator-table">
                <caption>Projected outcome after {validation.ok ? validation.input.years : ''} years</caption>
                <thead>
                  <tr>
                    <th scope="col">Account</th>
                    <th scope="col">Balance at the end</th>
                    <th scope="col">Tax due on withdrawal</th>
                    <th scope="col">You keep</th>
                  </tr>
                </thead>
                <tbody>
                  {ACCOUNTS.map((account) => {
                    const outcome = result[account.key];
                    return (
                      <tr key={account.key} data-account={account.key}>
                        <th scope="row">{account.label}</th>
                        <td data-testid={`result-${account.key}-balance`}>{formatDollars(outcome.balance)}</td>
                        <td data-testid={`result-${account.key}-tax`}>{formatDollars(outcome.taxDueOnWithdrawal)}</td>
                        <td data-testid={`result-${account.key}-keep`}>
                          <strong>{formatDollars(outcome.afterTax)}</strong>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          </>
        ) : (
          <p className="calculator-invalid" data-testid="calculator-invalid">
            Correct the highlighted {Object.keys(errors).length === 1 ? 'value' : 'values'} to see the results.
          </p>
        )}
      </div>

      {/* Outside the live region: the figures above are announced, the chart is read when reached. */}
      {validation.ok ? (
        <CalculatorChart input={validation.input} />
      ) : (
        <p className="projection-chart-invalid" data-testid="projection-chart-invalid">
          {CALCULATOR_CHART.invalid}
        </p>
      )}

      <div className="calculator-method">
        <h4>How this calculator works</h4>
        <p data-testid="calculator-formula">{CALCULATOR_FORMULA}</p>
        <ul>
          {CALCULATOR_ASSUMPTIONS.map((assumption) => (
            <li key={assumption}>{assumption}</li>
          ))}
        </ul>
      </div>
    </div>
  );
}
