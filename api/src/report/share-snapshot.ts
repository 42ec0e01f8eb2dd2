import { zonedParts } from '@norma/core-wasm/report/time-zone';

/**
 * The id of the element that holds the first screen of a shared report as server HTML in its page
 * (/demo/{key}); the PWA removes it once its own screen has rendered (pwa/src/ui/serverSnapshot.ts,
 * SERVER_SNAPSHOT_ID) and, until then, keeps its own #root laid out but invisible (pwa/index.html).
 */
export const SERVER_SNAPSHOT_ID = 'norma-server-snapshot';

/** Rows of the first screen: the table is 436 px high before the player is measured, a row at least 40 px. */
export const SNAPSHOT_ROWS = 12;

interface Segment {
  camera_key: number;
  video_id: number;
  filename: string;
  video_segment: { start: number; end: number };
}

interface Item {
  id: number;
  number: number;
  operation_name: string;
  operation_type: string;
  employee_name?: string | null;
  time_slot: { fromm: string; to: string };
  duration: number;
  video_segments: Segment[];
}

/** The fields of GET /api/v2/frv the first screen shows. */
export interface SnapshotFrv {
  time_zone: string;
  structure: { name: string };
  requested_slot: { fromm: string; to: string };
  operation_types: { code: string; label: string; color: string }[];
  items: Item[];
}

/** Text for HTML: element content and attribute values in double quotes. */
const text = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const two = (n: number) => String(n).padStart(2, '0');

/*
 * The formats of the PWA's screen, written out again: pwa/src/format/time.ts (formatDateTime,
 * formatTime, formatSeconds, localDate) and pwa/src/screens/reports/format.ts (hms). The e2e test
 * «shares the window» (tests/e2e/reports.e2e.test.ts) holds the server's first rows to the rows the
 * app then renders, text for text.
 */
function dateTime(iso: string, zone: string) {
  const p = zonedParts(Date.parse(iso), zone);
  return `${two(p.day)}.${two(p.month)}.${p.year} ${two(p.hour)}:${two(p.minute)}`;
}
function time(iso: string | number, zone: string) {
  const p = zonedParts(new Date(iso).getTime(), zone);
  return `${two(p.hour)}:${two(p.minute)}:${two(p.second)}`;
}
function localDate(instant: string | number, zone: string) {
  const p = zonedParts(new Date(instant).getTime(), zone);
  return `${p.year}-${two(p.month)}-${two(p.day)}`;
}
function seconds(total: number) {
  const s = Math.max(0, Math.floor(total));
  return `${Math.floor(s / 3600)}:${two(Math.floor((s % 3600) / 60))}:${two(s % 60)}`;
}
function hms(total: number) {
  const s = Math.max(0, Math.round(total));
  return `${two(Math.floor(s / 3600))}:${two(Math.floor((s % 3600) / 60))}:${two(s % 60)}`;
}

/** Interactive table columns, as the screen's FRV_COLUMNS (pwa/src/screens/reports/interactive/InteractiveScreen.tsx). */
const COLUMNS = [
  ['№', 'num'],
  ['Операция', 'op'],
  ['Тип', 'type'],
  ['Начало', 'time'],
  ['Конец', 'time'],
  ['Длитель\u00adность', 'time'],
  ['Начало в видео', 'time'],
  ['Конец в видео', 'time'],
] as const;

/** The player's address of a file for a share key, as the screen's videoUrl. */
const videoUrl = (videoId: number, key: string) => `/api/v1/video?video_id=${videoId}&key=${encodeURIComponent(key)}`;

/** Height of the table's box before the player is measured: the screen's first videoHeight (360) + INTERACTIVE_TABLE_EXTRA_PX (76). */
const TABLE_BOX_PX = 436;

/**
 * The first screen of the shared report's interactive screen as server HTML: the same elements and
 * classes the PWA renders for a share key before anyone touches it (its first camera, all
 * employees, every row, the table opened at the first row with footage), with the first
 * SNAPSHOT_ROWS rows from there. No `data-testid`s and no ids: it is a picture of the screen, not the
 * screen — nothing on it does anything, and the app's own screen replaces it as soon as it renders.
 * So that the page paints its largest element with the first response (Lighthouse's FCP and LCP,
 * docs/performance.md «Lighthouse»), not after the app's JS.
 */
