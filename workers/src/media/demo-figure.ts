/**
 * The demo's worker as a human figure (issue 43): head with hair, face and eyes, neck, shoulders,
 * arms with hands, a torso in the worker's colour, trousers, legs and shoes, in the proportions of
 * a standing adult and shaded so that the body looks round. A pretrained person detector (MoveNet)
 * finds a figure like this; it found none of the plain boxes the demo drew before.
 *
 * The figure is one small RGBA picture made by ffmpeg's `geq` from the shapes below (no file, no
 * download): `figureSource` gives the lavfi source, which the demo video overlays where the worker
 * stands. Coordinates are pixels of a figure FIGURE_WIDTH × FIGURE_HEIGHT at scale 1.
 */
export const FIGURE_WIDTH = 56;
export const FIGURE_HEIGHT = 140;

/**
 * Where the old body box (36 × 56, top-left at the worker's stand) lies inside the figure: the
 * torso. The demo places the figure so that its torso is where that box was.
 */
export const FIGURE_TORSO = { x: 10, y: 28 } as const;

type Rgb = [number, number, number];

const SKIN: Rgb = [224, 172, 130];
const HAIR: Rgb = [70, 50, 35];
const EYES: Rgb = [40, 30, 30];
const TROUSERS: Rgb = [52, 64, 96];
const SHOES: Rgb = [30, 30, 30];

/** The colours the demo gives its workers (ffmpeg colour names), as RGB; 0xRRGGBB is read as such. */
const NAMED: Record<string, Rgb> = {
  orange: [255, 165, 0],
  cyan: [0, 255, 255],
  magenta: [255, 0, 255],
  yellow: [255, 255, 0],
  lime: [0, 255, 0],
  deepskyblue: [0, 191, 255],
};

