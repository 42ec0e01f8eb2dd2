import type { ExportTable, ExportValue } from '../../../export/table';
import { formatTime } from '../../../format/time';
import { MEASUREMENT_COLUMNS_SHOWN } from '../constants';
import { hms, minutesApostrophe, num, wholeSecondSpan } from '../format';
import { ReportTable } from '../ReportTable';
import type { MeasurementRow, MeasurementTable, StatementReport } from '../types';

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
    columns: [
      '№',
      'Операция',
      'Доля длительности замера, %',
      'Длительность, с',
      "Длительность, мин'с",
      'Среднее, с',
      'Второе после минимального, с',
      'Коэффициент устойчивости',
    ],
    rows: [
      ...report.parameters.map((p, i): ExportValue[] => [
        i + 1,
        p.name,
        round(p.percent_video, 2),
        round(p.len),
        minutesApostrophe(p.len),
        round(p.ave_len),
        round(p.time_2min),
        round(p.coef),
      ]),
      ['', 'Итого', round(total.percent_video, 2), round(total.len), minutesApostrophe(total.len), null, null, null],
    ],
  });
  return (
    <ReportTable
      title="Таблица 1. Анализ основных показателей"
      fileBase={fileBase}
      print={print}
      exportTable={exportTable}
      testId="table-1"
      head={
        <tr>
          <th>№</th>
          <th>Операция</th>
          <th>Доля длительности замера, %</th>
          <th>Длительность, мин</th>
          <th>Среднее, с</th>
          <th>Второе после минимального, с</th>
          <th>Коэффициент устойчивости</th>
        </tr>
      }
      body={report.parameters.map((p, i) => (
        <tr key={p.id} data-testid="t1-row">
          <td>{i + 1}</td>
          <td>{p.name}</td>
          <td className="num" data-testid="t1-percent">
            {num(p.percent_video, 1)}
          </td>
          <td className="num" data-testid="t1-len">
            {minutesApostrophe(p.len)}
          </td>
          <td className="num">{num(p.ave_len, 1)}</td>
          <td className="num">{num(p.time_2min, 1)}</td>
          <td className="num">{num(p.coef, 2)}</td>
        </tr>
      ))}
      foot={
        <tr data-testid="t1-total">
          <td />
          <td>Итого</td>
          <td className="num" data-testid="t1-total-percent">
            {num(total.percent_video, 1)}
          </td>
          <td className="num" data-testid="t1-total-len">
            {minutesApostrophe(total.len)}
          </td>
          <td />
          <td />
          <td />
        </tr>
      }
    />
  );
}

/** Why a cell of the observation sheet is not an accepted measurement (its tooltip). */
const MEASUREMENT_TITLES: Record<MeasurementRow['measurements'][number]['status'], string | undefined> = {
  accepted: undefined,
  dropped: 'исключён при очистке ряда',
  zero_length: 'нулевая длительность: не замер',
  cut: 'обрезан границей периода: в балансе учтён, замером не считается',
};

/** Numbers of the measurements the cleaning dropped, "2, 7" ("—" when none). */
export function droppedNumbers(row: MeasurementRow): string {
  const numbers = row.measurements.filter((m) => m.status === 'dropped').map((m) => m.index);
  return numbers.length > 0 ? numbers.join(', ') : '—';
}

/**
 * Tables 2 and 3: the observation sheet — the first 10 measurements, then an ellipsis (the
 * header's span is at most 11) — and its continuation. The download holds every measurement.
 */
