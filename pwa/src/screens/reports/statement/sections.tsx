import { Link } from 'wouter';
import { BarChart } from '../../../charts/BarChart';
import { ParetoChart } from '../../../charts/ParetoChart';
import { RingPie } from '../../../charts/RingPie';
import { formatDateTime } from '../../../format/time';
import { ALLOWED_FLUCTUATION_PERCENT, PIE_LABEL_MIN_PERCENT } from '../constants';
import { daysWord } from '@norma/core-wasm/formulas';
import { hms, minutesApostrophe, num, pct, productivityRiseText } from '../format';
import type { StatementReport } from '../types';
import { availableTimePie } from './pies';
import { DaysTable } from './tables';

const WORK_TYPES = ['main', 'aux', 'pz', 'service', 'move'];
const hhmm = (time: string | null) => (time ? time.slice(0, 5) : '—');
const minutesOf = (seconds: number) => seconds / 60;
/** The days of the window on which the employee worked (a first segment start). */
const workingDaysOf = (report: StatementReport) => report.days.filter((d) => d.first_start !== null);

interface SectionProps {
  report: StatementReport;
}

/** The statement's title: the period, the place, the shift, the employee, and the PDF link on screen. */
export function StatementHeader({ report, print, pdfHref }: SectionProps & { print: boolean; pdfHref?: string }) {
  const rp = report.rep_param;
  const zone = rp.time_zone;
  return (
    <header className="report-title">
      <h1 data-pdf="title">Ведомость: отчёт по сотруднику</h1>
      <p data-pdf="text" data-testid="statement-period">
        {`Период: ${formatDateTime(rp.from_time, zone)} — ${formatDateTime(rp.to_time, zone)}`}
      </p>
      <dl className="report-facts" data-pdf="text">
        <div>
          <dt>Место:</dt> <dd data-testid="statement-place">{rp.structure.name}</dd>
        </div>
        <div>
          <dt>Смена:</dt>{' '}
          <dd>{`${rp.structure.shift_name ? `${rp.structure.shift_name}, ` : ''}начало ${hhmm(rp.structure.shift_start_time)}, окончание ${hhmm(rp.structure.shift_end_time)}`}</dd>
        </div>
        <div>
          <dt>Сотрудник:</dt> <dd data-testid="statement-worker">{rp.worker_name}</dd>
        </div>
      </dl>
      {!print && pdfHref && (
        <p className="no-print">
          <Link href={pdfHref} className="button">
            PDF
          </Link>
        </p>
      )}
    </header>
  );
}

/** «Загрузка»: the employee's load against the normative working time, its texts, the days and the load chart. */
export function LoadSection({ report, fileBase, print }: SectionProps & { fileBase: string; print: boolean }) {
  const rp = report.rep_param;
  const loading = report.loading;
  const workSlices = report.slices.filter((s) => WORK_TYPES.includes(s.type));
  const workingDays = workingDaysOf(report);
  const multiDay = workingDays.length > 1;
  const breakText = rp.structure.partial
    ? `Для неполной структурной единицы регламентированные перерывы — 10 минут на каждый час наблюдения: ${num(loading.regulated_break_time, 0)} мин.`
    : multiDay
      ? `Регламентированные перерывы за ${workingDays.length} ${daysWord(workingDays.length)} — ${num(loading.regulated_break_time, 0)} минут (${workingDays.map((d) => `${d.date.slice(8, 10)}.${d.date.slice(5, 7)} — ${num(d.regulated_break_time / 60, 0)}`).join(', ')}).`
      : `Регламентированные перерывы за смену — ${num(loading.regulated_break_time, 0)} минут.`;
  const loadText = loading.overload
    ? `Загрузка ${pct(loading.percentage)} нормативного рабочего времени: сотрудник работает ${num(loading.work_time, 1)} мин при нормативных ${num(loading.available_time, 1)} мин — переработка ${num(loading.overworking, 1)} мин (${pct(loading.overworking_per)}), он работает в счёт положенных перерывов.`
    : loading.available_time > 0 && loading.work_time === loading.available_time
      ? `Загрузка ${pct(loading.percentage)} нормативного рабочего времени: сотрудник работает ${num(loading.work_time, 1)} мин при нормативных ${num(loading.available_time, 1)} мин — переработки и недогрузки нет.`
      : `Загрузка ${pct(loading.percentage)} нормативного рабочего времени: сотрудник работает ${num(loading.work_time, 1)} мин при нормативных ${num(loading.available_time, 1)} мин — недогрузка ${num(loading.underload, 1)} мин (${pct(loading.underload_per)}).`;
  return (
    <section className="report-section" data-testid="load-section">
      <h2 data-pdf="heading">Загрузка</h2>
      <p data-pdf="text" className={loading.overload ? 'load-text overload' : 'load-text'} data-testid="load-text">
        {loading.text}
      </p>
      <p data-pdf="text">{loadText}</p>
      <p data-pdf="text">{breakText}</p>
      {report.days.length > 1 && <DaysTable report={report} fileBase={fileBase} print={print} />}
      {/* A heading right before each chart: the PDF keeps a heading on the page of the chart it precedes. */}
      <h3 data-pdf="heading">График загрузки</h3>
      <div data-pdf="chart">
        <BarChart
          title="График загрузки"
          unit="мин"
          height={360}
          testId="load-chart"
          stacked
          valueLabels
          categories={['Рабочее время W', 'Нормативное рабочее время']}
          series={[
            ...workSlices.map((s) => ({ name: s.name, color: s.color, values: [minutesOf(s.len), 0] })),
            { name: 'Нормативное рабочее время T_дост', color: '#b0bec5', values: [0, loading.available_time] },
          ]}
          reference={{ name: `Норматив ${num(loading.available_time, 0)} мин (100 %)`, values: loading.available_time }}
          formatValue={(v) => num(v, 0)}
        />
      </div>
    </section>
  );
}

