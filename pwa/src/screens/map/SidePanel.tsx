import { useState, type FormEvent } from 'react';
import { ExportPanel } from './ExportPanel';
import type { MapProjectState } from './useMapProject';

/**
 * The side menu (240 px, spec 02 "Map editor"): the project dropdown, delete (−, only when a
 * current project exists and more than one exists, §5), create (+) with a name field, the CAD
 * export and "save as golden standard". Viewers choose and export only.
 */
export function SidePanel({ state, canWrite }: { state: MapProjectState; canWrite: boolean }) {
  const { projects, project, busy } = state;
  const [creating, setCreating] = useState(false);
  const [name, setName] = useState('');
  const list = projects?.projects ?? [];
  const canDelete = canWrite && projects?.current_id != null && list.length > 1;

  async function create(event: FormEvent) {
    event.preventDefault();
    const created = await state.createProject(name);
    if (created) {
      setName('');
      setCreating(false);
    }
  }

  return (
    <aside className="map-side" aria-label="Меню проекта" data-testid="map-side">
      <h2>Проект</h2>
      <select
        className="map-project-select"
        aria-label="Проект"
        value={projects?.current_id ?? ''}
        disabled={busy !== null || list.length === 0}
        onChange={(e) => void state.selectProject(Number(e.target.value))}
      >
        {list.length === 0 && <option value="">Проектов нет</option>}
        {list.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </select>
      {canWrite && (
        <div className="map-project-row">
          <button
            type="button"
            className="button secondary map-square"
            aria-label="Удалить проект"
            title={canDelete ? 'Удалить проект' : 'Удалить можно, только когда проектов больше одного'}
            disabled={!canDelete || busy !== null}
            onClick={() => void state.deleteProject()}
          >
            −
          </button>
          <button
            type="button"
            className="button secondary map-square"
            aria-label="Создать проект"
            aria-expanded={creating}
            title="Создать проект"
            onClick={() => setCreating((c) => !c)}
          >
            +
          </button>
        </div>
      )}
      {creating && (
        <form className="map-create" aria-label="Новый проект" onSubmit={(e) => void create(e)}>
          <label>
            Название проекта
            <input value={name} onChange={(e) => setName(e.target.value)} maxLength={200} required />
          </label>
          <button type="submit" className="button" disabled={busy !== null}>
            Создать
          </button>
        </form>
      )}
      {/* Preparing a DWG or DXF starts a job: workspace.write, like the API's dwg/build. */}
      {project && canWrite && <ExportPanel key={project.id} />}
      {project && canWrite && (
        <button type="button" className="button secondary" disabled={busy !== null} onClick={() => void state.saveGolden()}>
          Сохранить как эталон
        </button>
      )}
    </aside>
  );
}
