import { useEffect, useRef, useState } from 'react';
import type { EventFigures, EventZone } from '../../api/types';
import { saveBlob, safeFileName } from '../../export/download';
import { buildPdf } from '../../export/pdf';
import { toCsv, type ExportTable } from '../../export/table';
import { notify } from '../../status/notifications';
import { Banner } from '../../ui/Banner';
import { exportTables } from './figureExports';
import './event-share.css';

type Grid = EventFigures['heat_map'];
type Point = [number, number];

/** One table of the print layout, as the CSV has it (numbers with a decimal comma, as on screen). */
function PrintTable({ table }: { table: ExportTable }) {
  const text = (v: ExportTable['rows'][number][number]) =>
    v === null ? '—' : typeof v === 'number' ? v.toLocaleString('ru-RU', { maximumFractionDigits: 2 }) : typeof v === 'boolean' ? (v ? 'да' : 'нет') : v;
  return (
    <>
      <h2 data-pdf="heading">{table.title}</h2>
      {table.rows.length === 0 ? (
        <p data-pdf="text">Нет данных за это окно.</p>
      ) : (
        <table data-pdf="table">
          <thead>
            <tr>
              {table.columns.map((c) => (
                <th key={c}>{c}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row, i) => (
              <tr key={i}>
                {row.map((v, j) => (
                  <td key={j}>{text(v)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

/** Visitors per minute as bars (SVG: the PDF draws it as vectors). */
function PerMinuteBars({ figures }: { figures: EventFigures }) {
  const minutes = figures.visitors_per_minute;
  const max = Math.max(1, ...minutes.map((m) => m.visitors));
  const [w, h] = [800, 240];
  const step = minutes.length ? w / minutes.length : w;
  return (
    <svg className="chart" viewBox={`0 0 ${w} ${h + 20}`} width={w} height={h + 20} xmlns="http://www.w3.org/2000/svg">
      <line x1={0} y1={h} x2={w} y2={h} stroke="#5f6b7a" strokeWidth={1} />
      {minutes.map((m, i) => {
        const bar = (m.visitors / max) * (h - 20);
        return <rect key={m.minute_start} x={i * step + step * 0.1} y={h - bar} width={Math.max(1, step * 0.8)} height={bar} fill="#1f5fa8" />;
      })}
      <text x={0} y={h + 16} fontSize={12} fill="#1d2430">
        {`Наибольшее: ${max} в минуту`}
      </text>
    </svg>
  );
}

const ZONE_COLOURS = { zone: '#1f5fa8', stand: '#2e7d32', safe: '#c62828' } as const;

/** The plan's heat map with the zones outlined, as SVG (the screen's is a canvas, which a PDF cannot take as vectors). */
function HeatPlan({ grid, zones }: { grid: Grid; zones: readonly EventZone[] }) {
  if (grid.columns === 0 || grid.rows === 0) return <p data-pdf="text">Тепловой карты нет: за это окно никого не было на плане.</p>;
  const [x0, y0] = grid.origin;
  const [w, h] = [grid.columns * grid.cell, grid.rows * grid.cell];
  const max = Math.max(0, ...grid.seconds);
  const stroke = w / 300;
  const scale = 800 / w;
  return (
    <svg className="chart" viewBox={`${x0} ${y0} ${w} ${h}`} width={800} height={Math.round(h * scale)} xmlns="http://www.w3.org/2000/svg">
      <rect x={x0} y={y0} width={w} height={h} fill="#f7f8fa" />
      {grid.seconds.map((seconds, i) => {
        if (!(seconds > 0) || !(max > 0)) return null;
        const share = Math.min(1, seconds / max);
        const column = i % grid.columns;
        const row = Math.floor(i / grid.columns);
        return (
          <rect
            key={i}
            x={x0 + column * grid.cell}
            y={y0 + row * grid.cell}
            width={grid.cell}
            height={grid.cell}
            fill={`rgb(230, ${Math.round(220 * (1 - share))}, 0)`}
            fillOpacity={0.25 + 0.6 * share}
          />
        );
      })}
      {zones.map((z) =>
        z.shape.type === 'polygon' ? (
          <polygon
            key={z.id}
            points={(z.shape.points as Point[]).map((p) => p.join(',')).join(' ')}
            fill="none"
            stroke={ZONE_COLOURS[z.role]}
            strokeWidth={stroke * 2}
          />
        ) : (
          <circle
            key={z.id}
            cx={z.shape.center[0]}
            cy={z.shape.center[1]}
            r={z.shape.radius}
            fill="none"
            stroke={ZONE_COLOURS[z.role]}
            strokeWidth={stroke * 2}
          />
        ),
      )}
    </svg>
  );
}

/** The print layout of the figures (export/pdf.ts reads its `data-pdf` parts), off screen while the PDF is built. */
function PrintLayout({ figures, zones, hall, tables }: { figures: EventFigures; zones: readonly EventZone[]; hall: string; tables: ExportTable[] }) {
  const [summary, perMinute, ...rest] = tables;
  return (
    <>
      <h1 data-pdf="title">{`Аналитика мероприятия: ${hall}`}</h1>
      <p data-pdf="text">{`Окно: ${summary!.rows[1]![1]} — ${summary!.rows[2]![1]}. Камер: ${figures.cameras.length}, без калибровки: ${figures.uncalibrated_cameras.length}.`}</p>
      <PrintTable table={summary!} />
      <h2 data-pdf="heading">Тепловая карта зала</h2>
      <div data-pdf="chart">
        <HeatPlan grid={figures.heat_map} zones={zones} />
      </div>
      <h2 data-pdf="heading">Посетители в минуту: график</h2>
      <div data-pdf="chart">
        <PerMinuteBars figures={figures} />
      </div>
      <PrintTable table={perMinute!} />
      {rest.map((t) => (
        <PrintTable key={t.title} table={t} />
      ))}
    </>
  );
}

type PdfState = { kind: 'idle' } | { kind: 'building' } | { kind: 'done'; pages: number } | { kind: 'failed'; message: string };

/**
 * «Скачать» of the figures shown (issue 44, docs/event-analytics.md «PDF и CSV»), the way the reports do
 * it, in the browser: each table as CSV (export/table.ts: `;`, a decimal comma, a BOM), and a PDF of a
 * print layout — summary, the plan's heat map, visitors per minute, dwell, routes, safe-zone entries —
 * built by export/pdf.ts (jsPDF, Montserrat embedded). Guests of a share link have it too: it only reads.
 */
export function ExportCard({ figures, zones, hall }: { figures: EventFigures; zones: readonly EventZone[]; hall: string }) {
  const tables = exportTables(figures, hall);
  const [pdf, setPdf] = useState<PdfState>({ kind: 'idle' });
  const layout = useRef<HTMLDivElement>(null);
  const name = (title: string) => safeFileName(`${title} — ${hall}`);

  useEffect(() => {
    if (pdf.kind !== 'building' || !layout.current) return;
    const abort = new AbortController();
    const footer = `Аналитика мероприятия — ${hall}`;
    buildPdf(layout.current, footer, abort.signal).then(
      ({ blob, pages }) => {
        if (abort.signal.aborted) return;
        saveBlob(blob, `${name('Аналитика мероприятия')}.pdf`);
        setPdf({ kind: 'done', pages });
      },
      (error: unknown) => {
        if (abort.signal.aborted) return;
        const message = error instanceof Error ? error.message : String(error);
        notify('error', `Не удалось построить PDF: ${message}`);
        setPdf({ kind: 'failed', message: `Не удалось построить PDF: ${message}` });
      },
    );
    return () => abort.abort();
    // Built once per click: the layout is mounted for it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pdf.kind]);

  return (
    <section className="card event-export" aria-labelledby="event-export-title" data-testid="event-export">
      <h2 id="event-export-title">Скачать цифры</h2>
      <div className="row-actions">
        {tables.map((t) => (
          <button
            key={t.title}
            type="button"
            className="button secondary small"
            onClick={() => saveBlob(new Blob([toCsv(t)], { type: 'text/csv;charset=utf-8' }), `${name(t.title)}.csv`)}
          >
            {`CSV: ${t.title}`}
          </button>
        ))}
        <button type="button" className="button small" disabled={pdf.kind === 'building'} onClick={() => setPdf({ kind: 'building' })}>
          Скачать PDF
        </button>
      </div>
      <p className="muted small" role="status" data-testid="event-pdf-status" data-pages={pdf.kind === 'done' ? pdf.pages : undefined}>
        {pdf.kind === 'building' && 'Готовим PDF…'}
        {pdf.kind === 'done' && `PDF готов: ${pdf.pages} стр.`}
      </p>
      <Banner text={pdf.kind === 'failed' ? pdf.message : null} />
      {pdf.kind === 'building' && (
        <div ref={layout} className="event-print-layout" aria-hidden="true">
          <PrintLayout figures={figures} zones={zones} hall={hall} tables={tables} />
        </div>
      )}
    </section>
  );
}
