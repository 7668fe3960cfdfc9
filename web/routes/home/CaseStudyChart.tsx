/**
 * A case study's projected results as small horizontal bars, rendered on the server as inline SVG:
 * the premium paid each year beside the projected yearly income, then the projected totals (cash
 * value, total income, death benefit), each group on its own scale. Only the study's own figures are
 * drawn. The SVG has no viewBox: its units are CSS pixels and the bars' widths are percentages, so the
 * labels keep their size at any width and the fixed height never shifts the layout. It is one image to
 * assistive technology (a title and a summary with every figure); the figures are also text beside it.
 */
import { useId } from 'react';
import { formatDollars } from '../../content/calculator';
import { CASE_STUDY_CHART, type CaseStudy } from '../../content/case-studies';

interface Bar {
  label: string;
  value: number;
  text: string;
  kind: 'premium' | 'income' | 'total';
}

/** Pixels: a group heading, then per bar a label line and the bar itself. */
const HEADING_HEIGHT = 26;
const ROW_HEIGHT = 44;
const BAR_HEIGHT = 14;

/** The number in a figure as the content writes it ("$2,496,000" is 2496000). */
export function dollarsIn(text: string): number {
  const value = Number(text.replace(/[$,\s]/g, ''));
  return Number.isFinite(value) ? value : 0;
}

/** The study's bars in two groups: its yearly figures and its totals. */
export function caseStudyBars(study: CaseStudy): { yearly: Bar[]; totals: Bar[] } {
  const bar = (label: string, text: string, kind: Bar['kind']): Bar => ({ label, text, kind, value: dollarsIn(text) });
  return {
    yearly: [
      bar(CASE_STUDY_CHART.premiumLabel, formatDollars(study.annualPremium), 'premium'),
      ...study.results.filter((result) => result.perYear).map((result) => bar(result.label, result.value, 'income')),
    ],
    totals: study.results.filter((result) => !result.perYear).map((result) => bar(result.label, result.value, 'total')),
  };
}

/** A bar's width as a percentage of the widest in its group, never so thin it disappears. */
function widthOf(value: number, max: number): string {
  return `${max > 0 ? Math.max(1, Math.round((value / max) * 1000) / 10) : 1}%`;
}

function BarGroup({ heading, bars, top }: { heading: string; bars: readonly Bar[]; top: number }) {
  const max = Math.max(0, ...bars.map((item) => item.value));
  return (
    <g>
      <text x="0" y={top + 16} className="case-chart-heading">
        {heading}
      </text>
      {bars.map((item, index) => {
        const y = top + HEADING_HEIGHT + index * ROW_HEIGHT;
        return (
          <g key={item.label} data-bar={item.kind}>
            <text x="0" y={y + 14} className="case-chart-label">
              {item.label}: <tspan className="case-chart-value">{item.text}</tspan>
            </text>
            <rect x="0" y={y + 22} width={widthOf(item.value, max)} height={BAR_HEIGHT} rx="3" className={`case-bar case-bar-${item.kind}`} />
          </g>
        );
      })}
    </g>
  );
}

export function CaseStudyChart({ study }: { study: CaseStudy }) {
  const baseId = useId();
  const { yearly, totals } = caseStudyBars(study);
  const totalsTop = HEADING_HEIGHT + yearly.length * ROW_HEIGHT + 10;
  const height = totalsTop + HEADING_HEIGHT + totals.length * ROW_HEIGHT;
  const summary = `${CASE_STUDY_CHART.summaryIntro} ${[...yearly, ...totals].map((item) => `${item.label} ${item.text}`).join('; ')}.`;
  return (
    <svg
      className="case-chart"
      width="100%"
      height={height}
      role="img"
      aria-labelledby={`${baseId}-title`}
      aria-describedby={`${baseId}-summary`}
      data-testid="case-chart"
    >
      <title id={`${baseId}-title`}>{`${study.title}: ${CASE_STUDY_CHART.titleSuffix}`}</title>
      <desc id={`${baseId}-summary`}>{summary}</desc>
      <BarGroup heading={CASE_STUDY_CHART.yearlyHeading} bars={yearly} top={0} />
      <BarGroup heading={CASE_STUDY_CHART.totalsHeading} bars={totals} top={totalsTop} />
    </svg>
  );
}
