/**
 * A line chart of values over years, rendered on the server as inline SVG, with its numbers as a table.
 *
 * The lines are drawn in a 100 x 100 SVG stretched over a plot box of fixed aspect ratio (charts.css),
 * with strokes that do not scale, so the chart fills any width without a layout shift; the tick labels,
 * legend and axis titles are HTML laid over and around it, so they stay readable at 320 px where text
 * inside a scaled SVG would shrink. The picture is one image to assistive technology (its title and a
 * summary sentence); the same numbers follow in a table inside a `<details>`, which opens without script.
 * It holds no state: the calculator re-renders it with new figures as the visitor types.
 */
import { useId } from 'react';

export interface ChartSeries {
  /** Names the line for styling and tests: `data-series`. */
  id: string;
  label: string;
  /** One value per entry of the chart's `xValues`. */
  values: readonly number[];
  /** How the line is drawn (colour and dashes, see charts.css): the main line, a comparison, a baseline. */
  variant: 'primary' | 'comparison' | 'baseline';
}

export interface ProjectionChartProps {
  title: string;
  /** What the chart shows in one or two sentences: its description for a screen reader. */
  summary: string;
  /** Shown beside the chart: what the figures assume (a projection, not a promise). */
  note: string;
  xLabel: string;
  yLabel: string;
  /** The x values (years), ascending; every line also starts at (0, 0), the moment before the first. */
  xValues: readonly number[];
  series: readonly ChartSeries[];
  /** A value as the legend and the table show it ("$838,017"). */
  formatValue: (value: number) => string;
  /** A value as an axis tick shows it ("$800K"). */
  formatTick: (value: number) => string;
  table: { summary: string; caption: string; xHeader: string };
}

/** A round step near `rough`: 1, 2, 2.5 or 5 times a power of ten. */
function niceStep(rough: number): number {
  if (!(rough > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(rough));
  const scaled = rough / power;
  const factor = [1, 2, 2.5, 5, 10].find((candidate) => candidate >= scaled) ?? 10;
  return factor * power;
}

/** Ticks from 0 to the first round value at or above `max`, about four steps; the last is the top of the scale. */
function valueTicks(max: number): number[] {
  const step = niceStep(max / 4);
  const count = Math.max(1, Math.ceil(max / step - 1e-9));
  return Array.from({ length: count + 1 }, (_, index) => index * step);
}

/** Year ticks from 0 in round steps, with the last year added when it is not too close to the one before. */
function yearTicks(last: number): number[] {
  const step = [1, 2, 5, 10, 20].find((candidate) => last / candidate <= 6) ?? 20;
  const ticks: number[] = [];
  for (let year = 0; year <= last; year += step) ticks.push(year);
  const previous = ticks.at(-1) ?? 0;
  if (previous !== last && last - previous >= step / 2) ticks.push(last);
  return ticks;
}

/** A coordinate in the 100 x 100 drawing, short enough to keep the HTML small. */
function coordinate(value: number): string {
  return String(Math.round(value * 100) / 100);
}

export function ProjectionChart({ title, summary, note, xLabel, yLabel, xValues, series, formatValue, formatTick, table }: ProjectionChartProps) {
  const baseId = useId();
  const titleId = `${baseId}-title`;
  const summaryId = `${baseId}-summary`;
  const lastX = xValues.at(-1) ?? 1;
  const ticks = valueTicks(Math.max(0, ...series.flatMap((line) => line.values)));
  const top = ticks.at(-1) ?? 1;
  const x = (value: number) => (lastX > 0 ? (value / lastX) * 100 : 0);
  const y = (value: number) => 100 - (value / top) * 100;
  const points = (values: readonly number[]) =>
    ['0,100', ...xValues.map((xValue, index) => `${coordinate(x(xValue))},${coordinate(y(values[index] ?? 0))}`)].join(' ');

  return (
    <figure className="projection-chart" data-testid="projection-chart">
      <figcaption id={titleId} className="projection-chart-title">
        {title}
      </figcaption>
      <p className="projection-chart-note" data-testid="projection-chart-note">
        {note}
      </p>
      <p id={summaryId} className="visually-hidden">
        {summary}
      </p>
      <ul className="projection-chart-legend">
        {series.map((line) => (
          <li key={line.id} data-series={line.id} className={`projection-key projection-${line.variant}`}>
            <svg viewBox="0 0 24 8" aria-hidden="true" focusable="false">
              <line x1="0" y1="4" x2="24" y2="4" />
            </svg>
            <span>{line.label}</span> <strong data-testid={`projection-legend-${line.id}`}>{formatValue(line.values.at(-1) ?? 0)}</strong>
          </li>
        ))}
      </ul>
      <div className="projection-chart-frame" role="img" aria-labelledby={titleId} aria-describedby={summaryId}>
        <span className="projection-axis-title projection-y-title">{yLabel}</span>
        <div className="projection-y-ticks">
          {ticks.map((tick) => (
            <span key={tick} style={{ top: `${coordinate(y(tick))}%` }}>
              {formatTick(tick)}
            </span>
          ))}
        </div>
        <div className="projection-plot">
          <svg viewBox="0 0 100 100" preserveAspectRatio="none" aria-hidden="true" focusable="false">
            {ticks.map((tick) => (
              <line key={tick} className="projection-grid" x1="0" x2="100" y1={coordinate(y(tick))} y2={coordinate(y(tick))} vectorEffect="non-scaling-stroke" />
            ))}
            {series.map((line) => (
              <polyline
                key={line.id}
                className={`projection-line projection-${line.variant}`}
                data-testid={`projection-line-${line.id}`}
                points={points(line.values)}
                vectorEffect="non-scaling-stroke"
              />
            ))}
          </svg>
        </div>
        <div className="projection-x-ticks">
          {yearTicks(lastX).map((tick) => (
            <span key={tick} style={{ left: `${coordinate(x(tick))}%` }}>
              {tick}
            </span>
          ))}
        </div>
        <span className="projection-axis-title projection-x-title">{xLabel}</span>
      </div>
      <details className="projection-chart-data">
        <summary>{table.summary}</summary>
        {/* Focusable, so the table can be scrolled from the keyboard on narrow screens. */}
        <div className="table-scroll" tabIndex={0} role="region" aria-label={table.caption}>
          <table className="projection-table" data-testid="projection-table">
            <caption>{table.caption}</caption>
            <thead>
              <tr>
                <th scope="col">{table.xHeader}</th>
                {series.map((line) => (
                  <th key={line.id} scope="col">
                    {line.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {xValues.map((xValue, index) => (
                <tr key={xValue}>
                  <th scope="row">{xValue}</th>
                  {series.map((line) => (
                    <td key={line.id} data-series={line.id}>
                      {formatValue(line.values[index] ?? 0)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