export function sharedReportSnapshot(frv: SnapshotFrv, key: string, siteHeader: string): string {
  const zone = frv.time_zone;
  const types = new Map(frv.operation_types.map((t) => [t.code, t]));
  const cameras = [...new Set(frv.items.flatMap((i) => i.video_segments.map((s) => s.camera_key)))].sort((a, b) => a - b);
  const employees = [...new Set(frv.items.map((i) => i.employee_name ?? ''))].filter(Boolean).sort();
  const camera = cameras[0] ?? null;
  const segmentOf = (item: Item) => item.video_segments.find((s) => s.camera_key === camera) ?? item.video_segments[0] ?? null;
  const firstItem = frv.items.find((i) => i.video_segments.length > 0);
  const video = firstItem ? segmentOf(firstItem) : null;
  const multiDay = localDate(frv.requested_slot.fromm, zone) !== localDate(Date.parse(frv.requested_slot.to) - 1, zone);
  const when = (iso: string) => (multiDay ? `${dateTime(iso, zone).slice(0, 5)} ${time(iso, zone)}` : time(iso, zone));
  const first = frv.items.findIndex((i) => i.video_segments.length > 0);

  const rows = frv.items.slice(Math.max(0, first), Math.max(0, first) + SNAPSHOT_ROWS).map((item) => {
    const type = types.get(item.operation_type);
    const segment = segmentOf(item);
    const title = segment ? `${segment.filename}, с ${seconds(segment.video_segment.start)}` : 'нет записи';
    return [
      `<tr${segment ? '' : ' class="frv-no-footage"'} data-item-id="${item.id}">`,
      `<td data-label="№">${item.number}</td>`,
      `<td class="frv-op"><button type="button" class="link-button op-jump" title="${text(title)}">${text(item.operation_name)}</button>`,
      segment ? '' : '<span class="no-footage-mark">нет видео</span>',
      item.employee_name ? `<div class="muted small">${text(item.employee_name)}</div>` : '',
      '</td>',
      `<td class="frv-type"><span class="swatch" style="background:${text(type?.color ?? '')}"></span> ${text(type?.label ?? item.operation_type)}</td>`,
      `<td data-label="с">${when(item.time_slot.fromm)}</td>`,
      `<td data-label="по">${when(item.time_slot.to)}</td>`,
      `<td class="num" data-label="длит.">${hms(item.duration)}</td>`,
      `<td class="num" data-label="видео с">${segment ? seconds(segment.video_segment.start) : '—'}</td>`,
      `<td class="num" data-label="по">${segment ? seconds(segment.video_segment.end) : '—'}</td>`,
      '</tr>',
    ].join('');
  });
  const count = `Строк: ${frv.items.length}${first > 0 ? ` · с видео начиная с № ${frv.items[first]!.number}; строки без записи камер отмечены «нет видео»` : ''}`;
  return [
    `<div id="${SERVER_SNAPSHOT_ID}">`,
    siteHeader,
    '<main><div class="interactive">',
    '<header class="report-title interactive-head"><div>',
    `<h1>${text(`Интерактивный отчёт: ${frv.structure.name}`)}</h1>`,
    `<p class="muted">${dateTime(frv.requested_slot.fromm, zone)} — ${dateTime(frv.requested_slot.to, zone)}</p>`,
    '<p class="badge">Просмотр по ссылке: только чтение</p>',
    '</div></header>',
    '<div class="interactive-body"><div class="interactive-player">',
    // The app's first file, at its player's address, but not fetched: the app's player fetches it once
    // someone is at the page (useFrvPlayer.ts), so the page itself paints no late frame.
    `<div class="interactive-video-box">${video ? `<video src="${text(videoUrl(video.video_id, key))}" controls muted playsinline preload="none"></video>` : '<div class="no-footage">Записей камер за это окно нет</div>'}</div>`,
    '<div class="interactive-controls">',
    cameras.length > 0
      ? `<div class="speeds" role="group" aria-label="Камера">${cameras.map((key) => `<button type="button" class="${key === camera ? 'speed active' : 'speed'}" aria-pressed="${key === camera}">Камера ${key}</button>`).join('')}</div>`
      : '',
    video ? `<span class="muted small">${text(video.filename)}</span>` : '',
    '</div></div>',
    '<section class="interactive-table"><div class="report-table-head"><h2>Фотография рабочего дня</h2>',
    '<span class="export-buttons no-print"><button type="button" class="button secondary small">XLSX</button><button type="button" class="button secondary small">CSV</button></span></div>',
    '<div class="row interactive-filters">',
    employees.length > 1
      ? `<label>Сотрудник<select><option value="">все</option>${employees.map((name) => `<option value="${text(name)}">${text(name)}</option>`).join('')}</select></label>`
      : '',
    '<label class="inline"><input type="checkbox">только с видео</label>',
    `<span class="muted small">${text(count)}</span>`,
    '</div>',
    `<div class="frv-scroll" style="height:${TABLE_BOX_PX}px">`,
    '<table class="data-table compact frv-table">',
    `<colgroup>${COLUMNS.map(([, kind]) => `<col class="frv-col-${kind}">`).join('')}</colgroup>`,
    `<thead><tr>${COLUMNS.map(([title]) => `<th>${title}</th>`).join('')}</tr></thead>`,
    `<tbody>${rows.join('')}</tbody></table>`,
    frv.items.length === 0 ? '<p class="muted">В этом окне нет размеченных операций.</p>' : '',
    '</div></section></div></div></main></div>',
  ].join('');
}
