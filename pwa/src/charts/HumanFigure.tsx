import { useEffect, useId, useState } from 'react';
import { CHART_FONT, INK } from './svg';

/** A standing figure, drawn in a 100 × 200 box. */
const FIGURE =
  'M50 4a17 17 0 1 1 0 34a17 17 0 1 1 0-34Z M30 44h40a12 12 0 0 1 12 12v58a6 6 0 0 1-12 0V64h-3v126a8 8 0 0 1-16 0v-70h-2v70a8 8 0 0 1-16 0V64h-3v50a6 6 0 0 1-12 0V56a12 12 0 0 1 12-12Z';

/**
 * The human figure (spec 01 "human"): filled from the feet up to `percent`, one percent every
 * `stepMs` (spec 01 §9: 1 % per 50 ms). `animate={false}` draws the final state (print, PDF), and
 * so does a device that asks for reduced motion.
 */
export function HumanFigure({
  percent,
  color = '#2e7d32',
  height = 320,
  stepMs = 50,
  animate = true,
  label,
  testId,
}: {
  percent: number;
  color?: string;
  height?: number;
  stepMs?: number;
  animate?: boolean;
  label: string;
  testId?: string;
}) {
  const target = Math.max(0, Math.min(100, percent));
  animate &&= !(typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches);
  const [shown, setShown] = useState(animate ? 0 : target);
  const clip = useId().replace(/[^a-zA-Z0-9_-]/g, '');
  useEffect(() => {
    if (!animate) {
      setShown(target);
      return;
    }
    setShown(0);
    const timer = setInterval(() => {
      setShown((current) => {
        const next = Math.min(target, current + 1);
        if (next >= target) clearInterval(timer);
        return next;
      });
    }, stepMs);
    return () => clearInterval(timer);
  }, [target, animate, stepMs]);
  const fillTop = 196 - (192 * shown) / 100;
  return (
    <svg className="chart human-figure" role="img" aria-label={label} viewBox="0 0 160 240" height={height} data-testid={testId} data-fill={Math.round(shown)}>
      <title>{label}</title>
      <defs>
        <clipPath id={`figure-${clip}`}>
          <path d={FIGURE} transform="translate(30,0)" />
        </clipPath>
      </defs>
      <path d={FIGURE} transform="translate(30,0)" fill="#e3e8ef" />
      <g clipPath={`url(#figure-${clip})`}>
        <rect x={0} y={fillTop} width={160} height={200 - fillTop} fill={color} />
      </g>
      <text x={80} y={228} textAnchor="middle" fontFamily={CHART_FONT} fontSize={22} fill={INK}>
        {`${Math.round(shown)}\u00a0%`}
      </text>
    </svg>
  );
}
