import { formatNumber, formatRub } from './model';
import { LineChart } from './LineChart';
import { PrivateTables } from './PrivateTables';
import type { Outputs } from './session';

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="card calculator-figure">
      <div className="muted small">{label}</div>
      <div className="calculator-value" data-testid={testId}>
        {value}
      </div>
    </div>
  );
}

/** «Результат»: the figures, the stages' days and the two graphs; the private tables for the owner's members. */
export function CalculatorOutputs({ outputs, busy }: { outputs: Outputs; busy: boolean }) {
  return (
    <section className="calculator-outputs" aria-busy={busy} data-testid="calc-outputs">
      <h2>Результат</h2>
      <div className="calculator-figures">
        <Figure label="Замеров на операцию" value={String(outputs.pub.measurements_num)} testId="calc-measurements-num" />
        <Figure label="Замеров всего" value={formatNumber(outputs.pub.overall_measurements)} testId="calc-overall" />
        <Figure label="Стоимость анализа" value={formatRub(outputs.pub.final_cost)} testId="calc-final-cost" />
        <Figure label="Экономия в месяц" value={formatRub(outputs.pub.save_per_month)} testId="calc-save-month" />
        <Figure label="Экономия в год" value={formatRub(outputs.pub.save_per_year)} testId="calc-save-year" />
        <Figure label="Срок, рабочих дней" value={String(outputs.pub.final_terms)} testId="calc-terms" />
        <Figure label="Камер установить" value={String(outputs.pub.cameras)} testId="calc-cameras" />
        <Figure label="Окупаемость, мес." value={outputs.pub.payback_months === null ? '—' : formatNumber(outputs.pub.payback_months)} testId="calc-payback" />
      </div>
      <p className="muted small">
        Рабочих мест {outputs.pub.workplaces}, наблюдаем {outputs.pub.observed_workplaces}; видео {formatNumber(outputs.pub.video_hours)} ч. Этапы: установка
        камер {outputs.days.camera_install_days} дн., наблюдение {outputs.days.observation_days} дн., разметка {outputs.days.markups_days} дн., аналитика{' '}
        {outputs.days.analytics_days} дн.
      </p>
      <div className="calculator-charts">
        <LineChart
          title="Экономия нарастающим итогом за вычетом стоимости анализа"
          xLabel="Месяц"
          yLabel="₽"
          series="Чистая экономия"
          x={outputs.pub.savings_graph.months}
          y={outputs.pub.savings_graph.net}
          formatY={formatRub}
          testId="calc-savings-graph"
        />
        <LineChart
          title={`Сколько замеров нужно при разном Ку (ε = ${formatNumber(outputs.graph.accuracy_percent)} %; норматив Ку ${formatNumber(outputs.graph.normative.stability_coef)} → ${outputs.graph.normative.measurements_req})`}
          xLabel="Ку"
          yLabel="Замеров"
          series="Замеров на операцию"
          color="#c0392b"
          x={outputs.graph.stability_coefs}
          y={outputs.graph.required}
          testId="calc-measurement-graph"
        />
      </div>
      {outputs.priv && <PrivateTables priv={outputs.priv} gear={outputs.gear} />}
    </section>
  );
}
