import type { ExportTable, ExportValue } from '../../../export/table';
import { formatTime } from '../../../format/time';
import { MEASUREMENT_COLUMNS_SHOWN } from '../constants';
import { hms, minutesApostrophe, num } from '../format';
import { ReportTable } from '../ReportTable';
import type { MeasurementTable, StatementReport } from '../types';

interface Common {
  report: StatementReport;
  fileBase: string;
  print: boolean;
}

const round = (value: number | null, digits = 3) => (value === null ? null : Math.round(value * 10 ** digits) / 10 ** digits);

/** Table 1: analysis of the main indicators, with the total row from `len` and `percent_video`. */
export function Table1({ report, fileBase, print }: Common) {
  const total = report.parameters_total;
  const exportTable = (): ExportTable => ({
    title: 'Таблица 1. Основные показатели',
    columns: ['№', 'Операция', 'Доля длительности замера, %', 'Длительность, с', "Длительность, мин'с", 'Среднее, с', 'Второе после минимального, с', 'Коэффициент устойчивости'],
    rows: [
      ...report.parameters.map((p, i): ExportValue[] => [i + 1, p.name, round(p.percent_video, 2), round(p.len), minutesApostrophe(p.len), round(p.ave_len), round(p.time_2min), round(p.coef)]),
      ['', 'Итого', round(total.percent_video, 2), round(total.len), minutesApostrophe(total.len), null, null, null],
    ],
  });
  return (
    <ReportTable
      title="Таблица 1. Анализ основных показателей" fileBase={fileBase} print={print} exportTable={exportTable} testId="table-1"
      head={
        <tr>
          <th>№</th><th>Операция</th><th>Доля длительности замера, %</th><th>Длительность, мин</th><th>Среднее, с</th><th>Второе после минимального, с</th><th>Коэффициент устойчивости</th>
        </tr>
      }
      body={report.parameters.map((p, i) => (
        <tr key={p.id} data-testid="t1-row">
          <td>{i + 1}</td>
          <td>{p.name}</td>
          <td className="num" data-testid="t1-percent">{num(p.percent_video, 1)}</td>
          <td className="num" data-testid="t1-len">{minutesApostrophe(p.len)}</td>
          <td className="num">{num(p.ave_len, 1)}</td>
          <td className="num">{num(p.time_2min, 1)}</td>
          <td className="num">{num(p.coef, 2)}</td>
        </tr>
      ))}
      foot={
        <tr data-testid="t1-total">
          <td /><td>Итого</td>
          <td className="num" data-testid="t1-total-percent">{num(total.percent_video, 1)}</td>
          <td className="num" data-testid="t1-total-len">{minutesApostrophe(total.len)}</td>
          <td /><td /><td />
        </tr>
      }
    />
  );
}

/**
 * Tables 2 and 3: the observation sheet — the first 10 measurements, then an ellipsis (the
 * header's span is at most 11) — and its continuation. The download holds every measurement.
 */
