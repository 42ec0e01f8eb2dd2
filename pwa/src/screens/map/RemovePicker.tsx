import type { FeatureId } from './drawing';
import { objectsUnder } from './removal';
import type { Removal } from './useMapEditor';

/**
 * «Удалить объект» over the map (issue 46): before a tap, what to do; after it, the shapes under the
 * point in the rule's order (points, lines, then areas from the smallest) with the chosen one
 * outlined in red on the map, and «Удалить» for it. Nothing is deleted by the tap itself.
 */
export function RemovePicker({
  offered,
  busy,
  onChoose,
  onRemove,
  onCancel,
}: {
  offered: Removal | null;
  busy: boolean;
  onChoose(id: FeatureId): void;
  onRemove(): void;
  onCancel(): void;
}) {
  return (
    <section
      className="map-remove"
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
