import type * as maplibregl from 'maplibre-gl';
import { useLayoutEffect, useRef, useState } from 'react';
import type { FeatureId } from './drawing';
import { clearPaddings, freeCorner, objectsUnder, shapeScreenBox, type PanelCorner } from './removal';
import type { Removal } from './useMapEditor';

/**
 * The panel's corner: one clear of the outlined shape (freeCorner), looked for again as the map moves;
 * when a new choice leaves no corner clear, the map moves the shape beside the panel in the top left
 * (clearPaddings, never zooming in). Until a shape is chosen the panel sits top left.
 */
function usePanelCorner(map: maplibregl.Map | null, offered: Removal | null) {
  const panel = useRef<HTMLElement>(null);
  const [corner, setCorner] = useState<PanelCorner>('top-left');
  const chosen = offered?.candidates.find((c) => c.id === offered.chosen) ?? null;
  const count = offered?.candidates.length ?? 0;
  useLayoutEffect(() => {
    const element = panel.current;
    if (!map || !element) return;
    const place = (moveMap: boolean) => {
      const container = map.getContainer();
      const area = { width: container.clientWidth, height: container.clientHeight };
      const size = { width: element.offsetWidth, height: element.offsetHeight };
      const free = freeCorner(area, size, chosen ? shapeScreenBox(map, chosen.geometry) : null);
      setCorner(free ?? 'top-left');
      if (free || !moveMap || !chosen) return;
      const box = shapeScreenBox(map, chosen.geometry);
      const bounds: [[number, number], [number, number]] = [
        map.unproject([box.x, box.y + box.height]).toArray() as [number, number],
        map.unproject([box.x + box.width, box.y]).toArray() as [number, number],
      ];
      // The padding that shows the shape larger; no zooming in past the user's view.
      const options = clearPaddings(area, size).map((padding) => ({ padding, camera: map.cameraForBounds(bounds, { padding, maxZoom: map.getZoom() }) }));
      const best = options.sort((a, b) => (b.camera?.zoom ?? -Infinity) - (a.camera?.zoom ?? -Infinity))[0];
      if (best) map.fitBounds(bounds, { padding: best.padding, maxZoom: map.getZoom(), duration: 0 });
    };
    place(true);
    const onMove = () => place(false);
    map.on('moveend', onMove);
    return () => {
      map.off('moveend', onMove);
    };
  }, [map, chosen, count]);
  return { panel, corner };
}

/**
 * «Удалить объект» over the map (issue 46): before a tap, what to do; after it, the shapes under the
 * point in the rule's order (points, lines, then areas from the smallest) with the chosen one
 * outlined in red on the map, and «Удалить» for it. Nothing is deleted by the tap itself. The panel
 * sits in a corner of the map the outlined shape leaves clear (usePanelCorner).
 */
export function RemovePicker({
  map,
  offered,
  busy,
  onChoose,
  onRemove,
  onCancel,
}: {
  map: maplibregl.Map | null;
  offered: Removal | null;
  busy: boolean;
  onChoose(id: FeatureId): void;
  onRemove(): void;
  onCancel(): void;
}) {
  const { panel, corner } = usePanelCorner(map, offered);
  return (
    <section
      ref={panel}
      className="map-remove"
      data-corner={corner}
      aria-label="Удалить объект"
      data-testid="map-remove"
      onKeyDown={(event) => {
        if (event.key === 'Escape') onCancel();
      }}
    >
      {offered ? (
        <>
          <fieldset>
            <legend>
              {objectsUnder(offered.candidates.length)}
              {offered.candidates.length > 1 ? ' — выбран меньший, можно выбрать другой:' : ':'}
            </legend>
            {offered.candidates.map((c) => (
              <label key={String(c.id)}>
                <input type="radio" name="map-remove-pick" checked={c.id === offered.chosen} onChange={() => onChoose(c.id)} />
                {c.label}
              </label>
            ))}
          </fieldset>
          <div className="map-remove-buttons">
            <button type="button" className="map-tool map-remove-yes" disabled={busy} onClick={onRemove}>
              Удалить
            </button>
            <button type="button" className="map-tool" onClick={onCancel}>
              Отмена
            </button>
          </div>
        </>
      ) : (
        <p>Нажмите на объект: он выделится красным, удалится после кнопки «Удалить».</p>
      )}
    </section>
  );
}