export function ObservationSheet({ table, number, title, fileBase, print, testId }: { table: MeasurementTable; number: 2 | 3; title: string; fileBase: string; print: boolean; testId: string }) {
  const longest = table.max_operation_count;
  const shown = Math.min(longest, MEASUREMENT_COLUMNS_SHOWN);
  const ellipsis = longest > MEASUREMENT_COLUMNS_SHOWN;
  const span = shown + (ellipsis ? 1 : 0);
  const sheetExport = (): ExportTable => ({
    title: `Таблица ${number}. Лист наблюдений`,
    columns: ['Операция', ...Array.from({ length: longest }, (_, i) => `Замер ${i + 1}, с`), 't min, с', 't рег, с', 'Колебание прогноз., %', 'Колебание факт., %'],
    rows: table.rows.map((row) => [
      row.operation.name,
      ...Array.from({ length: longest }, (_, i) => round(row.measurements[i]?.len ?? null)),
      round(row.t_min), round(row.t_reg), round(row.t_freq_pred, 2), round(row.t_freq_fact, 2),
    ]),
  });
  const continuationExport = (): ExportTable => ({
    title: `Таблица ${number}. Продолжение`,
    columns: ['Операция', 't max, с', 't сред., с', 't min, с', 'Показатель 2, %', 'Колебание max, %', 'Колебание сред., %', 'Колебание min, %'],
    rows: table.rows.map((row) => [row.operation.name, round(row.t_max), round(row.t_average), round(row.t_min), round(row.par2, 2), round(row.fluct_max, 2), round(row.fluct_average, 2), round(row.fluct_min, 2)]),
  });
  return (
    <>
      <ReportTable
        title={title} fileBase={fileBase} print={print} exportTable={sheetExport} testId={testId} className="observation-sheet"
        head={
          <>
            <tr>
              <th rowSpan={2}>Операция</th>
              {span > 0 && <th colSpan={span} data-testid="measurements-header">Замеры, с</th>}
              <th rowSpan={2}>t min, с</th>
              <th rowSpan={2}>t рег, с</th>
              <th colSpan={2}>Колебание, %</th>
            </tr>
            <tr>
              {Array.from({ length: shown }, (_, i) => <th key={i}>{i + 1}</th>)}
              {ellipsis && <th>…</th>}
              <th>прогноз.</th>
              <th>факт.</th>
            </tr>
          </>
        }
        body={table.rows.map((row) => (
          <tr key={row.id} data-testid="sheet-row">
            <td>{row.operation.name}</td>
            {Array.from({ length: shown }, (_, i) => {
              const m = row.measurements[i];
              return (
                <td key={i} className={`num ${m && m.status !== 'accepted' ? 'dropped' : ''}`} title={m && m.status === 'dropped' ? 'исключён при очистке ряда' : undefined}>
                  {m ? num(m.len, 1) : ''}
                </td>
              );
            })}
            {ellipsis && <td className="num">{row.measurements.length > shown ? '…' : ''}</td>}
            <td className="num" data-testid="sheet-tmin">{num(row.t_min, 1)}</td>
            <td className="num" data-testid="sheet-treg">{num(row.t_reg, 2)}</td>
            <td className="num">{num(row.t_freq_pred, 1)}</td>
            <td className="num" data-testid="sheet-fact">{num(row.t_freq_fact, 1)}</td>
          </tr>
        ))}
      />
      <ReportTable
        title={`Таблица ${number} (продолжение)`} fileBase={fileBase} print={print} exportTable={continuationExport} testId={`${testId}-continuation`}
        head={
          <tr>
            <th>Операция</th><th>t max, с</th><th>t сред., с</th><th>t min, с</th><th>Показатель 2, %</th><th>Колебание max, %</th><th>Колебание сред., %</th><th>Колебание min, %</th>
          </tr>
        }
        body={table.rows.map((row) => (
          <tr key={row.id}>
            <td>{row.operation.name}</td>
            <td className="num">{num(row.t_max, 1)}</td>
            <td className="num" data-testid="cont-tavg">{num(row.t_average, 2)}</td>
            <td className="num">{num(row.t_min, 1)}</td>
            <td className="num" data-testid="cont-par2">{num(row.par2, 1)}</td>
            <td className="num">{num(row.fluct_max, 1)}</td>
            <td className="num">{num(row.fluct_average, 1)}</td>
            <td className="num">{num(row.fluct_min, 1)}</td>
          </tr>
        ))}
      />
    </>
  );
}

