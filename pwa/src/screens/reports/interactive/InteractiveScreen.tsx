import { useVirtualizer } from '@tanstack/react-virtual';
import { loadFarFromNorm, type FarFromNorm } from '../../norms/NormFulfilment';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { api, type ApiInit } from '../../../api/client';
import type { ExportTable } from '../../../export/table';
import { formatDateTime, formatSeconds, formatTime, localDate } from '../../../format/time';
import { notify } from '../../../status/notifications';
import { INTERACTIVE_TABLE_EXTRA_PX } from '../constants';
import { ExportButtons } from '../ExportButtons';
import { hms, instantParam, num } from '../format';
import type { FrvItem, InteractiveFrv, ResolvedShare, VideoSegment } from '../types';
import { ReportState } from '../ReportState';
import { useLoad } from '../useLoad';
import { SharePanel } from './SharePanel';
import { dropServerSnapshot } from '../../../ui/serverSnapshot';
import { computeInteractiveFrv } from '../../../reports-core/compute';
import '../reports.css';

/** The file and seconds the player shows for an item: the chosen camera's first file, else any camera's. */
export function segmentFor(item: FrvItem, cameraKey: number | null): VideoSegment | null {
  return item.video_segments.find((s) => s.camera_key === cameraKey) ?? item.video_segments[0] ?? null;
}

function videoUrl(videoId: number, shareKey?: string) {
  return `/api/v1/video?video_id=${videoId}${shareKey ? `&key=${encodeURIComponent(shareKey)}` : ''}`;
}

/**
 * Estimated row heights, px, before a row is measured: a table row at a computer's width, a card
 * of «column: value» lines on a phone (reports.css, max-width 640px). Rows are measured only when
 * they are built, as they come into view; the estimate only has to be near for the scrollbar.
 */
const ROW_HEIGHT = 52;
const CARD_HEIGHT = 96;
/** Rows built beyond the visible ones on either side. */
const OVERSCAN = 4;

interface Props {
  frv: InteractiveFrv;
  structureId: number;
  from: string;
  to: string;
  /** Opened by a share key: read-only, the key goes with every frv and video request. */
  shareKey?: string;
  /** Cycles far from the norm in force (not asked for a shared report). */
  farFromNorm?: FarFromNorm;
}

/**
 * The interactive report (spec 01): the player beside the work-day photography table. The
 * operation button plays the segment from its start, in whichever camera and file holds it
 * (GET /api/v2/frv maps every segment onto every covering file via video_segments).
 */
