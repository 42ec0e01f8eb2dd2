import { useMemo, useState } from 'react';
import type { MapFeatureType, MapProject } from '../../api/types';
import { CrsControl } from './CrsControl';
import { isSmallZone } from './small-zones';
import type { MapProjectState } from './useMapProject';

const COUNTED: Array<{ type: MapFeatureType; label: string }> = [
  { type: 'area', label: 'Территории' },
  { type: 'road', label: 'Дороги' },
  { type: 'block', label: 'Кварталы' },
  { type: 'zone', label: 'Зоны' },
  { type: 'object', label: 'Объекты' },
];

/** Whether the box is open, kept for the browser tab's session (docs/map.md «Сведения о проекте»). */
const OPEN_KEY = 'norma.map.info-open';

function readOpen(): boolean {
  try {
    return sessionStorage.getItem(OPEN_KEY) === '1';
  } catch {
    return false;
  }
}

function writeOpen(open: boolean) {
  try {
    sessionStorage.setItem(OPEN_KEY, open ? '1' : '0');
  } catch {
    /* storage refused (private mode): the choice lasts until the screen closes */
  }
}

function countByType(project: MapProject) {
  const counts = Object.fromEntries(COUNTED.map((c) => [c.type, 0])) as Record<MapFeatureType, number>;
  for (const f of [...project.drawn_feature_collection.features, ...project.general_feature_collection.features]) counts[f.properties.type] += 1;
  return counts;
}

/**
 * The project info (bottom left, issue 46): one line by default — the name, how many features and
 * «Весь проект»; «Подробнее» opens the counts by type and the coordinate reference. Open or closed is
 * remembered for the session. It sits under popups (map.css) and `fitPadding` keeps fitted
 * drawings out from under it.
 */
export function MapInfo({ state, canWrite, onShowAll }: { state: MapProjectState; canWrite: boolean; onShowAll: () => void }) {
  const { project, busy } = state;
  const counts = useMemo(() => (project ? countByType(project) : null), [project]);
  const [open, setOpen] = useState(readOpen);
  const toggle = () => {
    writeOpen(!open);
    setOpen(!open);
  };
  const total = counts ? Object.values(counts).reduce((a, b) => a + b, 0) : 0;
  const min = state.catalogue?.zone_min_radius;
  const small = useMemo(
    () => (project && min !== undefined ? project.drawn_feature_collection.features.filter((f) => isSmallZone(f, min)).length : 0),
    [project, min],
  );
  return (
    <div className={`map-info${open ? ' open' : ''}`} data-testid="map-info" aria-label="Сведения о проекте" role="group">
      {project && counts ? (
        <>
          <div className="map-info-line">
            <strong data-testid="map-project-name" title={project.name}>
              {project.name}
            </strong>
            <span className="map-info-total" data-testid="map-count-total">
              {total} об.
            </span>
            <button type="button" className="map-info-button" disabled={total === 0} title="Показать весь проект" onClick={onShowAll}>
              Весь проект
            </button>
            <button type="button" className="map-info-button" aria-expanded={open} aria-controls="map-info-details" onClick={toggle}>
              {open ? 'Свернуть' : 'Подробнее'}
            </button>
          </div>
          {small > 0 && (
            // The legend of the map's dashed outline: shown whenever the project has such zones, the box open or not.
            <p className="map-small-zones" data-testid="map-small-zones">
              <span className="map-small-zone-swatch" aria-hidden="true" />
              Пунктир — зона меньше {min} м ({small}), сохранённая до правила: перерисуйте
            </p>
          )}
          {/* Closed, the details stay in the page, hidden: opening them again loses nothing typed or chosen. */}
          <div id="map-info-details" className="map-info-details" hidden={!open}>
            <ul>
              {COUNTED.map((c) => (
                <li key={c.type}>
                  {c.label}: <span data-testid={`map-count-${c.type}`}>{counts[c.type]}</span>
                </li>
              ))}
            </ul>
            <CrsControl project={project} canWrite={canWrite} busy={busy !== null} onPick={state.setCrs} />
          </div>
        </>
      ) : (
        state.projects && <span>Проектов нет{canWrite ? ': создайте проект в меню (+)' : ''}</span>
      )}
    </div>
  );
}
