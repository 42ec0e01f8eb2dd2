import 'maplibre-gl/dist/maplibre-gl.css';
import type { Map as MaplibreMap } from 'maplibre-gl';
import { useEffect, useRef, useState } from 'react';
import { useAllows } from '../../state/login';
import { useOfflineText } from '../../status/useOfflineText';
import { runMapShortcut, type MapActionContext } from './actions';
import { GisDialog } from './GisDialog';
import { MapInfo } from './MapInfo';
import { RemovePicker } from './RemovePicker';
import { SidePanel } from './SidePanel';
import { Toolbar } from './Toolbar';
import { useMapEditor } from './useMapEditor';
import type { Busy } from './session';
import { useMapProject, type MapProjectState } from './useMapProject';
import './map.css';

/** What works offline on the map editor and what waits for the server (docs/map.md «Без сети»). */
const MAP_OFFLINE_TEXT =
  'Нет связи с сервером. Карта работает на этом устройстве: подложка, проект и рисование; рисунок сохранится здесь и уйдёт на сервер, когда связь появится. Алгоритмы, чертёж DWG и DXF, ГИС-запросы, эталон, создание и удаление проектов ждут связи.';

const BUSY_TEXT: Record<NonNullable<Busy>, string> = {
  loading: 'Загрузка…',
  saving: 'Сохранение…',
  processing: 'Выполняется алгоритм…',
};

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
 * The map's visible extent as `data-view` on its element ([west, south, east, north], after each
 * move): what the page shows, for checks of where the drawing lies on screen.
 */
function useViewExtent(map: MaplibreMap | null) {
  useEffect(() => {
    if (!map) return;
    const mark = () => {
      const b = map.getBounds();
      map.getContainer().dataset.view = JSON.stringify([b.getWest(), b.getSouth(), b.getEast(), b.getNorth()]);
    };
    mark();
    map.on('moveend', mark);
    return () => {
      map.off('moveend', mark);
    };
  }, [map]);
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
  useOfflineText(MAP_OFFLINE_TEXT);
  const state = useMapProject();
  const { busy } = state;
  const container = useRef<HTMLDivElement>(null);
  const editor = useMapEditor(state, canWrite, container);
  const { gis, hovered } = editor;
  const ctx = useMapActions(state, editor, canWrite);
  useViewExtent(editor.map);

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
          {editor.tool === 'remove' && canWrite && (
            <RemovePicker
              map={editor.map}
              offered={editor.removing.offered}
              busy={busy !== null}
              onChoose={editor.removing.choose}
              onRemove={editor.removing.remove}
              onCancel={editor.removing.cancel}
            />
          )}
          {gis && <GisDialog type={gis} onBuilt={editor.onGisBuilt} onClose={editor.closeGis} />}
          <MapInfo state={state} canWrite={canWrite} onShowAll={editor.showAll} />
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
