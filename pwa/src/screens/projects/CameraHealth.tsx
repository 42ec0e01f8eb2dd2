import { useEffect, useState } from 'react';
import { api } from '../../api/client';
import type { StructureHealth } from '../../api/types';

/**
 * Camera health on the projects page (issue 45, docs/live-cameras.md «Здоровье и тревоги»): for the
 * chosen structure — how many stream cameras are online, their frame rates, and every alert (offline too long, recorder
 * behind, disk near full) in Russian. Nothing when the structure has no stream camera and the disk is fine.
 */

/** How often the badge asks again, ms. */
const REFRESH_MS = 30_000;

/** «25 к/с», «12,5 к/с»: frames a second in Russian, to a tenth. */
const frameRateText = (rate: number) => `${String(Math.round(rate * 10) / 10).replace('.', ',')} к/с`;

/** Draws only: the counts, the streams' frame rates and the alerts, or why they could not be read. */
export function CameraHealthView({ health, error }: { health: StructureHealth | null; error: string | null }) {
  if (error) return <p className="camera-health muted small">Состояние камер не загружено: {error}</p>;
  if (!health || (health.cameras.length === 0 && health.alerts.length === 0)) return null;
  const enabled = health.cameras.filter((c) => c.enabled);
  const online = enabled.filter((c) => c.state === 'online').length;
  // The stream's frame rate the recorder measured, for the enabled cameras that have one.
  const rates = enabled.filter((c) => c.frame_rate !== null);
  return (
    <div className="camera-health" data-testid="camera-health" role="status">
      <span className={`badge ${health.alerts.length > 0 ? 'damaged' : 'done'}`}>
        Камеры по потоку: в сети {online} из {enabled.length}
        {health.alerts.length === 0 ? ' — тревог нет' : ` — тревог: ${health.alerts.length}`}
      </span>
      {rates.length > 0 && (
        <p className="small muted" data-testid="camera-frame-rates">
          Частота кадров: {rates.map((c) => `${c.camera_name} — ${frameRateText(c.frame_rate!)}`).join(', ')}
        </p>
      )}
      {health.alerts.length > 0 && (
        <ul className="small">
          {health.alerts.map((a, i) => (
            <li key={`${a.kind}-${i}`}>{a.message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The badge with its call: the structure's camera health, read again every REFRESH_MS. */
export function CameraHealthBadge({ structureId }: { structureId: number }) {
  const [health, setHealth] = useState<StructureHealth | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let alive = true;
    const load = () =>
      api.get('/api/v1/structure/{id}/camera_health', { path: { id: structureId }, quiet: true }).then(
        (reply) => {
          if (!alive) return;
          setHealth(reply);
          setError(null);
        },
        (err: Error) => alive && setError(err.message),
      );
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => {
      alive = false;
      clearInterval(timer);
    };
  }, [structureId]);
  return <CameraHealthView health={health} error={error} />;
}