/** «Колебание хроноряда»: actual and predicted fluctuation of each operation against the allowed one. */
export function FluctuationChart({ report }: SectionProps) {
  return (
    <>
      <h3 data-pdf="heading">Колебание хроноряда</h3>
      <div data-pdf="chart">
        <BarChart
          title="Колебание хроноряда"
          unit="%"
          height={360}
          testId="fluctuation-chart"
          valueLabels
          categories={report.measurements.rows.map((r) => r.operation.name)}
          series={[
            { name: 'Колебание фактическое', color: '#2f5d8c', values: report.measurements.rows.map((r) => r.t_freq_fact) },
            { name: 'Колебание прогнозное', color: '#90caf9', values: report.measurements.rows.map((r) => r.t_freq_pred) },
          ]}
          reference={{ name: `Допустимое колебание ${ALLOWED_FLUCTUATION_PERCENT} %`, values: ALLOWED_FLUCTUATION_PERCENT }}
          formatValue={(v) => num(v, 1)}
        />
      </div>
    </>
  );
}

/** «Выпуск продукции»: the units produced and where the number comes from. */
export function UnitsSection({ report }: SectionProps) {
  const rp = report.rep_param;
  return (
    <section className="report-section" data-testid="units-section">
      <h2 data-pdf="heading">Выпуск продукции</h2>
      <p data-pdf="text">
        Изготовлено единиц продукции: <strong data-testid="units-produced">{rp.product_num}</strong> шт.
        {rp.products_source === 'manual' ? ' (введено вручную)' : ' (по отметкам «продукт» на видео)'}
        {rp.products_description ? `. ${rp.products_description}` : ''}
      </p>
    </section>
  );
}

type NormativeRow = SectionProps['report']['normative']['rows'][number];

/** One diagram of the balanced work: each normative row stacked, actually and by the norm. */
function BalancedWorkChart(props: { title: string; unit: string; testId: string; rows: NormativeRow[]; values: (row: NormativeRow) => [number, number] }) {
  return (
    <>
      <h2 data-pdf="heading">{props.title}</h2>
      <div data-pdf="chart">
        <BarChart
          title={props.title}
          unit={props.unit}
          height={380}
          stacked
          valueLabels
          testId={props.testId}
          categories={['Фактически', 'По нормативу']}
          series={props.rows.map((r) => ({ name: r.name, color: r.color, values: props.values(r) }))}
          formatValue={(v) => num(v, 0)}
        />
      </div>
    </>
  );
}

/** Diagrams 2.1 and 2.2: the actual work against the normative one, in minutes and in percent. */
export function BalancedWork({ report }: SectionProps) {
  return (
    <section className="report-section" data-testid="balanced-work">
      <BalancedWorkChart
        title="Диаграмма 2.1. Сбалансированная работа, мин"
        unit="мин"
        testId="diagram-2-1"
        rows={report.normative.rows}
        values={(r) => [minutesOf(r.len_fact), minutesOf(r.len_norm)]}
      />
      <BalancedWorkChart
        title="Диаграмма 2.2. Сбалансированная работа, %"
        unit="%"
        testId="diagram-2-2"
        rows={report.normative.rows}
        values={(r) => [r.percent_fact, r.percent_norm]}
      />
      <p data-pdf="text" data-testid="productivity-rise">
        {productivityRiseText(report.normative.productivity_rise)}
      </p>
    </section>
  );
}

