import 'maplibre-gl/dist/maplibre-gl.css';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { MapFeatureType, MapProject } from '../../api/types';
import { useAllows } from '../../state/login';
import { runMapShortcut, type MapActionContext } from './actions';
import { CrsControl } from './CrsControl';
import { GisDialog } from './GisDialog';
import { SidePanel } from './SidePanel';
import { Toolbar } from './Toolbar';
import { useMapEditor } from './useMapEditor';
import type { Busy } from './session';
import { useMapProject, type MapProjectState } from './useMapProject';
import './map.css';

const BUSY_TEXT: Record<NonNullable<Busy>, string> = {
  loading: 'Загрузка…',
  saving: 'Сохранение…',
  processing: 'Выполняется алгоритм…',
};

const COUNTED: Array<{ type: MapFeatureType; label: string }> = [
  { type: 'area', label: 'Территории' },
  { type: 'road', label: 'Дороги' },
  { type: 'block', label: 'Кварталы' },
  { type: 'zone', label: 'Зоны' },
  { type: 'object', label: 'Объекты' },
];

function countByType(project: MapProject) {
  const counts = Object.fromEntries(COUNTED.map((c) => [c.type, 0])) as Record<MapFeatureType, number>;
  for (const f of [...project.drawn_feature_collection.features, ...project.general_feature_collection.features]) counts[f.properties.type] += 1;
  return counts;
}

/** The project info (bottom left): its name, how many features of each type, its coordinate reference. */
function MapInfo({ state, canWrite }: { state: MapProjectState; canWrite: boolean }) {
  const { project, busy } = state;
  const counts = useMemo(() => (project ? countByType(project) : null), [project]);
  return (
    <div className="map-info" data-testid="map-info" aria-label="Сведения о проекте">
      {project && counts ? (
        <>
          <strong data-testid="map-project-name">{project.name}</strong>
          <ul>
            {COUNTED.map((c) => (
              <li key={c.type}>
                {c.label}: <span data-testid={`map-count-${c.type}`}>{counts[c.type]}</span>
              </li>
            ))}
          </ul>
          <CrsControl project={project} canWrite={canWrite} busy={busy !== null} onPick={state.setCrs} />
        </>
      ) : (
        state.projects && <span>Проектов нет{canWrite ? ': создайте проект в меню (+)' : ''}</span>
      )}
    </div>
  );
}

/** The toolbar's and the keyboard's commands on the editor (actions.ts); popups close before each. */
function useMapActions(state: MapProjectState, editor: ReturnType<typeof useMapEditor>, canWrite: boolean): MapActionContext {
  const [sideOpen, setSideOpen] = useState(true);
  const { closePopup } = editor;
  const ctx: MapActionContext = {
    canWrite,
    busy: state.busy !== null,
    hasProject: state.project !== null && editor.drawing !== null,
    tool: editor.tool,
    canUndo: state.canUndo,
    canRedo: state.canRedo,
    sideOpen,
    setTool: (next) => {
      closePopup();
      editor.setTool(next);
    },
    openGis: editor.setGis,
    deleteAll: () => {
      closePopup();
      void state.clearAll();
    },
    runAlgorithm: (tag) => {
      closePopup();
      void state.runAlgorithm(tag);
    },
    undo: () => {
      closePopup();
      void state.undo();
    },
    redo: () => {
      closePopup();
      void state.redo();
    },
    toggleSide: () => setSideOpen((open) => !open),
  };
  const ctxRef = useRef(ctx);
  useEffect(() => {
    ctxRef.current = ctx;
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => runMapShortcut(event, ctxRef.current);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return ctx;
}

/**
 * The map editor `/ciblock/map` (spec 02 "Map editor", issue 15; docs/map.md «Экран редактора»):
 * the offline basemap, the drawing with property popups, the toolbar, the project side menu, the
 * project info (bottom left) and the hovered label's full text (bottom right). Roles without
 * workspace.write see it read-only.
 */
export function MapScreen() {
  // workspace.write (api/src/auth/permissions.ts), as whoami sent it.
  const canWrite = useAllows('workspace.write');
  const state = useMapProject();
  const { busy } = state;
  const container = useRef<HTMLDivElement>(null);
  const editor = useMapEditor(state, canWrite, container);
  const { gis, hovered } = editor;
  const ctx = useMapActions(state, editor, canWrite);

  return (
    <section className="map-screen">
      <Toolbar ctx={ctx} />
      <div className="map-body">
        <div className="map-area" aria-busy={busy !== null}>
          <div ref={container} className="map-canvas" data-testid="map-canvas" />
          {busy && (
            <div className="map-busy" role="status" data-testid="map-busy">
              <span className="map-spinner" aria-hidden="true" /> {BUSY_TEXT[busy]}
            </div>
          )}
          {gis && <GisDialog type={gis} onBuilt={editor.onGisBuilt} onClose={editor.closeGis} />}
          <MapInfo state={state} canWrite={canWrite} />
          {hovered !== null && (
            <div className="map-full-text" data-testid="map-full-text" role="status">
              {hovered}
            </div>
          )}
        </div>
        {ctx.sideOpen && <SidePanel state={state} canWrite={canWrite} />}
      </div>
    </section>
  );
}
