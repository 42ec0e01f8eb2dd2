import { formatTime } from '../../../format/time';
import { ColumnTable, type Column } from '../ColumnTable';
import { MEASUREMENT_COLUMNS_SHOWN } from '../constants';
import { hms, minutesApostrophe, num, wholeSecondSpan } from '../format';
import type { MeasurementRow, MeasurementTable, StatementReport } from '../types';

interface Common {
  report: StatementReport;
  fileBase: string;
  print: boolean;
}

const round = (value: number | null, digits = 3) => (value === null ? null : Math.round(value * 10 ** digits) / 10 ** digits);
const yesNo = (yes: boolean) => (yes ? 'да' : 'нет');

type Parameter = StatementReport['parameters'][number];
/** A row of table 1: an operation, or the total (no number, no averages). */
type Table1Row = Pick<Parameter, 'name' | 'percent_video' | 'len'> & { ave_len: number | null; time_2min: number | null; coef: number | null; total?: true };

const TABLE1_COLUMNS: Column<Table1Row>[] = [
  { title: '№', show: (r, i) => (r.total ? '' : i + 1), value: (r, i) => (r.total ? '' : i + 1) },
  { title: 'Операция', show: (r) => r.name, value: (r) => r.name },
  { title: 'Доля длительности замера, %', numeric: true, testId: 'percent', show: (r) => num(r.percent_video, 1), value: (r) => round(r.percent_video, 2) },
  { title: 'Длительность, с', value: (r) => round(r.len) },
  { title: 'Длительность, мин', numeric: true, testId: 'len', show: (r) => minutesApostrophe(r.len), value: (r) => minutesApostrophe(r.len) },
  { title: 'Среднее, с', numeric: true, show: (r) => (r.total ? '' : num(r.ave_len, 1)), value: (r) => (r.total ? null : round(r.ave_len)) },
  {
    title: 'Второе после минимального, с',
    numeric: true,
    show: (r) => (r.total ? '' : num(r.time_2min, 1)),
    value: (r) => (r.total ? null : round(r.time_2min)),
  },
  { title: 'Коэффициент устойчивости', numeric: true, show: (r) => (r.total ? '' : num(r.coef, 2)), value: (r) => (r.total ? null : round(r.coef)) },
];

