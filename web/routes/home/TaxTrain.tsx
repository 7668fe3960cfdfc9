/**
 * The Tax Train: top tax rates past, present and future, and the national debt behind the question.
 * The train is drawn (hand-written SVG): one car a station, each carrying its rate as a gauge, the
 * future car an open question. The stations' list below says the same in words, so the drawing is
 * decorative for assistive technology.
 */
import { TrainFront } from 'lucide-react';
import { TAX_TRAIN, type TaxStation } from '../../content/home';
import { SectionHeading } from './SectionHeading';

/** The gauge's fill for a rate such as "70%": its share of the car's height; null for an unknown rate. */
function rateShare(rate: string): number | null {
  const match = /^(\d+(?:\.\d+)?)%$/.exec(rate.trim());
  return match ? Number(match[1]) / 100 : null;
}

const CAR = { width: 150, height: 110, gap: 20, top: 40 } as const;

function TrainCar({ station, index }: { station: TaxStation; index: number }) {
  const x = 20 + index * (CAR.width + CAR.gap);
  const share = rateShare(station.rate);
  const gaugeHeight = CAR.height - 36;
  const fill = share === null ? 0 : Math.round(gaugeHeight * share);
  return (
    <g>
      <rect x={x} y={CAR.top} width={CAR.width} height={CAR.height} rx="10" fill={share === null ? '#f5f8fb' : '#e8f0f7'} stroke="#0b3b60" strokeWidth="3" strokeDasharray={share === null ? '8 6' : undefined} />
      <text x={x + 14} y={CAR.top + 26} fontSize="16" fontWeight="700" fill="#072a45">
        {station.period}
      </text>
      <rect x={x + CAR.width - 44} y={CAR.top + 26} width="26" height={gaugeHeight} rx="4" fill="#fff" stroke="#9aaabb" />
      {share === null ? (
        <text x={x + CAR.width - 31} y={CAR.top + 26 + gaugeHeight / 2 + 9} textAnchor="middle" fontSize="26" fontWeight="800" fill="#8a5a00">
          ?
        </text>
      ) : (
        <rect x={x + CAR.width - 44} y={CAR.top + 26 + gaugeHeight - fill} width="26" height={fill} rx="4" fill={share > 0.5 ? '#b42318' : '#8a5a00'} />
      )}
      <text x={x + 14} y={CAR.top + 72} fontSize="30" fontWeight="800" fill="#0b3b60">
        {share === null ? '?' : station.rate}
      </text>
      <circle cx={x + 32} cy={CAR.top + CAR.height + 10} r="11" fill="#072a45" />
      <circle cx={x + CAR.width - 32} cy={CAR.top + CAR.height + 10} r="11" fill="#072a45" />
      <path d={`M${x + CAR.width} ${CAR.top + CAR.height - 16}h${CAR.gap}`} stroke="#072a45" strokeWidth="4" />
    </g>
  );
}

/** The train of the three stations and its locomotive, heading right, into the future. */
function TaxTrainDrawing() {
  const engineX = 20 + TAX_TRAIN.stations.length * (CAR.width + CAR.gap);
  const width = engineX + 130;
  return (
    <svg className="tax-train-art" viewBox={`0 0 ${width} 190`} width={width} height="190" aria-hidden="true" focusable="false" data-testid="tax-train-art">
      <path d={`M0 172H${width}`} stroke="#9aaabb" strokeWidth="4" />
      <path d={`M0 180H${width}`} stroke="#d5dee8" strokeWidth="2" strokeDasharray="14 10" />
      {TAX_TRAIN.stations.map((station, index) => (
        <TrainCar key={station.period} station={station} index={index} />
      ))}
      <g>
        <rect x={engineX} y={CAR.top + 30} width="100" height={CAR.height - 30} rx="12" fill="#0b3b60" />
        <rect x={engineX + 8} y={CAR.top} width="48" height="46" rx="8" fill="#0b3b60" />
        <rect x={engineX + 16} y={CAR.top + 9} width="32" height="22" rx="4" fill="#f5b301" />
        <rect x={engineX + 70} y={CAR.top + 6} width="18" height="30" rx="4" fill="#072a45" />
        <circle cx={engineX + 100} cy={CAR.top + 70} r="8" fill="#f5b301" />
        <path d={`M${engineX + 100} ${CAR.top + CAR.height}l24 0-24-26z`} fill="#072a45" />
        <circle cx={engineX + 26} cy={CAR.top + CAR.height + 10} r="13" fill="#072a45" />
        <circle cx={engineX + 72} cy={CAR.top + CAR.height + 10} r="13" fill="#072a45" />
        <circle cx={engineX + 80} cy={CAR.top - 10} r="8" fill="#d5dee8" />
        <circle cx={engineX + 94} cy={CAR.top - 24} r="11" fill="#e8f0f7" />
      </g>
    </svg>
  );
}

/** The Tax Train section of the home page. */
export function TaxTrain() {
  return (
    <section id="tax-train" className="page-section" aria-labelledby="tax-train-title">
      <div className="container">
        <SectionHeading intro={TAX_TRAIN} headingId="tax-train-title" />
        <h3 className="subheading tax-train-label">
          <TrainFront aria-hidden="true" size={22} /> {TAX_TRAIN.stationsLabel}
        </h3>
        <div className="tax-train-figure">
          <TaxTrainDrawing />
        </div>
        <ol className="tax-stations" data-testid="tax-stations">
          {TAX_TRAIN.stations.map((station) => (
            <li key={station.period} className="tax-station">
              <span className="tax-station-period">{station.period}</span>
              <span className="tax-station-rate">{station.rate}</span>
              <span className="tax-station-text">{station.text}</span>
            </li>
          ))}
        </ol>
        <dl className="debt-figures">
          {TAX_TRAIN.figures.map((figure) => (
            <div key={figure.label} className="debt-figure">
              <dt>{figure.label}</dt>
              <dd>{figure.value}</dd>
            </div>
          ))}
        </dl>
        {TAX_TRAIN.paragraphs.map((paragraph) => (
          <p key={paragraph} className="section-text">
            {paragraph}
          </p>
        ))}
      </div>
    </section>
  );
}
