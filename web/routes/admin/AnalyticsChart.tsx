/**
 * A bar chart drawn on the server as SVG (no chart library, no JavaScript): one bar per day, the largest
 * value marked on the axis. Accessible: the SVG is an image named by its title and described by its
 * summary; the page puts the same figures in a table beside it.
 */
export interface ChartBar {
  label: string;
  value: number;
}

const WIDTH = 600;
const HEIGHT = 160;
const AXIS = 28;

export function BarChart({ id, title, summary, bars }: { id: string; title: string; summary: string; bars: readonly ChartBar[] }) {
  const safe = bars.map((bar) => ({ label: bar.label, value: Number.isFinite(bar.value) && bar.value > 0 ? bar.value : 0 }));
  const most = Math.max(1, ...safe.map((bar) => bar.value));
  const slot = (WIDTH - AXIS) / Math.max(1, safe.length);
  const barWidth = Math.max(1, slot * 0.7);
  const plot = HEIGHT - 20;
  return (
    <svg className="analytics-chart" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${id}-title ${id}-desc`} data-testid={id} width="100%" preserveAspectRatio="xMinYMin meet">
      <title id={`${id}-title`}>{title}</title>
      <desc id={`${id}-desc`}>{summary}</desc>
      <line x1={AXIS} y1={plot} x2={WIDTH} y2={plot} stroke="currentColor" strokeWidth="1" />
      <text x={AXIS - 4} y={12} textAnchor="end" fontSize="11" fill="currentColor">
        {most}
      </text>
      <text x={AXIS - 4} y={plot} textAnchor="end" fontSize="11" fill="currentColor">
        0
      </text>
      {safe.map((bar, index) => {
        const height = (bar.value / most) * (plot - 8);
        return (
          <rect key={bar.label} x={AXIS + index * slot + (slot - barWidth) / 2} y={plot - height} width={barWidth} height={height} fill="currentColor">
            <title>{`${bar.label}: ${bar.value}`}</title>
          </rect>
        );
      })}
      {safe.length > 0 ? (
        <>
          <text x={AXIS} y={HEIGHT - 4} fontSize="11" fill="currentColor">
            {safe[0]?.label}
          </text>
          <text x={WIDTH} y={HEIGHT - 4} textAnchor="end" fontSize="11" fill="currentColor">
            {safe.at(-1)?.label}
          </text>
        </>
      ) : null}
    </svg>
  );
}