export function ObservationSheet({
  table,
  number,
  title,
  fileBase,
  print,
  testId,
}: {
  table: MeasurementTable;
  number: 2 | 3;
  title: string;
  fileBase: string;
  print: boolean;
  testId: string;
}) {
  const longest = table.max_operation_count;
  const shown = Math.min(longest, MEASUREMENT_COLUMNS_SHOWN);
  const ellipsis = longest > MEASUREMENT_COLUMNS_SHOWN;
  const span = shown + (ellipsis ? 1 : 0);
  const sheetExport = (): ExportTable => ({
    title: `Таблица ${number}. Лист наблюдений`,
    columns: [
      'Операция',
      ...Array.from({ length: longest }, (_, i) => `Замер ${i + 1}, с`),
      't min, с',
      't рег, с',
      'Колебание прогноз., %',
      'Колебание факт., %',
      // Table 3 holds every measurement: the download names those the cleaning dropped.
      ...(number === 3 ? ['Исключены при очистке, № замеров'] : []),
    ],
    rows: table.rows.map((row) => [
      row.operation.name,
      ...Array.from({ length: longest }, (_, i) => round(row.measurements[i]?.len ?? null)),
      round(row.t_min),
      round(row.t_reg),
      round(row.t_freq_pred, 2),
      round(row.t_freq_fact, 2),
      ...(number === 3 ? [droppedNumbers(row)] : []),
    ]),
  });
  const continuationExport = (): ExportTable => ({
    title: `Таблица ${number}. Продолжение`,
    columns: [
      'Операция',
      't max, с',
      't сред., с',
      't min, с',
      'Показатель 2, %',
      'Колебание max, %',
      'Колебание сред., %',
      'Колебание min, %',
      'Нужно замеров',
      'Замеров достаточно',
    ],
    rows: table.rows.map((row) => [
      row.operation.name,
      round(row.t_max),
      round(row.t_average),
      round(row.t_min),
      round(row.par2, 2),
      round(row.fluct_max, 2),
      round(row.fluct_average, 2),
      round(row.fluct_min, 2),
      row.required_measurements,
      row.enough_measurements ? 'да' : 'нет',
    ]),
  });
  return (
    <>
      <ReportTable
        title={title}
        fileBase={fileBase}
        print={print}
        exportTable={sheetExport}
        testId={testId}
        className="observation-sheet"
        head={
          <>
            <tr>
              <th rowSpan={2}>Операция</th>
              {span > 0 && (
                <th colSpan={span} data-testid="measurements-header">
                  Замеры, с
                </th>
              )}
              <th rowSpan={2}>t min, с</th>
              <th rowSpan={2}>t рег, с</th>
              <th colSpan={2}>Колебание, %</th>
            </tr>
            <tr>
              {Array.from({ length: shown }, (_, i) => (
                <th key={i}>{i + 1}</th>
              ))}
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
                <td
                  key={i}
                  className={`num ${!m || m.status === 'accepted' ? '' : m.status === 'cut' ? 'cut' : 'dropped'}`}
                  title={m ? MEASUREMENT_TITLES[m.status] : undefined}
                  data-status={m?.status}
                >
                  {m ? num(m.len, 1) : ''}
                </td>
              );
            })}
            {ellipsis && <td className="num">{row.measurements.length > shown ? '…' : ''}</td>}
            <td className="num" data-testid="sheet-tmin">
              {num(row.t_min, 1)}
            </td>
            <td className="num" data-testid="sheet-treg">
              {num(row.t_reg, 2)}
            </td>
            <td className="num">{num(row.t_freq_pred, 1)}</td>
            <td className="num" data-testid="sheet-fact">
              {num(row.t_freq_fact, 1)}
            </td>
          </tr>
        ))}
      />
      <ReportTable
        title={`Таблица ${number} (продолжение)`}
        fileBase={fileBase}
        print={print}
        exportTable={continuationExport}
        testId={`${testId}-continuation`}
        head={
          <tr>
            <th>Операция</th>
            <th>t max, с</th>
            <th>t сред., с</th>
            <th>t min, с</th>
            <th>Показатель 2, %</th>
            <th>Колебание max, %</th>
            <th>Колебание сред., %</th>
            <th>Колебание min, %</th>
            <th>Нужно замеров</th>
            <th>Достаточно</th>
          </tr>
        }
        body={table.rows.map((row) => (
          <tr key={row.id}>
            <td>{row.operation.name}</td>
            <td className="num">{num(row.t_max, 1)}</td>
            <td className="num" data-testid="cont-tavg">
              {num(row.t_average, 2)}
            </td>
            <td className="num">{num(row.t_min, 1)}</td>
            <td className="num" data-testid="cont-par2">
              {num(row.par2, 1)}
            </td>
            <td className="num">{num(row.fluct_max, 1)}</td>
            <td className="num">{num(row.fluct_average, 1)}</td>
            <td className="num">{num(row.fluct_min, 1)}</td>
            <td className="num" data-testid="cont-required">
              {row.required_measurements}
            </td>
            <td data-testid="cont-enough">{row.enough_measurements ? 'да' : 'нет'}</td>
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
    rows: report.frv.map((r) => {
      const span = wholeSecondSpan(r.start_datetime, r.finish_datetime);
      return [r.number, r.name, formatTime(span.start, zone), formatTime(span.end, zone), round(r.len_interval), hms(span.seconds), r.index];
    }),
  });
  return (
    <ReportTable
      title="Таблица 4. Фотография рабочего дня"
      fileBase={fileBase}
      print={print}
      exportTable={exportTable}
      testId="table-4"
      head={
        <tr>
          <th>№</th>
          <th>Наименование</th>
          <th>Начало</th>
          <th>Конец</th>
          <th>Длительность</th>
          <th>Индекс</th>
        </tr>
      }
      body={report.frv.map((r) => {
        const span = wholeSecondSpan(r.start_datetime, r.finish_datetime);
        return (
          <tr key={r.id} data-testid="t4-row">
            <td>{r.number}</td>
            <td>{r.name}</td>
            <td>{formatTime(span.start, zone)}</td>
            <td>{formatTime(span.end, zone)}</td>
            <td className="num">{hms(span.seconds)}</td>
            <td className="num">{r.index}</td>
          </tr>
        );
      })}
    />
  );
}

