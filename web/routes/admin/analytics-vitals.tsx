/**
 * The Core Web Vitals part of /admin/analytics (decision 0037), drawn on the server and working without
 * JavaScript: for LCP, INP and CLS a horizontal bar chart of the 75th percentile per page type, with the
 * good and poor thresholds drawn as labelled lines, and beside it a table of the same figures with the
 * good / needs-improvement / poor shares; then the newest builds compared, and the device classes.
 */
import { VITAL_THRESHOLDS, type VitalFigures, type VitalMetric, type VitalsReport } from '../../../contract/vitals';

const CHARTED: readonly VitalMetric[] = ['LCP', 'INP', 'CLS'];
const NAMES: Record<VitalMetric, string> = { LCP: 'Largest Contentful Paint', INP: 'Interaction to Next Paint', CLS: 'Cumulative Layout Shift', TTFB: 'Time to First Byte' };

export function formatVital(metric: VitalMetric, value: number | null): string {
  if (value === null) return '-';
  return metric === 'CLS' ? value.toFixed(3) : `${Math.round(value)} ms`;
}

function share(part: number, total: number): string {
  return total > 0 ? `${Math.round((part / total) * 100)} %` : '-';
}

const WIDTH = 600;
const LABEL = 170;
const ROW = 22;
const TOP = 18;

/** p75 per page type as bars, the good and poor thresholds as dashed lines (values past the scale end in an arrow-like notch). */
export function VitalChart({ metric, rows }: { metric: VitalMetric; rows: readonly VitalFigures[] }) {
  const id = `chart-vitals-${metric.toLowerCase()}`;
  const { good, poor } = VITAL_THRESHOLDS[metric];
  const charted = rows.filter((row) => row.p75 !== null && Number.isFinite(row.p75));
  const scale = Math.max(poor * 1.25, ...charted.map((row) => Math.min(row.p75 ?? 0, poor * 3)));
  const plot = WIDTH - LABEL - 10;
  const x = (value: number) => LABEL + (Math.min(Math.max(0, value), scale) / scale) * plot;
  const height = TOP + Math.max(1, charted.length) * ROW + 20;
  const summary =
    charted.length === 0
      ? `No ${metric} measures yet.`
      : `75th percentile ${metric} per page type: ${charted.map((row) => `${row.name} ${formatVital(metric, row.p75)}`).join(', ')}. Good is at most ${formatVital(metric, good)}, poor above ${formatVital(metric, poor)}; the table beside gives the shares.`;
  return (
    <svg className="analytics-chart" viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-labelledby={`${id}-title ${id}-desc`} data-testid={id} width="100%" preserveAspectRatio="xMinYMin meet">
      <title id={`${id}-title`}>{`${NAMES[metric]} (${metric}), 75th percentile per page type`}</title>
      <desc id={`${id}-desc`}>{summary}</desc>
      {charted.map((row, index) => {
        const y = TOP + index * ROW;
        const value = row.p75 ?? 0;
        return (
          <g key={row.name}>
            <text x={LABEL - 6} y={y + 14} textAnchor="end" fontSize="11" fill="currentColor">
              {row.name.length > 28 ? `${row.name.slice(0, 27)}…` : row.name}
            </text>
            <rect x={LABEL} y={y + 4} width={Math.max(1, x(value) - LABEL)} height={ROW - 8} fill="currentColor" opacity={value > poor ? 1 : value > good ? 0.7 : 0.45} data-value={value}>
              <title>{`${row.name}: ${formatVital(metric, value)} (${row.events} measures)`}</title>
            </rect>
          </g>
        );
      })}
      {[
        { value: good, label: `good ≤ ${formatVital(metric, good)}`, dash: '4 3' },
        { value: poor, label: `poor > ${formatVital(metric, poor)}`, dash: '1 2' },
      ].map((line) => (
        <g key={line.label} data-threshold={line.value}>
          <line x1={x(line.value)} y1={TOP - 4} x2={x(line.value)} y2={height - 18} stroke="currentColor" strokeWidth="1.5" strokeDasharray={line.dash} />
          <text x={x(line.value)} y={height - 4} textAnchor="middle" fontSize="11" fill="currentColor">
            {line.label}
          </text>
        </g>
      ))}
    </svg>
  );
}

function FiguresTable({ id, caption, heading, rows }: { id: string; caption: string; heading: string; rows: readonly VitalFigures[] }) {
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label={caption}>
      <table className="admin-table" data-testid={id}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{heading}</th>
            <th scope="col">Metric</th>
            <th scope="col">p75</th>
            <th scope="col">Measures</th>
            <th scope="col">Good</th>
            <th scope="col">Needs improvement</th>
            <th scope="col">Poor</th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={7}>None yet.</td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={`${row.name} ${row.metric}`}>
                <th scope="row">{row.name}</th>
                <td>{row.metric}</td>
                <td>{formatVital(row.metric, row.p75)}</td>
                <td>{row.events}</td>
                <td>{share(row.good, row.events)}</td>
                <td>{share(row.needsImprovement, row.events)}</td>
                <td>{share(row.poor, row.events)}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

export function VitalsSection({ vitals, sampleRate }: { vitals: VitalsReport; sampleRate: number }) {
  return (
    <section aria-labelledby="analytics-vitals">
      <h2 id="analytics-vitals">Speed for real visitors (Core Web Vitals)</h2>
      <p>
        Measured in visitors’ own browsers on {Math.round(sampleRate * 1000) / 10} % of page loads (RUM_SAMPLE_RATE), sent once when they leave the page, without a
        cookie or an address. The 75th percentile is the figure Google’s Core Web Vitals judge: three visits in four were at least this fast.
      </p>
      {CHARTED.map((metric) => {
        const rows = vitals.byRoute.filter((row) => row.metric === metric);
        return (
          <div key={metric} className="analytics-charts">
            <h3>{`${NAMES[metric]} (${metric})`}</h3>
            <VitalChart metric={metric} rows={rows} />
            <FiguresTable id={`vitals-${metric.toLowerCase()}-table`} caption={`${metric} per page type`} heading="Page type" rows={rows} />
          </div>
        );
      })}
      <h3>By release</h3>
      <FiguresTable id="vitals-builds" caption="The newest builds compared (a release that made pages slower shows here)" heading="Build" rows={vitals.byBuild} />
      <h3>By device</h3>
      <FiguresTable id="vitals-devices" caption="Every page, per device class" heading="Device" rows={vitals.byDevice} />
    </section>
  );
}
