import * as maplibregl from 'maplibre-gl';
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../../api/client';
import type { HtmlMenuReply, MapFeature, MapFeatureCollection } from '../../api/types';
import { createBasemap } from '../../maplibre/setup';
import { addGeneratedLayers, showGenerated } from '../../maplibre/layers';
import { notify } from '../../status/notifications';
import { createDrawing, type Drawing, type FeatureId, type Tool } from './drawing';
import { addNamesLayer, NAME_MAX, normaliseName, showNames } from './labels';
import { addSmallZoneLayers, showSmallZones } from './small-zones';
import { fitClear } from './fit';
import { labelText, openPopup, serverForm } from './popups';
import { addPickLayers, byRemovalRule, candidateLabel, showPick, type RemovalCandidate } from './removal';
import type { MapProjectState } from './useMapProject';

export function bounds(features: MapFeature[]): maplibregl.LngLatBounds | null {
  const box = new maplibregl.LngLatBounds();
  const visit = (c: unknown): void => {
    if (Array.isArray(c) && typeof c[0] === 'number') box.extend([c[0], c[1] as number]);
    else if (Array.isArray(c)) c.forEach(visit);
  };
  for (const f of features) visit(f.geometry.coordinates);
  return box.isEmpty() ? null : box;
}

/** The editor's own refs: features not yet saved in their popup, drawn features the tools cannot hold, the open popup. */
interface EditorRefs {
  /** Features drawn but not yet saved in their popup: not part of the project. */
  pending: RefObject<Set<FeatureId>>;
  /** Drawn features the tools cannot hold (shown read-only, saved back as they are). */
  fixedDrawn: RefObject<MapFeature[]>;
  popup: RefObject<maplibregl.Popup | null>;
}

/** The basemap in `container`, made once; null until its style has loaded. `closePopup` runs before it goes. */
function useBasemap(container: RefObject<HTMLDivElement | null>, closePopup: () => void) {
  const [map, setMap] = useState<maplibregl.Map | null>(null);
  useEffect(() => {
    const element = container.current!;
    const created = createBasemap(element);
    created.on('load', () => {
      addGeneratedLayers(created);
      addNamesLayer(created);
      addSmallZoneLayers(created);
      addPickLayers(created);
      element.dataset.mapLoaded = 'true';
      setMap(created);
    });
    created.on('error', (event) => {
      // A tile or the style that did not load: said once, not per tile. maplibre's own text is English: it goes to the console for support, the user reads Russian.
      console.warn('maplibre:', event.error);
      notify('error', 'Карта: не удалось загрузить часть подложки или стиля');
    });
    return () => {
      closePopup();
      created.remove();
    };
  }, [container, closePopup]);
  return map;
}

/** Opens the property popup of features (the form the server sends); new ones stay only if saved in it. */
function usePropertyPopup({ pending, popup }: EditorRefs, save: (d: Drawing) => Promise<unknown>) {
  return useCallback(
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
        if (typeof values.name === 'string') {
          values.name = normaliseName(values.name);
          if (values.name.length > NAME_MAX) {
            notify('error', `Название — не длиннее ${NAME_MAX} символов, а здесь ${values.name.length}`);
            return;
          }
        }
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
    [pending, popup, save],
  );
}

/** The editor's refusal of a zone circle under the smallest radius (the API's ZONE_MIN_RADIUS_M, sent with the catalogue). */
const zoneTooSmall = (radius: number, min: number) =>
  `Зона не нарисована: радиус ${Math.floor(radius)} м, а зона обслуживания — не меньше ${min} м. Поставьте центр и отведите край дальше от него.`;

/** «Удалить объект»: the shapes under the last tap, in the rule's order, and the one chosen. */
export interface Removal {
  candidates: RemovalCandidate[];
  chosen: FeatureId;
}

type DrawingHandlers = { created(id: FeatureId): void; edited(): void; selected(id: FeatureId): void; click(at: maplibregl.LngLat): void };

/** The drawing, once the map and the type catalogue (its colours) are there; its events call `handlers` as they are now. */
function useDrawingLayer(map: maplibregl.Map | null, catalogue: MapProjectState['catalogue'], handlers: RefObject<DrawingHandlers>) {
  const [drawing, setDrawing] = useState<Drawing | null>(null);
  useEffect(() => {
    if (!map || !catalogue) return;
    const created = createDrawing(map, {
      created: (id) => handlers.current.created(id),
      edited: () => handlers.current.edited(),
      selected: (id) => handlers.current.selected(id),
    });
    created.setStyles(catalogue.styles, catalogue.zone_min_radius);
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
  }, [map, catalogue, handlers]);
  return drawing;
}

/**
 * What the server changed: the drawing, the generated network and the info labels are redrawn.
 * Returns the full text of the label under the pointer (null when none).
 */
function useServerLayers(map: maplibregl.Map | null, drawing: Drawing | null, { catalogue, loaded }: MapProjectState, refs: EditorRefs) {
  const [hovered, setHovered] = useState<string | null>(null);
  /** The project the view was last fitted to. */
  const fitted = useRef<number | null>(null);
  const { pending, fixedDrawn, popup } = refs;
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
      if (box) fitClear(map, box);
    }
    return () => markers.forEach((m) => m.remove());
  }, [map, drawing, catalogue, loaded, pending, fixedDrawn, popup]);
  return hovered;
}

/**
 * «Удалить объект» (removal.ts): a tap offers the shapes under it, the first by the rule chosen and
 * outlined on the map; `remove` deletes the chosen one and saves. Offered only while `active` (the
 * tool on, the project editable) and while every shape offered is still drawn (a reload drops them).
 */