/** «Использование времени»: the observed time and the normative working time as two pies. */
export function TimeUseSection({ report }: SectionProps) {
  const loading = report.loading;
  const availablePie = availableTimePie(report.slices, loading.available_time * 60);
  return (
    <section className="report-section" data-testid="time-use">
      <h2 data-pdf="heading">Использование времени</h2>
      <div className="chart-pair" data-pdf="chart">
        <RingPie
          title="Наблюдаемое время"
          inner={report.slices.map((s) => ({ key: s.type, name: s.name, color: s.color, value: s.len, percent: s.percent }))}
          labelMinPercent={PIE_LABEL_MIN_PERCENT}
          height={640}
          legend="below"
          testId="pie-observed"
          formatValue={(d) => `${minutesApostrophe(d.value)} (${pct(d.percent)})`}
          formatPercent={(p) => pct(p, 1)}
        />
        <RingPie
          title="Нормативное рабочее время (без отдыха и личных надобностей)"
          inner={availablePie.inner}
          outer={availablePie.outer.length > 0 ? availablePie.outer : undefined}
          labelMinPercent={PIE_LABEL_MIN_PERCENT}
          outerLabelMinPercent={0}
          height={640}
          legend="below"
          testId="pie-available"
          formatValue={(d) => `${minutesApostrophe(d.value)} (${pct(d.percent)})`}
          formatPercent={(p) => pct(p, 1)}
        />
      </div>
      <p className="muted small" data-pdf="text" data-testid="pie-available-note">
        {'Слева — доли наблюдаемого времени, справа — доли нормативного рабочего времени T_дост (круг — 100 % T_дост); подписи у долей больше 4 %. '}
        {availablePie.overrunSeconds > 0
          ? `Работа и простои превышают T_дост на ${minutesApostrophe(availablePie.overrunSeconds)} мин (${pct((availablePie.overrunSeconds / (loading.available_time * 60)) * 100)}): круг справа — всё это время, 100 % T_дост кончается там, где начинается красная дуга перерасхода.`
          : `Не использовано ${minutesApostrophe(availablePie.unusedSeconds)} мин нормативного времени — серая доля.`}
      </p>
    </section>
  );
}

/** «Парето потерь»: the losses by operation, largest first, with their cumulative share. */
export function ParetoSection({ report }: SectionProps) {
  const typeColor = (code: string) => report.slices.find((s) => s.type === code)?.color ?? '#90a4ae';
  return (
    <section className="report-section" data-testid="pareto">
      <h2 data-pdf="heading">Парето потерь</h2>
      {report.losses.pareto.length === 0 ? (
        <p data-pdf="text">Потерь нет.</p>
      ) : (
        <div data-pdf="chart">
          <ParetoChart
            title="Парето потерь"
            unit="мин"
            height={380}
            testId="pareto-chart"
            bars={report.losses.pareto.map((p) => ({
              name: p.name,
              color: typeColor(p.operation_type),
              value: minutesOf(p.len),
              cumulativePercent: p.cumulative_percent,
            }))}
            formatValue={(v) => num(v, 1)}
            formatPercent={(p) => pct(p, 0)}
          />
        </div>
      )}
      <p data-pdf="text">{`Потери: ${minutesApostrophe(report.losses.len)} мин — ${pct(report.losses.percent)} наблюдаемого времени (простои ${minutesApostrophe(report.losses.idle_len)}, отдых сверх нормы ${minutesApostrophe(report.losses.rest_len)}).`}</p>
    </section>
  );
}

/** «Такт»: the formula and its value for the window. */
export function TaktSection({ report }: SectionProps) {
  const takt = report.takt;
  const workingDays = workingDaysOf(report);
  const multiDay = workingDays.length > 1;
  return (
    <section className="report-section" data-testid="takt">
      <h2 data-pdf="heading">Такт</h2>
      <p data-pdf="text" className="formula">
        Такт = (фактическая длительность рабочего дня − регламентированные перерывы) / число изделий
      </p>
      <p data-pdf="text" className="formula" data-testid="takt-value">
        {takt.takt === null
          ? `Такт = (${hms(takt.actual_day_len)} − ${hms(takt.break_len)}) / ${takt.product_num ?? 0} — выпуск не указан, такт не считается`
          : `Такт = (${hms(takt.actual_day_len)} − ${hms(takt.break_len)}) / ${takt.product_num} шт. = ${num(takt.takt, 1)} с на изделие`}
      </p>
      <p className="muted small" data-pdf="text">
        {multiDay
          ? `Регламентированные перерывы в формуле такта принимаются равными 0. Окно длиннее дня: фактическая длительность — сумма длительностей ${workingDays.length} ${daysWord(workingDays.length)} (${workingDays.map((d) => hms(d.actual_day_len)).join(' + ')}), ночь между днями рабочим временем не считается.`
          : 'Регламентированные перерывы в формуле такта принимаются равными 0.'}
      </p>
    </section>
  );
}
