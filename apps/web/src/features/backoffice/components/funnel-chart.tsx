import type { FunnelResponse } from '@provee/domain';
import { formatInteger } from '../lib/format.js';

type Step = FunnelResponse['data']['steps'][number];

const WIDTH = 760;
const LABEL = 220;
const ROW = 30;
const BAR = 20;
const VALUE_ROOM = 70;

/** Horizontal bars, one per step, scaled to the first (widest) step; the table beside it has the numbers. */
export function FunnelChart({ steps }: { steps: Step[] }) {
  const max = Math.max(1, ...steps.map((step) => step.reached));
  const room = WIDTH - LABEL - VALUE_ROOM;
  const height = steps.length * ROW + 10;
  return (
    <svg
      className="bo-chart"
      viewBox={`0 0 ${WIDTH} ${height}`}
      role="img"
      aria-labelledby="bo-chart-title"
      preserveAspectRatio="xMinYMin meet"
    >
      <title id="bo-chart-title">Personas que llegaron a cada paso del embudo</title>
      {steps.map((step, index) => {
        const y = 5 + index * ROW;
        const width = step.reached === 0 ? 0 : Math.max(2, (step.reached / max) * room);
        return (
          <g key={step.key} data-step={step.key}>
            <text x={LABEL - 8} y={y + BAR / 2} textAnchor="end" dominantBaseline="middle" className="bo-chart__label">
              {step.label}
            </text>
            <rect x={LABEL} y={y} width={width} height={BAR} rx={3} className="bo-chart__bar" />
            <text x={LABEL + width + 6} y={y + BAR / 2} dominantBaseline="middle" className="bo-chart__value">
              {formatInteger(step.reached)}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
