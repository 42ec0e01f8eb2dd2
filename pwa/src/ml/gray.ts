/**
 * A video frame as the server's ffmpeg sees it (workers/src/vision/frames.ts: `scale=W:H:flags=area`,
 * `-pix_fmt gray`): BT.601 luma stretched to full range (ffmpeg turns the video's limited-range Y
 * into gray 0–255: measured, gray ≈ (Y − 16) · 255 / 219) averaged over the source pixels each
 * working pixel covers. The browser only has the decoded RGB of <video>, and full-range BT.601 luma
 * of that RGB is the same number up to the rounding of the decoder's colour conversion
 * (docs/vision.md «Экраны и вывод в браузере»).
 */
export function grayWorkFrame(rgba: Uint8ClampedArray | Uint8Array, width: number, height: number, workWidth: number, workHeight: number): Uint8Array {
  const luma = new Float32Array(width * height);
  for (let i = 0, p = 0; i < luma.length; i++, p += 4) {
    luma[i] = 0.299 * rgba[p]! + 0.587 * rgba[p + 1]! + 0.114 * rgba[p + 2]!;
  }
  const columns = coverage(width, workWidth);
  const rows = coverage(height, workHeight);
  const out = new Uint8Array(workWidth * workHeight);
  const line = new Float32Array(workWidth);
  for (let y = 0; y < workHeight; y++) {
    line.fill(0);
    for (const [sy, wy] of rows[y]!) {
      const base = sy * width;
      for (let x = 0; x < workWidth; x++) {
        let sum = 0;
        for (const [sx, wx] of columns[x]!) sum += luma[base + sx]! * wx;
        line[x]! += sum * wy;
      }
    }
    for (let x = 0; x < workWidth; x++) out[y * workWidth + x] = Math.max(0, Math.min(255, Math.round(line[x]!)));
  }
  return out;
}

/** For every target pixel along one axis: the source pixels it covers and their weights (summing to 1). */
function coverage(source: number, target: number): [number, number][][] {
  const step = source / target;
  return Array.from({ length: target }, (_, t) => {
    const from = t * step;
    const to = from + step;
    const cells: [number, number][] = [];
    for (let s = Math.floor(from); s < Math.min(source, Math.ceil(to)); s++) {
      const w = Math.min(to, s + 1) - Math.max(from, s);
      if (w > 1e-9) cells.push([s, w / step]);
    }
    return cells;
  });
}
