import { useMemo, useState } from 'react';
import { Link } from 'wouter';
import type { EventFigures, EventZone } from '../../api/types';
import { saveBlob, safeFileName } from '../../export/download';
import { toCsv } from '../../export/table';
import { figuresTables, type HallCamera, momentText, secondsText, visitVideo, zoneRoleName } from '../../state/eventAnalytics';
import { CameraFrame, FrameHeat } from './CameraFrame';
import { PlanView, planBounds } from './PlanView';
import { TimeChart } from './TimeChart';

type Seen = Parameters<typeof visitVideo>[1];

/** A moment as text, linked to the video screen at that second of the video that saw it (the camera's video playing then, if the API named none). */
function Moment({ cameras, seen, t }: { cameras: readonly HallCamera[]; seen: Seen; t: number }) {
  const at = visitVideo(cameras, seen, t);
  const text = momentText(t);
  return at ? <Link href={`/video/${at.videoId}/${at.second}`}>{text}</Link> : <>{text}</>;
}

/** A zone's visits, each opening the video at its start: the longest ones when the API listed fewer than all. */
function Visits({ dwell, cameras }: { dwell: EventFigures['dwell'][number]; cameras: readonly HallCamera[] }) {
  const listed = dwell.visit_moments;
  if (listed.length === 0) return <>—</>;
  return (
    <details data-testid="dwell-visits">
      <summary>{listed.length < dwell.visits ? `${listed.length} самых долгих из ${dwell.visits}` : `Визиты: ${listed.length}`}</summary>
      <ul>
        {listed.map((v) => (
          <li key={`${v.track_id}:${v.start}`} data-testid="dwell-visit">
            <Moment cameras={cameras} seen={v} t={v.start} /> — {secondsText(v.seconds)}
          </li>
        ))}
      </ul>
    </details>
  );
}

function Tiles({ figures }: { figures: EventFigures }) {
  const names = (list: EventFigures['stands']['most_popular']) => (list.length ? list.map((s) => `${s.name} (${s.visitors})`).join(', ') : '—');
  const peak = figures.peak_occupancy;
  return (
    <div className="event-tiles">
      <div className="event-tile" data-testid="tile-visitors">
        <span className="muted small">Посетителей</span>
        <strong>{figures.visitors}</strong>
      </div>
      <div className="event-tile" data-testid="tile-peak">
        <span className="muted small">Пик заполненности</span>
        <strong>{peak ? peak.people : '—'}</strong>
        {peak && <span className="small">{momentText(peak.t)}</span>}
      </div>
      <div className="event-tile">
        <span className="muted small">Самый популярный стенд</span>
        <strong>{names(figures.stands.most_popular)}</strong>
      </div>
      <div className="event-tile">
        <span className="muted small">Самый непопулярный стенд</span>
        <strong>{names(figures.stands.least_popular)}</strong>
      </div>
    </div>
  );
}

