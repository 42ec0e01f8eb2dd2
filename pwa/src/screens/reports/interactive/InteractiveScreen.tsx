import { loadFarFromNorm, type FarFromNorm } from '../../norms/NormFulfilment';
import { useMemo, useState } from 'react';
import { api, type ApiInit } from '../../../api/client';
import { readPageData } from '../../../api/page-data';
// The data block in which the server sends a shared report with its page (api/src/report/share-page.ts).
import { SHARED_REPORT_DATA_ID } from '@norma/core-wasm/report/page-data';
import type { ExportTable } from '../../../export/table';
import { formatDateTime, formatTime, localDate } from '../../../format/time';
import { ExportButtons } from '../ExportButtons';
import { instantParam } from '../format';
import type { FrvItem, InteractiveFrv, ResolvedShare } from '../types';
import { ReportState } from '../ReportState';
import { useLoad } from '../useLoad';
import { FrvTable } from './FrvTable';
import { PlayerPane } from './PlayerPane';
import { SharePanel } from './SharePanel';
import { segmentFor, useFrvPlayer } from './useFrvPlayer';
import { computeInteractiveFrv } from '../compute';
import '../reports.css';

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

interface FiltersProps {
  employees: string[];
  employee: string;
  setEmployee: (name: string) => void;
  onlyWithVideo: boolean;
  setOnlyWithVideo: (only: boolean) => void;
  rows: FrvItem[];
  firstWithFootage: number;
  farFromNormError: string | null | undefined;
}

/** The table's filters (employee, only rows with video) and its row count. */
function FrvFilters({ employees, employee, setEmployee, onlyWithVideo, setOnlyWithVideo, rows, firstWithFootage, farFromNormError }: FiltersProps) {
  return (
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
      {farFromNormError && <span className="muted small" data-testid="far-from-norm-error">{`Выполнение норм не загрузилось: ${farFromNormError}`}</span>}
    </div>
  );
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
  const employees = useMemo(() => [...new Set(frv.items.map((i) => i.employee_name ?? ''))].filter(Boolean).sort(), [frv]);
  const player = useFrvPlayer(frv, { guest: shareKey !== undefined });
  const [employee, setEmployee] = useState('');
  const [onlyWithVideo, setOnlyWithVideo] = useState(false);
  const multiDay = localDate(frv.requested_slot.fromm, zone) !== localDate(Date.parse(frv.requested_slot.to) - 1, zone);
  const when = (iso: string) => (multiDay ? `${formatDateTime(iso, zone).slice(0, 5)} ${formatTime(iso, zone)}` : formatTime(iso, zone));

  const rows = useMemo(
    () => frv.items.filter((i) => (!employee || i.employee_name === employee) && (!onlyWithVideo || i.video_segments.length > 0)),
    [frv, employee, onlyWithVideo],
  );
  const firstWithFootage = rows.findIndex((i) => i.video_segments.length > 0);

  const exportTable = (): ExportTable => ({
    title: 'Фотография рабочего дня',
    columns: ['№', 'Операция', 'Сотрудник', 'Рабочее место', 'Тип', 'Начало', 'Конец', 'Длительность, с', 'Файл', 'Начало в видео, с', 'Конец в видео, с'],
    rows: rows.map((i) => {
      const s = segmentFor(i, player.cameraKey);
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
        <PlayerPane player={player} shareKey={shareKey} />
        <section className="interactive-table">
          <div className="report-table-head">
            <h2>Фотография рабочего дня</h2>
            <ExportButtons table={exportTable} fileBase={`Интерактивный отчёт ${frv.structure.name}`} />
          </div>
          <FrvFilters
            employees={employees}
            employee={employee}
            setEmployee={setEmployee}
            onlyWithVideo={onlyWithVideo}
            setOnlyWithVideo={setOnlyWithVideo}
            rows={rows}
            firstWithFootage={firstWithFootage}
            farFromNormError={farFromNorm?.error}
          />
          <FrvTable
            rows={rows}
            firstWithFootage={firstWithFootage}
            videoHeight={player.videoHeight}
            types={types}
            far={far}
            cameraKey={player.cameraKey}
            selected={player.selected}
            when={when}
            jump={player.jump}
          />
        </section>
      </div>
    </div>
  );
}

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

/** The report in the page's data block, read once (the block's text is dropped then); undefined when the page has none. */
let pageReport: EarlySharedReport | null | undefined;

/**
 * The report the page came with (the link /demo/{key}: api/src/report/share-page.ts), for this key
 * only; undefined when there is none (or it is not JSON), and the screen reads as usual.
 */
function sharedReportInPage(key: string): { share: ResolvedShare; frv: InteractiveFrv } | undefined {
  if (pageReport === undefined) pageReport = readPageData(SHARED_REPORT_DATA_ID) as EarlySharedReport | null;
  return pageReport?.key === key ? { share: pageReport.share, frv: pageReport.frv } : undefined;
}

/**
 * The reads index.html's route-preload script started for a /#/demo/{key} visit before the app's
 * JS came (pwa/vite.config.ts, routePreload): taken once, for this key only; null when there are
 * none or they failed, and the screen reads as usual.
 */
async function takeEarlySharedReport(key: string): Promise<{ share: ResolvedShare; frv: InteractiveFrv } | null> {
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
  const loaded = useLoad(
    wellFormed ? `share/${key}` : null,
    async () => {
      const early = await takeEarlySharedReport(key);
      if (early) return early;
      const share = await api.get('/api/v1/resolve_hash/{key}', { path: { key } });
      const frv = await api.get('/api/v2/frv', {
        // `key` is read by the access check (a shared link), not by the route's query schema.
        query: { structure_id: share.structure_id, from_time: share.from_time, to_time: share.to_time, key } as ApiInit<'/api/v2/frv', 'get'>['query'],
      });
      return { share, frv };
    },
    wellFormed ? sharedReportInPage(key) : undefined,
  );
  const title = 'Интерактивный отчёт';
  if (!wellFormed) return <ReportState title={title} error="Ссылка недействительна: в ней нет ключа доступа." />;
  if (loaded.state === 'loading') return <ReportState title={title} loading="Открываем отчёт по ссылке…" />;
  if (loaded.state === 'error') return <ReportState title={title} error={`Отчёт по этой ссылке не открывается: ${loaded.message}`} />;
  const { share, frv } = loaded.data;
  return <InteractiveReport frv={frv} structureId={share.structure_id} from={share.from_time} to={share.to_time} shareKey={key} />;
}
