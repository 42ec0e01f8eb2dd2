import { useEffect, useState } from 'react';
import { api } from '../../api/client';
import type { EventFigures, SharedEventFigures } from '../../api/types';
import { Banner } from '../../ui/Banner';
import { ExportCard } from './ExportCard';
import { FiguresView } from './FiguresView';
import './event-analytics.css';
import './event-share.css';

/** Not a key (shorter than 128 bits of base64url or other characters): nothing is asked of the server. */
const INVALID_LINK = 'Ссылка недействительна или отозвана';

/**
 * The figures without their videos: a guest has no access to the hall's recordings, so a moment is
 * shown as text, not as a link to the video screen (which asks to sign in).
 */
function withoutVideos(figures: EventFigures): EventFigures {
  return {
    ...figures,
    dwell: figures.dwell.map((d) => ({ ...d, visit_moments: d.visit_moments.map((v) => ({ ...v, video_id: null, video_second: null })) })),
    safe_zone_entries: figures.safe_zone_entries.map((z) => ({ ...z, entries: z.entries.map((e) => ({ ...e, video_id: null, video_second: null })) })),
  };
}

type Loaded = { state: 'loading' } | { state: 'error'; message: string } | { state: 'ready'; data: SharedEventFigures };

/**
 * /event-share/{key} (issue 44, docs/event-analytics.md «Ссылка „поделиться“»): the figures of one hall
 * and window that an analyst shared, without a login and read-only — the tiles, heat map, paths, charts
 * and tables of the hall's screen and their CSV and PDF, but no cameras' videos, no tracking, calibration
 * or zone controls, nothing else of the organisation. A revoked or unknown key: the API's Russian refusal.
 */
export function SharedEventScreen({ shareKey }: { shareKey: string }) {
  const wellFormed = /^[A-Za-z0-9_-]{22,128}$/.test(shareKey);
  const [loaded, setLoaded] = useState<Loaded>(wellFormed ? { state: 'loading' } : { state: 'error', message: INVALID_LINK });
  useEffect(() => {
    if (!wellFormed) return setLoaded({ state: 'error', message: INVALID_LINK });
    let live = true;
    setLoaded({ state: 'loading' });
    // quiet: the screen says the refusal itself, in place of the figures.
    api.get('/api/v1/event/shared/{key}', { path: { key: shareKey }, quiet: true }).then(
      (data) => live && setLoaded({ state: 'ready', data: { ...data, figures: withoutVideos(data.figures) } }),
      (error: unknown) => live && setLoaded({ state: 'error', message: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      live = false;
    };
  }, [shareKey, wellFormed]);

  if (loaded.state !== 'ready')
    return (
      <section className="screen event-analytics">
        <h1>Аналитика мероприятия</h1>
        {loaded.state === 'loading' ? (
          <p className="muted" role="status">
            Загрузка цифр…
          </p>
        ) : (
          <Banner text={loaded.message} />
        )}
      </section>
    );
  const { data } = loaded;
  const window = `${new Date(data.from).toLocaleString('ru-RU')} — ${new Date(data.to).toLocaleString('ru-RU')}`;
  return (
    <section className="screen event-analytics" data-testid="shared-event">
      <h1>Аналитика мероприятия</h1>
      <p>
        <strong data-testid="shared-hall">{data.structure_name}</strong>
        <span className="muted"> · {window} · только просмотр</span>
      </p>
      <FiguresView figures={data.figures} cameras={[]} zones={data.zones} />
      <ExportCard figures={data.figures} zones={data.zones} hall={data.structure_name} />
    </section>
  );
}
