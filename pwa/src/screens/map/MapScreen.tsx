import 'maplibre-gl/dist/maplibre-gl.css';
import * as maplibregl from 'maplibre-gl';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api } from '../../api/client';
import type { HtmlMenuReply, MapFeature, MapFeatureCollection, MapFeatureType, MapProject } from '../../api/types';
import { createBasemap } from '../../map/basemap';
import { addGeneratedLayers, showGenerated } from '../../map/layers';
import { useAllows } from '../../state/login';
import { notify } from '../../status/notifications';
import { runMapShortcut, type MapActionContext } from './actions';
import { CrsControl } from './CrsControl';
import { createDrawing, type Drawing, type FeatureId, type Tool } from './drawing';
import { GisDialog } from './GisDialog';
import { labelText, openPopup, serverForm } from './popups';
import { SidePanel } from './SidePanel';
import { Toolbar } from './Toolbar';
import { useMapProject, type Busy } from './useMapProject';
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

function bounds(features: MapFeature[]): maplibregl.LngLatBounds | null {
  const box = new maplibregl.LngLatBounds();
  const visit = (c: unknown): void => {
    if (Array.isArray(c) && typeof c[0] === 'number') box.extend([c[0], c[1] as number]);
    else if (Array.isArray(c)) c.forEach(visit);
  };
  for (const f of features) visit(f.geometry.coordinates);
  return box.isEmpty() ? null : box;
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
  const { project, loaded, catalogue, busy } = state;
  const container = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<maplibregl.Map | null>(null);
  const [drawing, setDrawing] = useState<Drawing | null>(null);
  const [tool, setTool] = useState<Tool>('select');
  const [sideOpen, setSideOpen] = useState(true);
  const [gis, setGis] = useState<'coords' | 'code' | null>(null);
  const [hovered, setHovered] = useState<string | null>(null);
  /** Features drawn but not yet saved in their popup: not part of the project. */
  const pending = useRef(new Set<FeatureId>());
  /** Drawn features the tools cannot hold (shown read-only, saved back as they are). */
  const fixedDrawn = useRef<MapFeature[]>([]);
  const popup = useRef<maplibregl.Popup | null>(null);
  /** The project the view was last fitted to. */
  const fitted = useRef<number | null>(null);

  // The map, once.
  useEffect(() => {
    const element = container.current!;
    const created = createBasemap(element);
    created.on('load', () => {
      addGeneratedLayers(created);
      element.dataset.mapLoaded = 'true';
      setMap(created);
    });
    created.on('error', (event) => {
      // A tile or the style that did not load: said once, not per tile. maplibre's own text is English: it goes to the console for support, the user reads Russian.
      console.warn('maplibre:', event.error);
      notify('error', 'Карта: не удалось загрузить часть подложки или стиля');
    });
    return () => {
      popup.current?.remove();
      created.remove();
    };
  }, []);

  const { saveDrawn } = state;
  const save = useCallback((d: Drawing) => saveDrawn([...d.features(pending.current), ...fixedDrawn.current]), [saveDrawn]);

  const closePopup = () => {
    popup.current?.remove();
    popup.current = null;
  };

  /** Opens the property popup of features; new ones stay only if saved in it. */
  const openProperties = useCallback(
    async (d: Drawing, m: maplibregl.Map, ids: FeatureId[], isNew: boolean) => {
      popup.current?.remove();
      const props = d.properties(ids[0]);
      const at = d.anchor(ids[0]);
      if (!props || !at) return;
      let menu: HtmlMenuReply;
      try {
        menu = await api.post('/api/v1/html_menu', { body: props });
      } catch {
        if (isNew) d.remove(ids);
        ids.forEach((id) => pending.current.delete(id));
        return;
      }
      if (ids.some((id) => !d.has(id))) return;
      let saved = false;
      const form = serverForm(menu.html_menu, async (values) => {
        for (const id of ids) d.setProperties(id, values as Partial<MapFeature['properties']>);
        ids.forEach((id) => pending.current.delete(id));
        saved = true;
        opened.remove();
        await save(d);
      });
      const opened = openPopup(m, at, form, () => {
        if (popup.current === opened) popup.current = null;
        if (isNew && !saved) {
          d.remove(ids);
          ids.forEach((id) => pending.current.delete(id));
        }
      });
      popup.current = opened;
    },
    [save],
  );

  /** What the drawing's events do now (read by listeners made once per drawing). */
  const handlers = useRef({ created: (_id: FeatureId) => {}, edited: () => {}, selected: (_id: FeatureId) => {}, click: (_at: maplibregl.LngLat) => {} });
  useEffect(() => {
    handlers.current = {
      created(id) {
        if (!drawing || !map) return;
        pending.current.add(id);
        void openProperties(drawing, map, [id], true);
      },
      edited() {
        if (drawing && canWrite) void save(drawing);
      },
      selected(id) {
        // No popups in removal mode; a feature still waiting for its popup has one already.
        if (drawing && map && tool === 'select' && !pending.current.has(id)) void openProperties(drawing, map, [id], false);
      },
      click(at) {
        if (!drawing || tool !== 'remove' || !canWrite || busy) return;
        const id = drawing.featureAt(at);
        if (id === null) return;
        drawing.remove([id]);
        void save(drawing);
      },
    };
  });

  // The drawing, once the map and the type catalogue (its colours) are there.
  useEffect(() => {
    if (!map || !catalogue) return;
    const created = createDrawing(map, {
      created: (id) => handlers.current.created(id),
      edited: () => handlers.current.edited(),
      selected: (id) => handlers.current.selected(id),
    });
    created.setStyles(catalogue.styles);
    const onClick = (event: maplibregl.MapMouseEvent) => handlers.current.click(event.lngLat);
    map.on('click', onClick);
    setDrawing(created);
    return () => {
      map.off('click', onClick);
      // The map may be gone already (the screen closed): its layers went with it.
      try {
        created.destroy();
      } catch {
        /* nothing left to remove */
      }
      setDrawing(null);
    };
  }, [map, catalogue]);

  // What the server changed: the drawing, the generated network and the info labels are redrawn.
  useEffect(() => {
    if (!map || !drawing || !catalogue) return;
    popup.current?.remove();
    pending.current.clear();
    fixedDrawn.current = drawing.load(loaded?.drawn_feature_collection.features ?? []);
    showGenerated(map, [...(loaded?.general_feature_collection.features ?? []), ...fixedDrawn.current], catalogue.styles);
    const markers = (loaded?.info_feature_collection.features ?? []).flatMap((f) => {
      if (f.geometry.type !== 'Point') return [];
      const element = document.createElement('div');
      element.className = 'map-label';
      element.dataset.testid = 'map-label';
      element.textContent = labelText(String(f.properties.html_short ?? f.properties.name ?? ''));
      const full = labelText(String(f.properties.html_full ?? ''));
      element.addEventListener('mouseenter', () => setHovered(full));
      element.addEventListener('mouseleave', () => setHovered(null));
      return [new maplibregl.Marker({ element }).setLngLat(f.geometry.coordinates as [number, number]).addTo(map)];
    });
    setHovered(null);
    // A project opened: show the whole of it (the initial view stays for an empty one).
    if (loaded && fitted.current !== loaded.id) {
      fitted.current = loaded.id;
      const box = bounds(loaded.drawing_feature_collection.features);
      if (box) map.fitBounds(box, { padding: 80, maxZoom: 16, duration: 0 });
    }
    return () => markers.forEach((m) => m.remove());
  }, [map, drawing, catalogue, loaded]);

  // The tool in use; nothing is drawn while a project loads or an algorithm runs, or without write rights.
  const frozen = !canWrite || !project || busy === 'processing' || busy === 'loading';
  useEffect(() => {
    if (!drawing) return;
    drawing.setTool(frozen ? 'view' : tool);
    if (tool === 'remove') popup.current?.remove();
  }, [drawing, tool, frozen]);

  const onGisBuilt = useCallback(
    (found: MapFeatureCollection) => {
      if (!drawing || !map) return;
      setGis(null);
      const ids = drawing.add(found.features);
      if (ids.length < found.features.length) notify('error', 'Часть участков не удалось нарисовать: многоугольник с дырами или самопересечением');
      if (ids.length === 0) return;
      ids.forEach((id) => pending.current.add(id));
      const box = bounds(found.features);
      if (box) map.fitBounds(box, { padding: 80, maxZoom: 16, duration: 0 });
      void openProperties(drawing, map, ids, true);
    },
    [drawing, map, openProperties],
  );
  const closeGis = useCallback(() => setGis(null), []);

  const ctx: MapActionContext = {
    canWrite,
    busy: busy !== null,
    hasProject: project !== null && drawing !== null,
    tool,
    canUndo: state.canUndo,
    canRedo: state.canRedo,
    sideOpen,
    setTool: (next) => {
      closePopup();
      setTool(next);
    },
    openGis: setGis,
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

  const counts = useMemo(() => (project ? countByType(project) : null), [project]);

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
          {gis && <GisDialog type={gis} onBuilt={onGisBuilt} onClose={closeGis} />}
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
          {hovered !== null && (
            <div className="map-full-text" data-testid="map-full-text" role="status">
              {hovered}
            </div>
          )}
        </div>
        {sideOpen && <SidePanel state={state} canWrite={canWrite} />}
      </div>
    </section>
  );
}