export function InteractiveReport({ frv, structureId, from, to, shareKey, farFromNorm }: Props) {
  const zone = frv.time_zone;
  const types = new Map(frv.operation_types.map((t) => [t.code, t]));
  // Cycles far from the norm in force (docs/norms.md); a shared (key) report has none.
  const far = farFromNorm?.cycles ?? new Map<number, number>();
  const cameras = useMemo(() => [...new Set(frv.items.flatMap((i) => i.video_segments.map((s) => s.camera_key)))].sort((a, b) => a - b), [frv]);
  const employees = useMemo(() => [...new Set(frv.items.map((i) => i.employee_name ?? ''))].filter(Boolean).sort(), [frv]);
  const [cameraKey, setCameraKey] = useState<number | null>(cameras[0] ?? null);
  const [employee, setEmployee] = useState('');
  const [onlyWithVideo, setOnlyWithVideo] = useState(false);
  const [selected, setSelected] = useState<number | null>(null);
  const [video, setVideo] = useState<VideoSegment | null>(() => {
    const first = frv.items.find((i) => i.video_segments.length > 0);
    return first ? segmentFor(first, cameras[0] ?? null) : null;
  });
  const pendingSeek = useRef<number | null>(null);
  const player = useRef<HTMLVideoElement>(null);
  const videoBox = useRef<HTMLDivElement>(null);
  const [videoHeight, setVideoHeight] = useState(360);
  const scroller = useRef<HTMLDivElement>(null);
  const multiDay = localDate(frv.requested_slot.fromm, zone) !== localDate(Date.parse(frv.requested_slot.to) - 1, zone);
  const when = (iso: string) => (multiDay ? `${formatDateTime(iso, zone).slice(0, 5)} ${formatTime(iso, zone)}` : formatTime(iso, zone));

  const rows = useMemo(
    () => frv.items.filter((i) => (!employee || i.employee_name === employee) && (!onlyWithVideo || i.video_segments.length > 0)),
    [frv, employee, onlyWithVideo],
  );

  useEffect(() => {
    const box = videoBox.current;
    if (!box) return;
    const observer = new ResizeObserver(() => setVideoHeight(box.getBoundingClientRect().height));
    observer.observe(box);
    return () => observer.disconnect();
  }, []);

  // The table opens at the first row a camera recorded (a day's first rows often have no footage),
  // and again whenever the filter changes the rows. The first screen is built right there: the
  // list starts at that row's estimated offset (no rows above it are built or measured), and rows
  // measured later above the view move the scroll position by their difference, so that row stays
  // at the top without a scroll-and-measure loop.
  const firstWithFootage = rows.findIndex((i) => i.video_segments.length > 0);
  const [rowHeight] = useState(() => (typeof window.matchMedia === 'function' && window.matchMedia('(max-width: 640px)').matches ? CARD_HEIGHT : ROW_HEIGHT));
  const virtual = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    overscan: OVERSCAN,
    initialOffset: () => Math.max(0, firstWithFootage) * rowHeight,
    initialRect: { width: 0, height: videoHeight + INTERACTIVE_TABLE_EXTRA_PX },
  });
  // Before the first paint, and once per change of the rows: one scroll to an offset (an index
  // target would be chased frame after frame as the rows measure). The list reads the element's
  // position when it attaches, so the first render's offset alone does not hold.
  useLayoutEffect(() => {
    virtual.scrollToOffset(firstWithFootage > 0 ? (virtual.getOffsetForIndex(firstWithFootage, 'start')?.[0] ?? 0) : 0);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [rows, firstWithFootage]);

  const seekTo = (seconds: number) => {
    const el = player.current;
    if (!el) return;
    el.currentTime = seconds;
    void el.play().catch(() => {});
  };

  const show = (segment: VideoSegment) => {
    if (segment.camera_key !== cameraKey) setCameraKey(segment.camera_key);
    if (video?.video_id === segment.video_id && player.current && player.current.readyState >= 1) {
      setVideo(segment);
      seekTo(segment.video_segment.start);
    } else {
      pendingSeek.current = segment.video_segment.start;
      setVideo(segment);
    }
  };

  const jump = (item: FrvItem) => {
    setSelected(item.id);
    // The player stays in view: on a phone it sits above the table and may have scrolled away.
    const box = videoBox.current?.getBoundingClientRect();
    if (box && (box.top < 0 || box.bottom > window.innerHeight)) videoBox.current!.scrollIntoView({ block: 'start', behavior: 'smooth' });
    const segment = segmentFor(item, cameraKey);
    if (!segment) {
      notify('info', `Операция № ${item.number} «${item.operation_name}» не попала ни на одну запись камер`);
      return;
    }
    show(segment);
  };

  const chooseCamera = (key: number) => {
    setCameraKey(key);
    const item = frv.items.find((i) => i.id === selected) ?? frv.items.find((i) => i.video_segments.some((s) => s.camera_key === key));
    const segment = item?.video_segments.find((s) => s.camera_key === key);
    if (segment) show(segment);
  };

  const exportTable = (): ExportTable => ({
    title: 'Фотография рабочего дня',
    columns: ['№', 'Операция', 'Сотрудник', 'Рабочее место', 'Тип', 'Начало', 'Конец', 'Длительность, с', 'Файл', 'Начало в видео, с', 'Конец в видео, с'],
    rows: rows.map((i) => {
      const s = segmentFor(i, cameraKey);
      return [
        i.number,
        i.operation_name,
        i.employee_name,
        i.workplace_name,
        types.get(i.operation_type)?.label ?? i.operation_type,
        when(i.time_slot.fromm),
        when(i.time_slot.to),
        i.duration,
        s?.filename ?? null,
        s?.video_segment.start ?? null,
        s?.video_segment.end ?? null,
      ];
    }),
  });

  return (
    <div className="interactive" data-testid="interactive-report">
      <header className="report-title interactive-head">
        <div>
          <h1>{`Интерактивный отчёт: ${frv.structure.name}`}</h1>
          <p
            className="muted"
            data-testid="interactive-period"
          >{`${formatDateTime(frv.requested_slot.fromm, zone)} — ${formatDateTime(frv.requested_slot.to, zone)}`}</p>
          {shareKey && <p className="badge">Просмотр по ссылке: только чтение</p>}
        </div>
        {!shareKey && <SharePanel structureId={structureId} from={from} to={to} />}
      </header>
      <div className="interactive-body">
        <div className="interactive-player">
          <div ref={videoBox} className="interactive-video-box">
            {video ? (
              <video
                ref={player}
                key="player"
                src={videoUrl(video.video_id, shareKey)}
                controls
                muted
                playsInline
                preload="metadata"
                data-testid="interactive-video"
                data-video-id={video.video_id}
                onLoadedMetadata={() => {
                  if (pendingSeek.current !== null) {
                    const seconds = pendingSeek.current;
                    pendingSeek.current = null;
                    seekTo(seconds);
                  }
                }}
              />
            ) : (
              <div className="no-footage">Записей камер за это окно нет</div>
            )}
          </div>
          <div className="interactive-controls">
            {cameras.length > 0 && (
              <div className="speeds" role="group" aria-label="Камера">
                {cameras.map((key) => (
                  <button
                    key={key}
                    type="button"
                    className={key === cameraKey ? 'speed active' : 'speed'}
                    aria-pressed={key === cameraKey}
                    onClick={() => chooseCamera(key)}
                  >
                    {`Камера ${key}`}
                  </button>
                ))}
              </div>
            )}
            {video && (
              <span className="muted small" data-testid="video-file">
                {video.filename}
              </span>
            )}
          </div>
        </div>
        <section className="interactive-table">
          <div className="report-table-head">
            <h2>Фотография рабочего дня</h2>
            <ExportButtons table={exportTable} fileBase={`Интерактивный отчёт ${frv.structure.name}`} />
          </div>
          <div className="row interactive-filters">
            {employees.length > 1 && (
              <label>
                Сотрудник
                <select value={employee} onChange={(e) => setEmployee(e.target.value)}>
                  <option value="">все</option>
                  {employees.map((name) => (
                    <option key={name} value={name}>
                      {name}
                    </option>
                  ))}
                </select>
              </label>
            )}
            <label className="inline">
              <input type="checkbox" checked={onlyWithVideo} onChange={(e) => setOnlyWithVideo(e.target.checked)} />
              только с видео
            </label>
            <span className="muted small" data-testid="frv-count">
              {`Строк: ${rows.length}`}
              {firstWithFootage > 0 && ` · с видео начиная с № ${rows[firstWithFootage]!.number}; строки без записи камер отмечены «нет видео»`}
            </span>
            {farFromNorm?.error && (
              <span className="muted small" data-testid="far-from-norm-error">{`Выполнение норм не загрузилось: ${farFromNorm.error}`}</span>
            )}
          </div>
          <div ref={scroller} className="frv-scroll" style={{ height: videoHeight + INTERACTIVE_TABLE_EXTRA_PX }} data-testid="frv-scroll">
            {/* Fixed layout (the rows come and go as the table scrolls, the columns must not move): the
                times have the width they need, the operation takes the rest and wraps between words. */}
            <table className="data-table compact frv-table" data-testid="frv-table">
              <colgroup>
                {FRV_COLUMNS.map(([, kind], i) => (
                  <col key={i} className={`frv-col-${kind}`} />
                ))}
              </colgroup>
              <thead>
                <tr>
                  {FRV_COLUMNS.map(([title]) => (
                    <th key={title}>{title}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {virtual.getVirtualItems().length > 0 && <tr style={{ height: virtual.getVirtualItems()[0]!.start }} aria-hidden />}
                {virtual.getVirtualItems().map((v) => {
                  const item = rows[v.index]!;
                  const type = types.get(item.operation_type);
                  const segment = segmentFor(item, cameraKey);
                  return (
                    <tr
                      key={item.id}
                      ref={virtual.measureElement}
                      data-index={v.index}
                      className={
                        [item.id === selected ? 'selected' : '', segment ? '' : 'frv-no-footage', far.has(item.id) ? 'frv-far-from-norm' : '']
                          .join(' ')
                          .trim() || undefined
                      }
                      data-testid="frv-row"
                      data-item-id={item.id}
                      data-footage={segment ? 'yes' : 'no'}
                    >
                      <td data-label="№">{item.number}</td>
                      <td className="frv-op">
                        <button
                          type="button"
                          className="link-button op-jump"
                          onClick={() => jump(item)}
                          title={segment ? `${segment.filename}, с ${formatSeconds(segment.video_segment.start)}` : 'нет записи'}
                        >
                          {item.operation_name}
                        </button>
                        {!segment && (
                          <span className="no-footage-mark" data-testid="no-footage">
                            нет видео
                          </span>
                        )}
                        {far.has(item.id) && (
                          <span className="far-from-norm-mark" data-testid="far-from-norm">
                            далеко от нормы ({far.get(item.id)! > 0 ? '+' : ''}
                            {num(far.get(item.id)!, 0)} %)
                          </span>
                        )}
                        {item.employee_name && <div className="muted small">{item.employee_name}</div>}
                      </td>
                      <td className="frv-type">
                        <span className="swatch" style={{ background: type?.color }} /> {type?.label ?? item.operation_type}
                      </td>
                      <td data-label="с">{when(item.time_slot.fromm)}</td>
                      <td data-label="по">{when(item.time_slot.to)}</td>
                      <td className="num" data-label="длит.">
                        {hms(item.duration)}
                      </td>
                      <td className="num" data-testid="video-start" data-label="видео с">
                        {segment ? formatSeconds(segment.video_segment.start) : '—'}
                      </td>
                      <td className="num" data-label="по">
                        {segment ? formatSeconds(segment.video_segment.end) : '—'}
                      </td>
                    </tr>
                  );
                })}
                {virtual.getVirtualItems().length > 0 && (
                  <tr style={{ height: virtual.getTotalSize() - virtual.getVirtualItems()[virtual.getVirtualItems().length - 1]!.end }} aria-hidden />
                )}
              </tbody>
            </table>
            {rows.length === 0 && <p className="muted">В этом окне нет размеченных операций.</p>}
          </div>
        </section>
      </div>
    </div>
  );
}

/**
 * Interactive table columns: header and width class (reports.css). «Длительность» may break only at
 * its soft hyphen («Длитель-ность»), never inside a syllable.
 */
const FRV_COLUMNS = [
  ['№', 'num'],
  ['Операция', 'op'],
  ['Тип', 'type'],
  ['Начало', 'time'],
  ['Конец', 'time'],
  ['Длитель\u00adность', 'time'],
  ['Начало в видео', 'time'],
  ['Конец в видео', 'time'],
] as const;

// The route names its key `shareKey`: React keeps a prop named `key` to itself.
type Params = { structureId?: string; from?: string; to?: string; shareKey?: string };

/** /interactive/{structureId}/{from}/{to}: for signed-in users, with the share button. */
export function InteractiveScreen(params: Params) {
  const structureId = Number(params.structureId);
  const from = instantParam(params.from);
  const to = instantParam(params.to);
  const valid = structureId > 0 && from !== null && to !== null;
  const loaded = useLoad(valid ? `${structureId}/${from}/${to}` : null, async () => {
    const [frv, farFromNorm] = await Promise.all([computeInteractiveFrv({ structureId, from: from!, to: to! }), loadFarFromNorm(structureId, from!, to!)]);
    return { frv, farFromNorm };
  });
  const title = 'Интерактивный отчёт';
  if (!valid) return <ReportState title={title} error="Неверный адрес отчёта: нужны структурная единица и моменты начала и конца (ISO 8601)." />;
  if (loaded.state === 'loading') return <ReportState title={title} loading="Загружаем интерактивный отчёт…" />;
  if (loaded.state === 'error') return <ReportState title={title} error={`Не удалось загрузить отчёт: ${loaded.message}`} />;
  return <InteractiveReport frv={loaded.data.frv} farFromNorm={loaded.data.farFromNorm} structureId={structureId} from={from!} to={to!} />;
}

interface EarlySharedReport {
  key: string;
  share: ResolvedShare;
  frv: InteractiveFrv;
}

/** The id of the JSON data block in which the server sends a shared report with its page (api/src/report/share-page.ts). */
const SHARED_REPORT_DATA_ID = 'norma-shared-report';

/**
 * The report the page came with (the link /demo/{key}: api/src/report/share-page.ts) or the reads
 * index.html's route-preload script started for a /#/demo/{key} visit before the app's JS came
 * (pwa/vite.config.ts, routePreload): taken once, for this key only; null when there are none
 * or they failed, and the screen reads as usual.
 */
async function takeEarlySharedReport(key: string): Promise<{ share: ResolvedShare; frv: InteractiveFrv } | null> {
  const block = document.getElementById(SHARED_REPORT_DATA_ID);
  if (block) {
    block.remove();
    try {
      const inPage = JSON.parse(block.textContent ?? '') as EarlySharedReport;
      if (inPage.key === key) return { share: inPage.share, frv: inPage.frv };
    } catch {
      // Not JSON: read as usual.
    }
  }
  const holder = window as { __normaSharedReport?: Promise<EarlySharedReport | null> };
  const early = holder.__normaSharedReport;
  if (!early) return null;
  delete holder.__normaSharedReport;
  const result = await early.catch(() => null);
  return result && result.key === key ? { share: result.share, frv: result.frv } : null;
}

/** /demo/{key}: the same report opened by a share key, without a login, read-only. */
export function SharedInteractiveScreen(params: Params) {
  const key = params.shareKey ?? '';
  // A key is base64url of at least 128 bits; anything shorter is no key (and is not sent anywhere).
  const wellFormed = /^[A-Za-z0-9_-]{22,128}$/.test(key);
  const loaded = useLoad(wellFormed ? `share/${key}` : null, async () => {
    const early = await takeEarlySharedReport(key);
    if (early) return early;
    const share = await api.get('/api/v1/resolve_hash/{key}', { path: { key } });
    const frv = await api.get('/api/v2/frv', {
      // `key` is read by the access check (a shared link), not by the route's query schema.
      query: { structure_id: share.structure_id, from_time: share.from_time, to_time: share.to_time, key } as ApiInit<'/api/v2/frv', 'get'>['query'],
    });
    return { share, frv };
  });
  // The page's server-rendered first screen (/demo/{key}) gives way once this screen has rendered its own.
  useLayoutEffect(() => {
    if (!wellFormed || loaded.state !== 'loading') dropServerSnapshot();
  }, [wellFormed, loaded.state]);
  const title = 'Интерактивный отчёт';
  if (!wellFormed) return <ReportState title={title} error="Ссылка недействительна: в ней нет ключа доступа." />;
  if (loaded.state === 'loading') return <ReportState title={title} loading="Открываем отчёт по ссылке…" />;
  if (loaded.state === 'error') return <ReportState title={title} error={`Отчёт по этой ссылке не открывается: ${loaded.message}`} />;
  const { share, frv } = loaded.data;
  return <InteractiveReport frv={frv} structureId={share.structure_id} from={share.from_time} to={share.to_time} shareKey={key} />;
}