/** Table 1: analysis of the main indicators, with the total row from `len` and `percent_video`. */
export function Table1({ report, fileBase, print }: Common) {
  const total = report.parameters_total;
  return (
    <ColumnTable
      title="Таблица 1. Анализ основных показателей"
      fileBase={fileBase}
      print={print}
      testId="table-1"
      testPrefix="t1"
      columns={TABLE1_COLUMNS}
      rows={report.parameters}
      rowKey={(_, i) => report.parameters[i]!.id}
      total={[{ name: 'Итого', percent_video: total.percent_video, len: total.len, ave_len: null, time_2min: null, coef: null, total: true }]}
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

const MEASUREMENTS = { title: 'Замеры, с', testId: 'measurements-header' };
const FLUCTUATION = { title: 'Колебание, %' };

/**
 * The observation sheet's columns: the first 10 measurements on the screen, then an ellipsis (the
 * header's span is at most 11); the download holds every measurement, and table 3's the numbers of
 * those the cleaning dropped.
 */
function sheetColumns(table: MeasurementTable, number: 2 | 3): Column<MeasurementRow>[] {
  const longest = table.max_operation_count;
  const shown = Math.min(longest, MEASUREMENT_COLUMNS_SHOWN);
  const measurement = (i: number): Column<MeasurementRow> => ({
    title: String(i + 1),
    group: MEASUREMENTS,
    numeric: true,
    value: (row) => round(row.measurements[i]?.len ?? null),
    ...(i < shown && {
      show: (row) => {
        const m = row.measurements[i];
        return m ? num(m.len, 1) : '';
      },
      cell: (row) => {
        const m = row.measurements[i];
        return {
          className: !m || m.status === 'accepted' ? '' : m.status === 'cut' ? 'cut' : 'dropped',
          title: m ? MEASUREMENT_TITLES[m.status] : undefined,
          status: m?.status,
        };
      },
    }),
  });
  return [
    { title: 'Операция', show: (row) => row.operation.name, value: (row) => row.operation.name },
    ...Array.from({ length: longest }, (_, i) => measurement(i)),
    ...(longest > MEASUREMENT_COLUMNS_SHOWN
      ? [{ title: '…', group: MEASUREMENTS, numeric: true, show: (row: MeasurementRow) => (row.measurements.length > shown ? '…' : '') }]
      : []),
    { title: 't min, с', numeric: true, testId: 'tmin', show: (row) => num(row.t_min, 1), value: (row) => round(row.t_min) },
    { title: 't рег, с', numeric: true, testId: 'treg', show: (row) => num(row.t_reg, 2), value: (row) => round(row.t_reg) },
    { title: 'прогноз.', group: FLUCTUATION, numeric: true, show: (row) => num(row.t_freq_pred, 1), value: (row) => round(row.t_freq_pred, 2) },
    { title: 'факт.', group: FLUCTUATION, numeric: true, testId: 'fact', show: (row) => num(row.t_freq_fact, 1), value: (row) => round(row.t_freq_fact, 2) },
    ...(number === 3 ? [{ title: 'Исключены при очистке, № замеров', value: droppedNumbers }] : []),
  ];
}

const CONTINUATION_COLUMNS: Column<MeasurementRow>[] = [
  { title: 'Операция', show: (row) => row.operation.name, value: (row) => row.operation.name },
  { title: 't max, с', numeric: true, show: (row) => num(row.t_max, 1), value: (row) => round(row.t_max) },
  { title: 't сред., с', numeric: true, testId: 'tavg', show: (row) => num(row.t_average, 2), value: (row) => round(row.t_average) },
  { title: 't min, с', numeric: true, show: (row) => num(row.t_min, 1), value: (row) => round(row.t_min) },
  { title: 'Показатель 2, %', numeric: true, testId: 'par2', show: (row) => num(row.par2, 1), value: (row) => round(row.par2, 2) },
  { title: 'Колебание max, %', numeric: true, show: (row) => num(row.fluct_max, 1), value: (row) => round(row.fluct_max, 2) },
  { title: 'Колебание сред., %', numeric: true, show: (row) => num(row.fluct_average, 1), value: (row) => round(row.fluct_average, 2) },
  { title: 'Колебание min, %', numeric: true, show: (row) => num(row.fluct_min, 1), value: (row) => round(row.fluct_min, 2) },
  { title: 'Нужно замеров', numeric: true, testId: 'required', show: (row) => row.required_measurements, value: (row) => row.required_measurements },
  { title: 'Замеров достаточно', testId: 'enough', show: (row) => yesNo(row.enough_measurements), value: (row) => yesNo(row.enough_measurements) },
];

/** Tables 2 and 3: the observation sheet and its continuation. */
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
  return (
    <>
      <ColumnTable
        title={title}
        fileBase={fileBase}
        print={print}
        testId={testId}
        testPrefix="sheet"
        className="observation-sheet"
        columns={sheetColumns(table, number)}
        rows={table.rows}
        rowKey={(row) => row.id}
      />
      <ColumnTable
        title={`Таблица ${number} (продолжение)`}
        fileBase={fileBase}
        print={print}
        testId={`${testId}-continuation`}
        testPrefix="cont"
        columns={CONTINUATION_COLUMNS}
        rows={table.rows}
        rowKey={(row) => row.id}
      />
    </>
  );
}

/** Column widths of the tables that grow with the window (virtualised past a screenful: ColumnTable `virtual`). */
const NUMBER_WIDTH = '5.5rem';
const TIME_WIDTH = '7rem';
const DURATION_WIDTH = '8.5rem';

/** Table 4: work-day photography (number, name, start, end, duration, index), on a whole-second grid. */
export function Table4({ report, fileBase, print }: Common) {
  const zone = report.rep_param.time_zone;
  type Row = StatementReport['frv'][number];
  const span = (r: Row) => wholeSecondSpan(r.start_datetime, r.finish_datetime);
  const columns: Column<Row>[] = [
    { title: '№', width: NUMBER_WIDTH, show: (r) => r.number, value: (r) => r.number },
    { title: 'Наименование', show: (r) => r.name, value: (r) => r.name },
    { title: 'Начало', width: TIME_WIDTH, show: (r) => formatTime(span(r).start, zone), value: (r) => formatTime(span(r).start, zone) },
    { title: 'Конец', width: TIME_WIDTH, show: (r) => formatTime(span(r).end, zone), value: (r) => formatTime(span(r).end, zone) },
    { title: 'Длительность, с', value: (r) => round(r.len_interval) },
    { title: 'Длительность', width: DURATION_WIDTH, numeric: true, show: (r) => hms(span(r).seconds), value: (r) => hms(span(r).seconds) },
    { title: 'Индекс', width: NUMBER_WIDTH, numeric: true, show: (r) => r.index, value: (r) => r.index },
  ];
  return (
    <ColumnTable
      title="Таблица 4. Фотография рабочего дня"
      fileBase={fileBase}
      print={print}
      testId="table-4"
      testPrefix="t4"
      columns={columns}
      rows={report.frv}
      rowKey={(r) => r.id}
      virtual
    />
  );
}

/** Table 5: operation overview. */
export function Table5({ report, fileBase, print, typeLabel }: Common & { typeLabel: (code: string) => string }) {
  const columns: Column<StatementReport['operations'][number]>[] = [
    { title: '№', show: (_, i) => i + 1, value: (_, i) => i + 1 },
    { title: 'Операция', show: (o) => o.name, value: (o) => o.name },
    { title: 'Тип', show: (o) => typeLabel(o.operation_type), value: (o) => typeLabel(o.operation_type) },
    { title: 'Отрезков', numeric: true, show: (o) => o.count, value: (o) => o.count },
    { title: 'Длительность', numeric: true, show: (o) => hms(o.len) },
    { title: 'Длительность, с', value: (o) => round(o.len) },
    { title: 'Длительность, мин', numeric: true, show: (o) => minutesApostrophe(o.len), value: (o) => minutesApostrophe(o.len) },
    { title: 'Средняя, с', numeric: true, show: (o) => num(o.ave_len, 1), value: (o) => round(o.ave_len) },
    { title: 'Доля, %', numeric: true, show: (o) => num(o.percent_video, 1), value: (o) => round(o.percent_video, 2) },
  ];
  return (
    <ColumnTable
      title="Таблица 5. Обзор операций"
      fileBase={fileBase}
      print={print}
      testId="table-5"
      testPrefix="t5"
      columns={columns}
      rows={report.operations}
      rowKey={(o) => o.id}
    />
  );
}

/** Table 6: regulated breaks and gaps (unmarked intervals of the window). */
export function Table6({ report, fileBase, print }: Common) {
  const zone = report.rep_param.time_zone;
  const kind = (type: string) => (type === 'regulated' ? 'Регламентированный перерыв' : 'Неразмеченный промежуток');
  const columns: Column<StatementReport['breaks'][number]>[] = [
    { title: '№', width: NUMBER_WIDTH, show: (_, i) => i + 1, value: (_, i) => i + 1 },
    { title: 'Вид', show: (b) => kind(b.type), value: (b) => kind(b.type) },
    { title: 'Начало', width: TIME_WIDTH, show: (b) => formatTime(b.start_datetime, zone), value: (b) => formatTime(b.start_datetime, zone) },
    { title: 'Конец', width: TIME_WIDTH, show: (b) => formatTime(b.end_datetime, zone), value: (b) => formatTime(b.end_datetime, zone) },
    { title: 'Длительность, с', value: (b) => round(b.len) },
    { title: 'Длительность', width: DURATION_WIDTH, numeric: true, show: (b) => hms(b.len), value: (b) => hms(b.len) },
  ];
  return (
    <ColumnTable
      title="Таблица 6. Регламентированные перерывы и неразмеченные промежутки"
      fileBase={fileBase}
      print={print}
      testId="table-6"
      testPrefix="t6"
      columns={columns}
      rows={report.breaks}
      rowKey={(b, i) => `${b.start_datetime}-${i}`}
      empty="Перерывов и неразмеченных промежутков нет"
      virtual
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
  const allById = new Map(report.all_measurements.rows.map((r) => [r.id, r]));
  const ruleName = report.cleaning_mode === 'both_extremes' ? 'минимальный и максимальный замеры вместе' : 'по одному крайнему замеру';
  const columns: Column<MeasurementRow>[] = [
    { title: 'Операция', show: (row) => row.operation.name, value: (row) => row.operation.name },
    { title: 'Нормативный Ку', numeric: true, testId: 'coef', show: (row) => num(row.normative_coef, 2), value: (row) => round(row.normative_coef, 2) },
    { title: 'Источник Ку', testId: 'source', show: (row) => normativeSourceText(row, report), value: (row) => normativeSourceText(row, report) },
    { title: 'Точность ε, %', numeric: true, show: (row) => num(row.accuracy_percent, 1), value: (row) => round(row.accuracy_percent, 2) },
    { title: 'Замеров всего', numeric: true, show: (row) => allById.get(row.id)?.n ?? row.n, value: (row) => allById.get(row.id)?.n ?? row.n },
    { title: 'Исключено', numeric: true, show: (row) => row.dropped, value: (row) => row.dropped },
    { title: 'Принято', numeric: true, show: (row) => row.n, value: (row) => row.n },
    { title: 'Нужно замеров', numeric: true, testId: 'required', show: (row) => row.required_measurements, value: (row) => row.required_measurements },
    { title: 'Замеров достаточно', testId: 'enough', show: (row) => yesNo(row.enough_measurements), value: (row) => yesNo(row.enough_measurements) },
  ];
  return (
    <>
      <p data-pdf="text" className="small" data-testid="cleaning-rule">
        {`Очистка хроноряда — ${ruleName} (выбрано в настройках структуры). ${report.cleaning_rule}`}
      </p>
      <ColumnTable
        title="Правило хронометража: нормативный Ку, точность и число замеров"
        fileBase={fileBase}
        print={print}
        testId="study-rule"
        testPrefix="rule"
        columns={columns}
        rows={report.measurements.rows}
        rowKey={(row) => row.id}
        empty="Замеров основных операций нет"
      />
    </>
  );
}

/** Shift-days of a window longer than a day: each day's length, breaks, load and takt. */
export function DaysTable({ report, fileBase, print }: Common) {
  const zone = report.rep_param.time_zone;
  const time = (iso: string | null) => (iso === null ? '—' : formatTime(iso, zone));
  const columns: Column<StatementReport['days'][number]>[] = [
    { title: 'День', show: (d) => d.date.split('-').reverse().join('.'), value: (d) => d.date },
    { title: 'Работа', show: (d) => `${time(d.first_start)}–${time(d.last_end)}` },
    { title: 'Начало работы', value: (d) => time(d.first_start) },
    { title: 'Конец работы', value: (d) => time(d.last_end) },
    { title: 'Длительность дня', numeric: true, show: (d) => hms(d.actual_day_len) },
    { title: 'Длительность дня, с', value: (d) => round(d.actual_day_len) },
    { title: 'Время смены, мин', value: (d) => round(d.shift_time / 60, 2) },
    { title: 'Перерывы, мин', numeric: true, show: (d) => num(d.regulated_break_time / 60, 0), value: (d) => round(d.regulated_break_time / 60, 2) },
    { title: 'Норматив T_дост, мин', numeric: true, show: (d) => num(d.available_time / 60, 1), value: (d) => round(d.available_time / 60, 2) },
    { title: 'W, мин', numeric: true, show: (d) => num(d.work_time / 60, 1), value: (d) => round(d.work_time / 60, 2) },
    { title: 'Загрузка, %', numeric: true, show: (d) => num(d.percentage, 1), value: (d) => round(d.percentage, 2) },
    { title: 'Итог', testId: 'text', show: (d) => d.text, value: (d) => d.text },
    { title: 'Выпуск, шт.', value: (d) => d.product_num },
    { title: 'Такт, с', numeric: true, show: (d) => (d.takt === null ? '—' : num(d.takt, 1)), value: (d) => round(d.takt, 2) },
  ];
  return (
    <ColumnTable
      title="Загрузка по сменам-дням"
      fileBase={fileBase}
      print={print}
      testId="days-table"
      testPrefix="day"
      columns={columns}
      rows={report.days}
      rowKey={(d) => d.start_datetime}
      virtual
    />
  );
}
