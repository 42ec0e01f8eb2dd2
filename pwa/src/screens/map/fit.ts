import type * as maplibregl from 'maplibre-gl';

/** Free margin around a fitted drawing, px (as before issue 46: the drawing stays clear of the map's corners). */
const MARGIN_PX = 80;

/**
 * The padding that fits `box` into the part of the map the project info box (bottom left) does not
 * cover (issue 46): the drawing goes either to the right of the box or above it, whichever shows it
 * larger. Without the box on screen — an even margin.
 */
export function fitPadding(map: maplibregl.Map, box: maplibregl.LngLatBounds): maplibregl.PaddingOptions {
  const even = { top: MARGIN_PX, right: MARGIN_PX, bottom: MARGIN_PX, left: MARGIN_PX };
  const container = map.getContainer();
  const info = container.parentElement?.querySelector<HTMLElement>('[data-testid=map-info]');
  if (!info) return even;
  const area = container.getBoundingClientRect();
  const covered = info.getBoundingClientRect();
  if (covered.width === 0 || covered.height === 0) return even;
  const options = [
    { ...even, left: Math.max(MARGIN_PX, covered.right - area.left + MARGIN_PX / 2) },
    { ...even, bottom: Math.max(MARGIN_PX, area.bottom - covered.top + MARGIN_PX / 2) },
  ].filter((p) => area.width - p.left - p.right >= MARGIN_PX && area.height - p.top - p.bottom >= MARGIN_PX);
  let best = even;
  let bestZoom = -Infinity;
  for (const padding of options) {
    const camera = map.cameraForBounds(box, { padding, maxZoom: 16 });
    if (camera?.zoom !== undefined && camera.zoom > bestZoom) {
      best = padding;
      bestZoom = camera.zoom;
    }
  }
  return best;
}

/** Shows the whole of `box` clear of the info box. */
export function fitClear(map: maplibregl.Map, box: maplibregl.LngLatBounds) {
  map.fitBounds(box, { padding: fitPadding(map, box), maxZoom: 16, duration: 0 });
}