/** Table 4: work-day photography (number, name, start, end, duration, index). */
export function Table4({ report, fileBase, print }: Common) {
  const zone = report.rep_param.time_zone;
  const exportTable = (): ExportTable => ({
    title: 'Таблица 4. Фотография рабочего дня',
    columns: ['№', 'Наименование', 'Начало', 'Конец', 'Длительность, с', 'Длительность', 'Индекс'],
    rows: report.frv.map((r) => [r.number, r.name, formatTime(r.start_datetime, zone), formatTime(r.finish_datetime, zone), round(r.len_interval), hms(r.len_interval), r.index]),
  });
  return (
    <ReportTable
      title="Таблица 4. Фотография рабочего дня" fileBase={fileBase} print={print} exportTable={exportTable} testId="table-4"
      head={<tr><th>№</th><th>Наименование</th><th>Начало</th><th>Конец</th><th>Длительность</th><th>Индекс</th></tr>}
      body={report.frv.map((r) => (
        <tr key={r.id} data-testid="t4-row">
          <td>{r.number}</td>
          <td>{r.name}</td>
          <td>{formatTime(r.start_datetime, zone)}</td>
          <td>{formatTime(r.finish_datetime, zone)}</td>
          <td className="num">{hms(r.len_interval)}</td>
          <td className="num">{r.index}</td>
        </tr>
      ))}
    />
  );
}

/** Table 5: operation overview. */
export function Table5({ report, fileBase, print, typeLabel }: Common & { typeLabel: (code: string) => string }) {
  const exportTable = (): ExportTable => ({
    title: 'Таблица 5. Обзор операций',
    columns: ['№', 'Операция', 'Тип', 'Отрезков', 'Длительность, с', "Длительность, мин'с", 'Средняя, с', 'Доля, %'],
    rows: report.operations.map((o, i) => [i + 1, o.name, typeLabel(o.operation_type), o.count, round(o.len), minutesApostrophe(o.len), round(o.ave_len), round(o.percent_video, 2)]),
  });
  return (
    <ReportTable
      title="Таблица 5. Обзор операций" fileBase={fileBase} print={print} exportTable={exportTable} testId="table-5"
      head={<tr><th>№</th><th>Операция</th><th>Тип</th><th>Отрезков</th><th>Длительность</th><th>Длительность, мин</th><th>Средняя, с</th><th>Доля, %</th></tr>}
      body={report.operations.map((o, i) => (
        <tr key={o.id} data-testid="t5-row">
          <td>{i + 1}</td>
          <td>{o.name}</td>
          <td>{typeLabel(o.operation_type)}</td>
          <td className="num">{o.count}</td>
          <td className="num">{hms(o.len)}</td>
          <td className="num">{minutesApostrophe(o.len)}</td>
          <td className="num">{num(o.ave_len, 1)}</td>
          <td className="num">{num(o.percent_video, 1)}</td>
        </tr>
      ))}
    />
  );
}

/** Table 6: regulated breaks and gaps (unmarked intervals of the window). */
export function Table6({ report, fileBase, print }: Common) {
  const zone = report.rep_param.time_zone;
  const kind = (type: string) => (type === 'regulated' ? 'Регламентированный перерыв' : 'Неразмеченный промежуток');
  const exportTable = (): ExportTable => ({
    title: 'Таблица 6. Перерывы и промежутки',
    columns: ['№', 'Вид', 'Начало', 'Конец', 'Длительность, с', 'Длительность'],
    rows: report.breaks.map((b, i) => [i + 1, kind(b.type), formatTime(b.start_datetime, zone), formatTime(b.end_datetime, zone), round(b.len), hms(b.len)]),
  });
  return (
    <ReportTable
      title="Таблица 6. Регламентированные перерывы и неразмеченные промежутки" fileBase={fileBase} print={print} exportTable={exportTable} testId="table-6"
      head={<tr><th>№</th><th>Вид</th><th>Начало</th><th>Конец</th><th>Длительность</th></tr>}
      body={
        report.breaks.length === 0 ? (
          <tr><td colSpan={5} className="muted">Перерывов и неразмеченных промежутков нет</td></tr>
        ) : (
          report.breaks.map((b, i) => (
            <tr key={`${b.start_datetime}-${i}`} data-testid="t6-row">
              <td>{i + 1}</td>
              <td>{kind(b.type)}</td>
              <td>{formatTime(b.start_datetime, zone)}</td>
              <td>{formatTime(b.end_datetime, zone)}</td>
              <td className="num">{hms(b.len)}</td>
            </tr>
          ))
        )
      }
    />
  );
}
