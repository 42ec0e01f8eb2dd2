import { useEffect, useRef } from 'react';
import type { EventFigures, EventZone } from '../../api/types';
import { heatColour } from '../../state/eventAnalytics';

type Grid = EventFigures['heat_map'];
type Point = [number, number];
export interface PlanBounds {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** Largest drawn width of the plan, screen pixels (narrower on a phone: the view follows its box). */
const PLAN_WIDTH = 720;

/** The plan area to show: the heat map's grid, else the zones and the calibrations' plan points, else 20 × 20 m. */
export function planBounds(grid: Grid | null, zones: readonly EventZone[], extra: readonly Point[] = []): PlanBounds {
  const points: Point[] = [...extra];
  if (grid && grid.columns > 0 && grid.rows > 0) {
    points.push(grid.origin, [grid.origin[0] + grid.columns * grid.cell, grid.origin[1] + grid.rows * grid.cell]);
  }
  for (const z of zones) {
    if (z.shape.type === 'polygon') points.push(...(z.shape.points as Point[]));
    else {
      const [x, y] = z.shape.center;
      points.push([x - z.shape.radius, y - z.shape.radius], [x + z.shape.radius, y + z.shape.radius]);
    }
  }
  if (points.length === 0) return { minX: 0, minY: 0, maxX: 20, maxY: 20 };
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const b = { minX: Math.min(...xs), minY: Math.min(...ys), maxX: Math.max(...xs), maxY: Math.max(...ys) };
  // A margin of a metre, and never a flat area.
  return { minX: b.minX - 1, minY: b.minY - 1, maxX: Math.max(b.maxX + 1, b.minX + 2), maxY: Math.max(b.maxY + 1, b.minY + 2) };
}

/** Paints a heat grid onto a canvas whose pixels map to `area` (grid units: metres on the plan, pixels on a frame). */
export function paintGrid(canvas: HTMLCanvasElement, grid: Grid, area: { x: number; y: number; width: number; height: number }) {
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  const max = Math.max(0, ...grid.seconds);
  const sx = canvas.width / area.width;
  const sy = canvas.height / area.height;
  grid.seconds.forEach((seconds, i) => {
    const colour = heatColour(seconds, max);
    if (!colour) return;
    const column = i % grid.columns;
    const row = Math.floor(i / grid.columns);
    ctx.fillStyle = colour;
    ctx.fillRect(
      (grid.origin[0] + column * grid.cell - area.x) * sx,
      (grid.origin[1] + row * grid.cell - area.y) * sy,
      Math.ceil(grid.cell * sx),
      Math.ceil(grid.cell * sy),
    );
  });
}

const ZONE_COLOURS = { zone: '#1f5fa8', stand: '#2e7d32', safe: '#c62828' } as const;

interface PlanViewProps {
  bounds: PlanBounds;
  heat: Grid | null;
  zones: readonly EventZone[];
  paths?: EventFigures['paths'];
  /** Points being placed (a new polygon), drawn as a dashed line; each a handle when `onMove` is given. */
  draft?: readonly Point[];
  /** The draft is a whole polygon (a zone being edited): drawn closed. */
  draftClosed?: boolean;
  /** A circle being placed or edited, drawn dashed; its centre is the draft's one point. */
  draftRadius?: number | null;
  /** A click on the plan, in metres (placing a polygon's points or a circle's centre). */
  onPick?(point: Point): void;
  /** A draft point dragged to a new place, in metres (moving a vertex or a circle's centre). */
  onMove?(index: number, point: Point): void;
}

/** The hall's plan in metres: the heat map (canvas), zones outlined, paths if asked, clicks in metres. */
export function PlanView({ bounds, heat, zones, paths = [], draft = [], draftClosed = false, draftRadius = null, onPick, onMove }: PlanViewProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  /** The draft point being dragged (the click that ends a drag, or a press on a handle, places nothing). */
  const dragging = useRef<{ index: number } | null>(null);
  const dragged = useRef(false);
  const width = bounds.maxX - bounds.minX;
  const height = bounds.maxY - bounds.minY;
  const pixelHeight = Math.max(120, Math.round((PLAN_WIDTH * height) / width));
  useEffect(() => {
    if (canvas.current && heat) paintGrid(canvas.current, heat, { x: bounds.minX, y: bounds.minY, width, height });
  }, [heat, bounds.minX, bounds.minY, width, height]);
  const toPlan = (event: React.MouseEvent<SVGSVGElement>): Point => {
    const box = event.currentTarget.getBoundingClientRect();
    const x = bounds.minX + ((event.clientX - box.left) / box.width) * width;
    const y = bounds.minY + ((event.clientY - box.top) / box.height) * height;
    return [Math.round(x * 100) / 100, Math.round(y * 100) / 100];
  };
  const pick = (event: React.MouseEvent<SVGSVGElement>) => {
    if (dragged.current) {
      dragged.current = false;
      return;
    }
    onPick?.(toPlan(event));
  };
  const grab = (index: number) => (event: React.PointerEvent<SVGCircleElement>) => {
    if (!onMove) return;
    event.stopPropagation();
    dragging.current = { index };
    event.currentTarget.ownerSVGElement?.setPointerCapture(event.pointerId);
  };
  const drag = (event: React.PointerEvent<SVGSVGElement>) => {
    if (!dragging.current || !onMove) return;
    onMove(dragging.current.index, toPlan(event));
  };
  const drop = () => {
    dragged.current = dragging.current !== null;
    dragging.current = null;
  };
  const line = (points: readonly Point[]) => points.map((p) => p.join(',')).join(' ');
  const stroke = width / 300;
  return (
    <div className="event-plan" style={{ aspectRatio: `${PLAN_WIDTH} / ${pixelHeight}` }}>
      <canvas ref={canvas} width={PLAN_WIDTH} height={pixelHeight} data-testid="plan-heat" />
      <svg
        viewBox={`${bounds.minX} ${bounds.minY} ${width} ${height}`}
        preserveAspectRatio="none"
        onClick={pick}
        onPointerDown={() => (dragged.current = false)}
        onPointerMove={drag}
        onPointerUp={drop}
        className={onPick || onMove ? 'picking' : undefined}
        data-testid="plan-view"
        aria-label="План зала"
      >
        {paths.map((p) => (
          <polyline key={p.track_id} points={p.points.map((q) => `${q.x},${q.y}`).join(' ')} fill="none" stroke="#555" strokeWidth={stroke} opacity={0.6} />
        ))}
        {zones.map((z) =>
          z.shape.type === 'polygon' ? (
            <polygon key={z.id} points={line(z.shape.points as Point[])} fill="none" stroke={ZONE_COLOURS[z.role]} strokeWidth={stroke * 2} />
          ) : (
            <circle
              key={z.id}
              cx={z.shape.center[0]}
              cy={z.shape.center[1]}
              r={z.shape.radius}
              fill="none"
              stroke={ZONE_COLOURS[z.role]}
              strokeWidth={stroke * 2}
            />
          ),
        )}
        {draft.length > 0 && draftRadius === null && (
          <polyline
            points={line(draftClosed ? [...draft, draft[0]!] : draft)}
            fill="none"
            stroke="#ff9800"
            strokeWidth={stroke * 2}
            strokeDasharray={`${stroke * 4}`}
            data-testid="plan-draft"
          />
        )}
        {draft.length === 1 && draftRadius !== null && draftRadius > 0 && (
          <circle
            cx={draft[0]![0]}
            cy={draft[0]![1]}
            r={draftRadius}
            fill="none"
            stroke="#ff9800"
            strokeWidth={stroke * 2}
            strokeDasharray={`${stroke * 4}`}
            data-testid="plan-draft"
          />
        )}
        {draft.map((p, i) => (
          <circle
            key={i}
            cx={p[0]}
            cy={p[1]}
            r={stroke * (onMove ? 7 : 4)}
            fill="#ff9800"
            stroke="#fff"
            strokeWidth={stroke}
            className={onMove ? 'plan-handle' : undefined}
            data-testid="plan-handle"
            onPointerDown={grab(i)}
          />
        ))}
      </svg>
    </div>
  );
}