function DwellTable({ figures, cameras }: { figures: EventFigures; cameras: readonly HallCamera[] }) {
  const bins = figures.dwell[0]?.histogram.map((h) => h.label) ?? [];
  return (
    <div className="table-scroll">
      <table data-testid="dwell-table">
        <thead>
          <tr>
            {['Зона', 'Роль', 'Визитов', 'Посетителей', 'Время визитов', 'Всё время внутри', 'Медиана', '90-й процентиль', ...bins, 'Визиты на видео'].map(
              (t) => (
                <th key={t}>{t}</th>
              ),
            )}
          </tr>
        </thead>
        <tbody>
          {figures.dwell.map((d) => (
            <tr key={String(d.zone_id)} data-testid="dwell-row">
              <td>{d.name}</td>
              <td>{zoneRoleName(d.role)}</td>
              <td>{d.visits}</td>
              <td>{d.visitors}</td>
              <td>{secondsText(d.total_seconds)}</td>
              <td data-testid="dwell-inside">{secondsText(d.inside_seconds)}</td>
              <td>{secondsText(d.median_seconds)}</td>
              <td>{secondsText(d.p90_seconds)}</td>
              {d.histogram.map((h) => (
                <td key={h.label}>{h.count}</td>
              ))}
              <td>
                <Visits dwell={d} cameras={cameras} />
              </td>
            </tr>
          ))}
          {figures.dwell.length === 0 && (
            <tr>
              <td colSpan={9 + bins.length} className="muted">
                Зон нет: добавьте зоны зала ниже.
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

function SafeEntries({ figures, cameras }: { figures: EventFigures; cameras: readonly HallCamera[] }) {
  const rows = figures.safe_zone_entries.flatMap((z) => z.entries.map((e) => ({ zone: z.name, ...e })));
  if (rows.length === 0) return <p className="muted">Входов в безопасные зоны нет.</p>;
  return (
    <div className="table-scroll">
      <table data-testid="safe-table">
        <thead>
          <tr>
            {['Зона', 'Вход', 'Выход', 'Внутри', 'Глубина'].map((t) => (
              <th key={t}>{t}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((e) => (
            <tr key={`${e.zone}:${e.track_id}:${e.entry}`}>
              <td>{e.zone}</td>
              <td>
                <Moment cameras={cameras} seen={e} t={e.entry} />
              </td>
              <td>{momentText(e.exit)}</td>
              <td>{secondsText(e.seconds_inside)}</td>
              <td>{e.deepest.depth_metres.toLocaleString('ru-RU', { maximumFractionDigits: 2 })} м</td>
            </tr>
          ))}
        </tbody>
      </table>
      {figures.safe_zone_entries
        .filter((z) => z.entries_total > z.entries.length)
        .map((z) => (
          <p key={String(z.zone_id)} className="muted small">
            {z.name}: показаны первые {z.entries.length} из {z.entries_total} входов — сократите окно, чтобы увидеть остальные.
          </p>
        ))}
    </div>
  );
}

function FrameHeatMaps({ figures, cameras }: { figures: EventFigures; cameras: readonly HallCamera[] }) {
  return (
    <div className="event-frames">
      {figures.frame_heat_maps.map(({ camera_id, grid }) => {
        const camera = cameras.find((c) => c.id === camera_id);
        const video = camera?.videos.find((v) => v.tracking?.finished?.frame_width) ?? camera?.videos[0];
        if (!camera || !video) return null;
        const tracked = video.tracking?.finished;
        return (
          <figure key={camera_id} className="event-frame-figure">
            <figcaption>{camera.name}</figcaption>
            <CameraFrame videoId={video.id}>
              {(size) => (
                <FrameHeat
                  grid={grid}
                  size={size}
                  frame={tracked?.frame_width && tracked.frame_height ? { width: tracked.frame_width, height: tracked.frame_height } : size}
                />
              )}
            </CameraFrame>
          </figure>
        );
      })}
    </div>
  );
}

function csv(figures: EventFigures, index: number, structureId: number) {
  const table = figuresTables(figures)[index]!;
  saveBlob(new Blob([toCsv(table)], { type: 'text/csv;charset=utf-8' }), `${safeFileName(`${table.title} ${structureId}`)}.csv`);
}

/** The figures of the window: tiles, heat maps, charts and tables with their CSV downloads. */
export function FiguresView({ figures, cameras, zones }: { figures: EventFigures; cameras: readonly HallCamera[]; zones: readonly EventZone[] }) {
  const [paths, setPaths] = useState(false);
  const bounds = useMemo(() => planBounds(figures.heat_map, zones), [figures.heat_map, zones]);
  const perMinute = useMemo(() => [figures.visitors_per_minute.map((m) => m.minute_start), figures.visitors_per_minute.map((m) => m.visitors)], [figures]);
  const occupancy = useMemo(() => [figures.occupancy.map((o) => o.t), figures.occupancy.map((o) => o.people)], [figures]);
  const uncalibrated = cameras.filter((c) => figures.uncalibrated_cameras.includes(c.id));
  return (
    <div className="event-figures" data-testid="event-figures">
      <Tiles figures={figures} />
      {uncalibrated.length > 0 && (
        <div className="banner banner-info" role="status" data-testid="uncalibrated">
          Камеры без калибровки:{' '}
          {uncalibrated.map((c, i) => (
            <span key={c.id}>
              {i > 0 && ', '}
              <span data-testid="uncalibrated-camera">{c.name}</span>
            </span>
          ))}
          . Их треки не входят в цифры плана — откалибруйте камеру ниже (четыре точки пола на кадре и на плане).
        </div>
      )}
      <section className="card">
        <h2>Тепловая карта зала</h2>
        <label className="inline">
          <input type="checkbox" checked={paths} onChange={(e) => setPaths(e.target.checked)} /> Показать пути
        </label>
        <PlanView bounds={bounds} heat={figures.heat_map} zones={zones} paths={paths ? figures.paths : []} />
        <h3>Тепловые карты на кадрах камер</h3>
        <FrameHeatMaps figures={figures} cameras={cameras} />
      </section>
      <section className="card event-charts">
        <TimeChart title="Посетители в минуту" x={perMinute[0]!} y={perMinute[1]!} series="Посетителей" testId="chart-per-minute" />
        <TimeChart title="Заполненность" x={occupancy[0]!} y={occupancy[1]!} series="Человек" testId="chart-occupancy" />
      </section>
      <section className="card">
        <h2>Время в зонах</h2>
        <DwellTable figures={figures} cameras={cameras} />
        <p className="muted small">«Время визитов» — сумма визитов; «Всё время внутри» — все секунды в зоне, и проходы, слишком короткие для визита.</p>
        <button type="button" className="button secondary small" onClick={() => csv(figures, 0, figures.structure_id)}>
          Скачать CSV
        </button>
        <h2>Популярные маршруты</h2>
        {figures.routes.popular.length === 0 ? (
          <p className="muted">Повторяющихся маршрутов из двух и больше зон нет.</p>
        ) : (
          <div className="table-scroll">
            <table data-testid="routes-table">
              <thead>
                <tr>
                  <th>Маршрут</th>
                  <th>Посетителей</th>
                </tr>
              </thead>
              <tbody>
                {figures.routes.popular.map((r) => (
                  <tr key={r.zones.join('>')}>
                    <td>{r.names.join(' → ')}</td>
                    <td>{r.count}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <button type="button" className="button secondary small" onClick={() => csv(figures, 1, figures.structure_id)}>
          Скачать CSV
        </button>
        <h2>Входы в безопасные зоны</h2>
        <SafeEntries figures={figures} cameras={cameras} />
        <button type="button" className="button secondary small" onClick={() => csv(figures, 2, figures.structure_id)}>
          Скачать CSV
        </button>
      </section>
    </div>
  );
}
