/** Shared geometry and text settings of the SVG charts (also read by the PDF export). */

// Chart text is written in one weight: svg2pdf sets a font only where it differs from the parent's,
// so one bold label would leave the rest of the chart bold in the PDF.

/** The font charts write with: the same Montserrat the PDF embeds (svg2pdf matches it by name). */
export const CHART_FONT = 'Montserrat';
export const INK = '#1d2430';
export const MUTED = '#5f6b7a';
export const GRID = '#d9dee5';

export function polar(cx: number, cy: number, r: number, angle: number): [number, number] {
  // angle in radians, 0 at 12 o'clock, clockwise.
  return [cx + r * Math.sin(angle), cy - r * Math.cos(angle)];
}

/** An annular sector (ring slice) from angle a0 to a1 between radii r0 (may be 0) and r1. */
export function sectorPath(cx: number, cy: number, r0: number, r1: number, a0: number, a1: number): string {
  const sweep = a1 - a0;
  if (sweep >= Math.PI * 2 - 1e-9) {
    // A full circle cannot be one arc: draw two halves.
    const mid = a0 + Math.PI;
    return `${sectorPath(cx, cy, r0, r1, a0, mid)} ${sectorPath(cx, cy, r0, r1, mid, a1 - 1e-9)}`;
  }
  const large = sweep > Math.PI ? 1 : 0;
  const [x1, y1] = polar(cx, cy, r1, a0);
  const [x2, y2] = polar(cx, cy, r1, a1);
  if (r0 <= 0) return `M${cx},${cy} L${x1},${y1} A${r1},${r1} 0 ${large} 1 ${x2},${y2} Z`;
  const [x3, y3] = polar(cx, cy, r0, a1);
  const [x4, y4] = polar(cx, cy, r0, a0);
  return `M${x1},${y1} A${r1},${r1} 0 ${large} 1 ${x2},${y2} L${x3},${y3} A${r0},${r0} 0 ${large} 0 ${x4},${y4} Z`;
}

/** Round steps for an axis from 0 to at least `max`: [step, top]. */
export function niceScale(max: number, ticks = 5): [number, number] {
  if (!(max > 0)) return [1, ticks];
  const raw = max / ticks;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
  return [step, Math.ceil(max / step) * step];
}

/** Cuts a label to `max` characters with an ellipsis. */
export function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
