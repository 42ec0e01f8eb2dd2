import { useState } from 'react';
import { ApiCallError } from '../../api/client';
import type { MapProject, MapProjectCrsSetBody } from '../../api/types';
import { Banner } from '../../ui/Banner';

type Kind = MapProjectCrsSetBody['kind'];

/** Short Russian labels; the zone comes from the server's name of that reference. */
function optionLabel(option: MapProject['crs_options'][number]) {
  return option.kind === 'local' ? 'Местная (центр первого рисунка)' : option.name;
}

/**
 * The project's coordinate reference (issue 27; docs/map.md «Система координат проекта»): shown to
 * everyone; an analyst picks it here — local, СК-42 or UTM zone of the project's anchor. A refusal
 * keeps the server's reason beside the select (the API client shows it as a message too).
 */
export function CrsControl({
  project,
  canWrite,
  busy,
  onPick,
}: {
  project: MapProject;
  canWrite: boolean;
  busy: boolean;
  onPick: (kind: Kind) => Promise<void>;
}) {
  const [error, setError] = useState<string | null>(null);
  const crs = project.crs;

  async function pick(kind: Kind) {
    setError(null);
    try {
      await onPick(kind);
    } catch (failure) {
      setError(failure instanceof ApiCallError ? failure.message : String(failure));
    }
  }

  return (
    <div className="map-crs-block">
      <p className="map-crs" data-testid="map-crs" title={crs?.definition}>
        Координаты чертежа: {crs ? crs.name : 'задаются первым рисунком'}
      </p>
      {canWrite && crs && project.crs_options.length > 0 && (
        <label className="map-crs-pick">
          Система координат
          <select value={crs.kind} disabled={busy} onChange={(e) => void pick(e.target.value as Kind)}>
            {project.crs_options.map((option) => (
              <option key={option.kind} value={option.kind}>
                {optionLabel(option)}
              </option>
            ))}
          </select>
          <small>В ней выгружаются чертежи DWG и DXF и файл .prj.</small>
        </label>
      )}
      <Banner text={error} />
    </div>
  );
}