/** Table 5: operation overview. */
export function Table5({ report, fileBase, print, typeLabel }: Common & { typeLabel: (code: string) => string }) {
  const exportTable = (): ExportTable => ({
    title: 'Таблица 5. Обзор операций',
    columns: ['№', 'Операция', 'Тип', 'Отрезков', 'Длительность, с', "Длительность, мин'с", 'Средняя, с', 'Доля, %'],
    rows: report.operations.map((o, i) => [
      i + 1,
      o.name,
      typeLabel(o.operation_type),
      o.count,
      round(o.len),
      minutesApostrophe(o.len),
      round(o.ave_len),
      round(o.percent_video, 2),
    ]),
  });
  return (
    <ReportTable
      title="Таблица 5. Обзор операций"
      fileBase={fileBase}
      print={print}
      exportTable={exportTable}
      testId="table-5"
      head={
        <tr>
          <th>№</th>
          <th>Операция</th>
          <th>Тип</th>
          <th>Отрезков</th>
          <th>Длительность</th>
          <th>Длительность, мин</th>
          <th>Средняя, с</th>
          <th>Доля, %</th>
        </tr>
      }
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
      title="Таблица 6. Регламентированные перерывы и неразмеченные промежутки"
      fileBase={fileBase}
      print={print}
      exportTable={exportTable}
      testId="table-6"
      head={
        <tr>
          <th>№</th>
          <th>Вид</th>
          <th>Начало</th>
          <th>Конец</th>
          <th>Длительность</th>
        </tr>
      }
      body={
        report.breaks.length === 0 ? (
          <tr>
            <td colSpan={5} className="muted">
              Перерывов и неразмеченных промежутков нет
            </td>
          </tr>
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

const PRODUCTION_TYPE_LABELS: Record<string, string> = {
  mass: 'массовое',
  large_series: 'крупносерийное',
  series: 'серийное',
  small_series: 'мелкосерийное',
};

/** Where a row's normative Ку came from, in words. */
export function normativeSourceText(row: MeasurementRow, report: StatementReport): string {
  if (row.normative_source === 'threshold') return 'порог устойчивости структуры';
  const kind = row.work_kind === 'machine' ? 'машинная работа' : 'ручная работа';
  const production = PRODUCTION_TYPE_LABELS[report.rep_param.structure.production_type] ?? report.rep_param.structure.production_type;
  return `справочник (${report.reference.source}, ${report.reference.edition}): ${production} производство, ${kind}`;
}

/**
 * The rule of the time study (METHODOLOGY §3): the cleaning rule, and per operation the normative
 * Ку used and its source, the accuracy ε, the measurement counts and whether they are enough.
 */
export function StudyRule({ report, fileBase, print }: Common) {
  const accepted = report.measurements.rows;
  const allById = new Map(report.all_measurements.rows.map((r) => [r.id, r]));
  const ruleName = report.cleaning_mode === 'both_extremes' ? 'минимальный и максимальный замеры вместе' : 'по одному крайнему замеру';
  const exportTable = (): ExportTable => ({
    title: 'Правило хронометража',
    columns: ['Операция', 'Нормативный Ку', 'Источник Ку', 'Точность ε, %', 'Замеров всего', 'Исключено', 'Принято', 'Нужно замеров', 'Замеров достаточно'],
    rows: accepted.map((row) => [
      row.operation.name,
      round(row.normative_coef, 2),
      normativeSourceText(row, report),
      round(row.accuracy_percent, 2),
      allById.get(row.id)?.n ?? row.n,
      row.dropped,
      row.n,
      row.required_measurements,
      row.enough_measurements ? 'да' : 'нет',
    ]),
  });
  return (
    <>
      <p data-pdf="text" className="small" data-testid="cleaning-rule">
        {`Очистка хроноряда — ${ruleName} (выбрано в настройках структуры). ${report.cleaning_rule}`}
      </p>
      <ReportTable
        title="Правило хронометража: нормативный Ку, точность и число замеров"
        fileBase={fileBase}
        print={print}
        exportTable={exportTable}
        testId="study-rule"
        head={
          <tr>
            <th>Операция</th>
            <th>Нормативный Ку</th>
            <th>Источник Ку</th>
            <th>Точность ε, %</th>
            <th>Замеров всего</th>
            <th>Исключено</th>
            <th>Принято</th>
            <th>Нужно</th>
            <th>Достаточно</th>
          </tr>
        }
        body={
          accepted.length === 0 ? (
            <tr>
              <td colSpan={9} className="muted">
                Замеров основных операций нет
              </td>
            </tr>
          ) : (
            accepted.map((row) => (
              <tr key={row.id} data-testid="rule-row">
                <td>{row.operation.name}</td>
                <td className="num" data-testid="rule-coef">
                  {num(row.normative_coef, 2)}
                </td>
                <td data-testid="rule-source">{normativeSourceText(row, report)}</td>
                <td className="num">{num(row.accuracy_percent, 1)}</td>
                <td className="num">{allById.get(row.id)?.n ?? row.n}</td>
                <td className="num">{row.dropped}</td>
                <td className="num">{row.n}</td>
                <td className="num" data-testid="rule-required">
                  {row.required_measurements}
                </td>
                <td data-testid="rule-enough">{row.enough_measurements ? 'да' : 'нет'}</td>
              </tr>
            ))
          )
        }
      />
    </>
  );
}

/** Shift-days of a window longer than a day: each day's length, breaks, load and takt. */
export function DaysTable({ report, fileBase, print }: Common) {
  const zone = report.rep_param.time_zone;
  const time = (iso: string | null) => (iso === null ? '—' : formatTime(iso, zone));
  const exportTable = (): ExportTable => ({
    title: 'Загрузка по сменам-дням',
    columns: [
      'День',
      'Начало работы',
      'Конец работы',
      'Длительность дня, с',
      'Время смены, мин',
      'Регламентированные перерывы, мин',
      'Нормативное время, мин',
      'Рабочее время W, мин',
      'Загрузка, %',
      'Итог',
      'Выпуск, шт.',
      'Такт, с',
    ],
    rows: report.days.map((d) => [
      d.date,
      time(d.first_start),
      time(d.last_end),
      round(d.actual_day_len),
      round(d.shift_time / 60, 2),
      round(d.regulated_break_time / 60, 2),
      round(d.available_time / 60, 2),
      round(d.work_time / 60, 2),
      round(d.percentage, 2),
      d.text,
      d.product_num,
      round(d.takt, 2),
    ]),
  });
  return (
    <ReportTable
      title="Загрузка по сменам-дням"
      fileBase={fileBase}
      print={print}
      exportTable={exportTable}
      testId="days-table"
      head={
        <tr>
          <th>День</th>
          <th>Работа</th>
          <th>Длительность дня</th>
          <th>Перерывы, мин</th>
          <th>Норматив T_дост, мин</th>
          <th>W, мин</th>
          <th>Загрузка</th>
          <th>Итог</th>
          <th>Такт, с</th>
        </tr>
      }
      body={report.days.map((d) => (
        <tr key={d.start_datetime} data-testid="day-row">
          <td>{d.date.split('-').reverse().join('.')}</td>
          <td>{`${time(d.first_start)}–${time(d.last_end)}`}</td>
          <td className="num">{hms(d.actual_day_len)}</td>
          <td className="num">{num(d.regulated_break_time / 60, 0)}</td>
          <td className="num">{num(d.available_time / 60, 1)}</td>
          <td className="num">{num(d.work_time / 60, 1)}</td>
          <td className="num">{num(d.percentage, 1)}</td>
          <td data-testid="day-text">{d.text}</td>
          <td className="num">{d.takt === null ? '—' : num(d.takt, 1)}</td>
        </tr>
      ))}
    />
  );
}