function useRemoval(
  map: maplibregl.Map | null,
  drawing: Drawing | null,
  { catalogue, busy }: MapProjectState,
  active: boolean,
  save: (d: Drawing) => Promise<unknown>,
) {
  const [removal, setRemoval] = useState<Removal | null>(null);
  const offered = active && removal && drawing && removal.candidates.every((c) => drawing.has(c.id)) ? removal : null;
  useEffect(() => {
    if (map) showPick(map, offered?.candidates.find((c) => c.id === offered.chosen) ?? null);
  }, [map, offered]);
  const cancel = useCallback(() => setRemoval(null), []);
  return {
    offered,
    cancel,
    offer(d: Drawing, at: { lng: number; lat: number }) {
      const types = catalogue?.types ?? [];
      // «Удалить объект»'s order (removal.ts): points, lines, then areas from the smallest.
      const candidates = byRemovalRule(d.featuresAt(at)).flatMap(({ id, geometry }) => {
        const props = d.properties(id);
        return props ? [{ id, geometry, label: candidateLabel(props, geometry, types) }] : [];
      });
      setRemoval(candidates.length ? { candidates, chosen: candidates[0].id } : null);
    },
    choose: (id: FeatureId) => setRemoval((now) => (now ? { ...now, chosen: id } : now)),
    remove() {
      if (!drawing || !offered || busy) return;
      setRemoval(null);
      if (!drawing.has(offered.chosen)) return;
      drawing.remove([offered.chosen]);
      void save(drawing);
    },
  };
}

/**
 * The map editor's drawing state, outside the screen: the basemap, the drawing with its property
 * popups, the server's layers, the tool in use, and the GIS dialog's result drawn as new features.
 */
export function useMapEditor(state: MapProjectState, canWrite: boolean, container: RefObject<HTMLDivElement | null>) {
  const { project, busy, saveDrawn } = state;
  const refs: EditorRefs = { pending: useRef(new Set<FeatureId>()), fixedDrawn: useRef<MapFeature[]>([]), popup: useRef<maplibregl.Popup | null>(null) };
  const { pending, fixedDrawn, popup } = refs;
  const [tool, setToolNow] = useState<Tool>('select');
  const [gis, setGis] = useState<'coords' | 'code' | null>(null);
  const removePopup = useCallback(() => popup.current?.remove(), [popup]);
  const map = useBasemap(container, removePopup);
  const save = useCallback((d: Drawing) => saveDrawn([...d.features(pending.current), ...fixedDrawn.current]), [saveDrawn, pending, fixedDrawn]);
  const openProperties = usePropertyPopup(refs, save);

  /** What the drawing's events do now (read by listeners made once per drawing). */
  const handlers = useRef<DrawingHandlers>({ created: () => {}, edited: () => {}, selected: () => {}, click: () => {} });
  const drawing = useDrawingLayer(map, state.catalogue, handlers);
  // Nothing is drawn while a project loads or an algorithm runs, or without write rights.
  const frozen = !canWrite || !project || busy === 'processing' || busy === 'loading';
  const removing = useRemoval(map, drawing, state, tool === 'remove' && !frozen, save);
  useEffect(() => {
    handlers.current = {
      created(id) {
        if (!drawing || !map) return;
        // A zone circle under the smallest catchment (a slip of the finger) is not kept: the server would refuse the save.
        const radius = drawing.zoneRadius(id);
        const min = state.catalogue?.zone_min_radius;
        if (radius !== null && min !== undefined && radius < min) {
          drawing.remove([id]);
          notify('error', zoneTooSmall(radius, min));
          return;
        }
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
        if (drawing && tool === 'remove' && canWrite && !busy) removing.offer(drawing, at);
      },
    };
  });
  const hovered = useServerLayers(map, drawing, state, refs);
  // Names on the map follow the project as last saved (a save does not reload the drawing).
  useEffect(() => {
    if (map) showNames(map, [...(project?.drawn_feature_collection.features ?? []), ...(project?.general_feature_collection.features ?? [])]);
  }, [map, project]);
  // Old zones under the smallest radius, marked as the server holds them (small-zones.ts).
  const zoneMin = state.catalogue?.zone_min_radius;
  useEffect(() => (map ? showSmallZones(map, project?.drawn_feature_collection.features ?? [], zoneMin) : undefined), [map, project, zoneMin]);

  // The tool in use (a new one drops what «Удалить объект» offered).
  const { cancel: cancelRemoval } = removing;
  const setTool = useCallback(
    (next: Tool) => {
      cancelRemoval();
      setToolNow(next);
    },
    [cancelRemoval],
  );
  useEffect(() => {
    if (!drawing) return;
    drawing.setTool(frozen ? 'view' : tool);
    if (tool === 'remove') popup.current?.remove();
  }, [drawing, tool, frozen, popup]);

  const onGisBuilt = useCallback(
    (found: MapFeatureCollection) => {
      if (!drawing || !map) return;
      setGis(null);
      const ids = drawing.add(found.features);
      if (ids.length < found.features.length) notify('error', 'Часть участков не удалось нарисовать: многоугольник с дырами или самопересечением');
      if (ids.length === 0) return;
      ids.forEach((id) => pending.current.add(id));
      const box = bounds(found.features);
      if (box) fitClear(map, box);
      void openProperties(drawing, map, ids, true);
    },
    [drawing, map, openProperties, pending],
  );
  const closeGis = useCallback(() => setGis(null), []);
  const closePopup = () => {
    popup.current?.remove();
    popup.current = null;
  };
  /** «Весь проект»: the drawing as last saved, clear of the info box. */
  const showAll = () => {
    const box = project ? bounds([...project.drawn_feature_collection.features, ...project.general_feature_collection.features]) : null;
    if (map && box) fitClear(map, box);
  };

  return { map, drawing, tool, setTool, gis, setGis, closeGis, onGisBuilt, hovered, closePopup, showAll, removing };
}