function colorRgb(color: string): Rgb {
  const named = NAMED[color.toLowerCase()];
  if (named) return named;
  const hex = /^(?:0x|#)([0-9a-f]{6})$/i.exec(color);
  if (!hex) throw new Error(`Цвет работника не распознан: ${color}`);
  const value = parseInt(hex[1]!, 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

/** A shape as a geq condition on (u, v), the figure's own pixel coordinates. */
type Shape = string;

const n = (value: number) => String(Math.round(value * 100) / 100);
/** Inside an ellipse. */
const ellipse = (cx: number, cy: number, rx: number, ry: number): Shape => `lte(pow((U-${n(cx)})/${n(rx)},2)+pow((V-${n(cy)})/${n(ry)},2),1)`;
/** Within `r` of the segment from (ax, ay) to (bx, by): a limb. */
function limb(ax: number, ay: number, bx: number, by: number, r: number): Shape {
  const dx = bx - ax;
  const dy = by - ay;
  const t = `clip(((U-${n(ax)})*${n(dx)}+(V-${n(ay)})*${n(dy)})/${n(dx * dx + dy * dy)},0,1)`;
  return `lte(pow(U-${n(ax)}-${t}*${n(dx)},2)+pow(V-${n(ay)}-${t}*${n(dy)},2),${n(r * r)})`;
}
/** A trapezoid: top edge from x1 to x2 at y1, bottom edge from x3 to x4 at y2. */
function trapezoid(y1: number, x1: number, x2: number, y2: number, x3: number, x4: number): Shape {
  const f = `(V-${n(y1)})/${n(y2 - y1)}`;
  return `between(V,${n(y1)},${n(y2)})*between(U,${n(x1)}+(${n(x3 - x1)})*${f},${n(x2)}+(${n(x4 - x2)})*${f})`;
}

/** Parts of the figure, front to back (the first that holds a pixel colours it), with their colour and shading. */
function parts(shirt: Rgb): { shape: Shape; color: Rgb; round?: { cx: number; half: number } }[] {
  const sleeve: Rgb = [shirt[0] * 0.82, shirt[1] * 0.82, shirt[2] * 0.82];
  const cx = FIGURE_WIDTH / 2;
  return [
    // Face: eyes, then hair over the top of the head, then skin.
    { shape: `${ellipse(cx - 3.5, 13, 1.6, 1.3)}+${ellipse(cx + 3.5, 13, 1.6, 1.3)}`, color: EYES },
    { shape: `${ellipse(cx, 12, 9.5, 11.5)}*lt(V,8.5+abs(U-${n(cx)})*0.25)`, color: HAIR },
    { shape: ellipse(cx, 12, 9, 11.5), color: SKIN, round: { cx, half: 9 } },
    // Hands at the ends of the arms.
    { shape: `${ellipse(9, 79, 4.5, 5.5)}+${ellipse(FIGURE_WIDTH - 9, 79, 4.5, 5.5)}`, color: SKIN },
    // Arms: upper arm and forearm each side, in sleeves a shade darker than the shirt.
    {
      shape: [
        limb(14, 33, 9, 54, 5),
        limb(9, 54, 9, 73, 4.5),
        limb(FIGURE_WIDTH - 14, 33, FIGURE_WIDTH - 9, 54, 5),
        limb(FIGURE_WIDTH - 9, 54, FIGURE_WIDTH - 9, 73, 4.5),
      ].join('+'),
      color: sleeve,
    },
    { shape: limb(cx, 22, cx, 29, 3.5), color: SKIN },
    // Torso: shoulders wider than the waist, rounded at the shoulders.
    {
      shape: `${trapezoid(29, 13, FIGURE_WIDTH - 13, 76, 16, FIGURE_WIDTH - 16)}+${limb(15, 33, FIGURE_WIDTH - 15, 33, 5)}`,
      color: shirt,
      round: { cx, half: 16 },
    },
    // Shoes, legs, hips.
    { shape: `${ellipse(cx - 8, 134, 7, 4)}+${ellipse(cx + 8, 134, 7, 4)}`, color: SHOES },
    { shape: `${limb(cx - 6.5, 80, cx - 7.5, 130, 5.5)}+${limb(cx + 6.5, 80, cx + 7.5, 130, 5.5)}`, color: TROUSERS, round: { cx, half: 16 } },
    { shape: trapezoid(75, 16, FIGURE_WIDTH - 16, 84, 15, FIGURE_WIDTH - 15), color: TROUSERS },
  ];
}

/** One channel's expression: the first part holding the pixel gives its colour, shaded across the body. */
function channel(list: ReturnType<typeof parts>, index: 0 | 1 | 2): string {
  let expr = '0';
  for (const part of [...list].reverse()) {
    const base = part.color[index];
    const shaded = part.round ? `${n(base)}*(1-0.35*pow((U-${n(part.round.cx)})/${n(part.round.half * 1.6)},2))` : n(base);
    expr = `if(gt(${part.shape},0),${shaded},${expr})`;
  }
  return expr;
}

/**
 * The lavfi source of a figure `width` × `height` pixels in the given shirt colour: one frame,
 * which overlay keeps showing to the end (its `eof_action` is `repeat`). `geq` evaluates its long
 * expressions per pixel: drawn once a second for a 150 s clip, the figures of camera 4 made the
 * clip ten times as costly to render.
 */
export function figureSource(shirt: string, width: number, height: number): string {
  const list = parts(colorRgb(shirt));
  // U, V: the pixel's centre in figure units, whatever the picture's size.
  const uv = (expr: string) => expr.replace(/U/g, `((X+0.5)*${FIGURE_WIDTH}/W)`).replace(/V/g, `((Y+0.5)*${FIGURE_HEIGHT}/H)`);
  const inside = list.map((p) => p.shape).join('+');
  const geq = [`r='${uv(channel(list, 0))}'`, `g='${uv(channel(list, 1))}'`, `b='${uv(channel(list, 2))}'`, `a='${uv(`if(gt(${inside},0),255,0)`)}'`].join(':');
  return `color=c=black@0:s=${width}x${height}:r=1:d=1,format=rgba,geq=${geq}`;
}
