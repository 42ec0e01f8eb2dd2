import * as maplibregl from 'maplibre-gl';

/** Popup and side menu width (spec 02 §9). */
export const MENU_WIDTH_PX = 240;

export type FormValues = Record<string, string | number | boolean>;

/**
 * The values of a server-made form (POST /api/v1/html_menu, /api/v1/gis/html_menu): a checkbox is
 * a boolean, a number field or a select whose value is a number is a number, anything else text.
 */
export function formValues(form: HTMLFormElement): FormValues {
  const values: FormValues = {};
  for (const element of Array.from(form.elements)) {
    if (!(element instanceof HTMLInputElement || element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement) || !element.name) continue;
    if (element instanceof HTMLInputElement && element.type === 'checkbox') values[element.name] = element.checked;
    else if ((element instanceof HTMLInputElement && element.type === 'number') || element instanceof HTMLSelectElement)
      values[element.name] = element.value !== '' && Number.isFinite(Number(element.value)) ? Number(element.value) : element.value;
    else values[element.name] = element.value;
  }
  return values;
}

/**
 * A server form (escaped HTML made by the API, never user text) as an element whose submit calls
 * `onSubmit` with the values; its submit button is disabled while that runs.
 */
export function serverForm(html: string, onSubmit: (values: FormValues) => Promise<void> | void): HTMLElement {
  const holder = document.createElement('div');
  holder.className = 'map-menu-holder';
  holder.innerHTML = html;
  const form = holder.querySelector('form');
  form?.addEventListener('submit', (event) => {
    event.preventDefault();
    const button = form.querySelector<HTMLButtonElement>('button[type=submit]');
    if (button) button.disabled = true;
    void Promise.resolve(onSubmit(formValues(form))).finally(() => {
      if (button) button.disabled = false;
    });
  });
  return holder;
}

/** Height a popup takes beyond its form, px: the tip (10), the padding (2 × 12) and a gap to the map's edge. */
const POPUP_MARGIN_PX = 42;

/**
 * Where a popup at screen point `at` fits in a map of `width`×`height` (issue 46): on the side of
 * the point with more room — below or above — centred on it, or to its left or right when the centred
 * popup would cross the map's edge; `maxHeight` is what of that room the form may take (it scrolls inside it). A phone's
 * map is about 340×520 px and a road's form about 380 px tall: left to itself maplibre opened it below
 * a point low on the map, past the map's bottom edge, where nothing can be tapped.
 */
function popupPlacement(at: { x: number; y: number }, width: number, height: number): { anchor: maplibregl.PositionAnchor; maxHeight: number } {
  const below = height - at.y;
  const vertical = below >= at.y ? 'top' : 'bottom';
  const half = MENU_WIDTH_PX / 2;
  const side = at.x - half >= 0 && at.x + half <= width ? '' : at.x < width / 2 ? '-left' : '-right';
  return { anchor: `${vertical}${side}` as maplibregl.PositionAnchor, maxHeight: Math.max(120, Math.floor(Math.max(below, at.y) - POPUP_MARGIN_PX)) };
}

/**
 * The property popup of a feature: 240 px wide, at `lngLat`, inside the map (`popupPlacement`). It
 * does not close on a map click (the click that finishes a shape would close it at once); the ×
 * button or Escape close it.
 */
export function openPopup(map: maplibregl.Map, lngLat: [number, number], content: HTMLElement, onClose: () => void): maplibregl.Popup {
  const container = map.getContainer();
  const { anchor, maxHeight } = popupPlacement(map.project(lngLat), container.clientWidth, container.clientHeight);
  content.style.maxHeight = `${maxHeight}px`;
  content.style.overflowY = 'auto';
  const popup = new maplibregl.Popup({
    closeOnClick: false,
    closeOnMove: false,
    maxWidth: `${MENU_WIDTH_PX}px`,
    className: 'map-popup',
    focusAfterOpen: true,
    anchor,
  })
    .setLngLat(lngLat)
    .setDOMContent(content)
    .addTo(map);
  popup.getElement()?.setAttribute('data-testid', 'map-popup');
  content.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') popup.remove();
  });
  popup.on('close', onClose);
  return popup;
}

/**
 * Plain text of an info label's HTML (`html_short`/`html_full`: escaped lines joined by <br>). Parsed
 * in an inert document and shown as text, so a stored label can never inject markup.
 */
export function labelText(html: string): string {
  const doc = new DOMParser().parseFromString(html.replace(/<br\s*\/?>/gi, '\n'), 'text/html');
  return doc.body.textContent ?? '';
}
