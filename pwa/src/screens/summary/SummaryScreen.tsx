import { useAllows } from '../../state/login';
import { Banner } from '../../ui/Banner';
import { DateHourPicker } from '../projects/DateHourPicker';
import { SummaryResult } from './SummaryTables';
import { useSummary } from './useSummary';

/**
 * spec 01 "Assessor summary": a period in hourly steps, a total budget and a markup hour cost;
 * the assessors' marked hours (per workplace, the union of the time covered there) and pay, and the detail
 * by day and workplace. The figures come from the server (METHODOLOGY §5).
 */
export function SummaryScreen() {
  // GET /api/v1/summary needs workspace.write (api/src/summary/routes.ts).
  const canReadSummary = useAllows('workspace.write');
  const { timeZone, from, setFrom, to, setTo, budget, setBudget, hourCost, setHourCost, error, busy, result, calculate } = useSummary();

  return (
    <section className="screen summary">
      <h1>Сводка по разметчикам</h1>
      {!canReadSummary && <Banner kind="info" text="Сводка с оплатой доступна администратору и аналитику организации." />}
      <form className="card summary-form" onSubmit={calculate}>
        <div className="row">
          <DateHourPicker label="С" testId="summary-from" value={from} onChange={setFrom} timeZone={timeZone} />
          <DateHourPicker label="По" testId="summary-to" value={to} onChange={setTo} timeZone={timeZone} />
          <label>
            Бюджет, ₽
            <input inputMode="numeric" value={budget} onChange={(e) => setBudget(e.target.value)} size={10} />
          </label>
          <label>
            Стоимость часа разметки, ₽
            <input inputMode="numeric" value={hourCost} onChange={(e) => setHourCost(e.target.value)} size={8} />
          </label>
          <button type="submit" className="button" disabled={busy}>
            {busy ? 'Расчёт…' : 'Рассчитать'}
          </button>
        </div>
        <p className="muted small">
          Часы — сумма по рабочим местам объединения времени, которое покрывают отрезки разметчика на этом месте (наложения на одном месте не считаются дважды,
          разные места за одни часы — считаются). Оплата — часы × стоимость часа; без стоимости часа бюджет делится пропорционально часам. Строки детализации в
          сумме дают оплату разметчика, оплаты — бюджет.
        </p>
        <Banner text={error} />
      </form>

      {result && <SummaryResult result={result} />}
    </section>
  );
}
