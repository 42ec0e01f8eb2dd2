import { useState, type FormEvent } from 'react';
import { useSnapshot } from 'valtio';
import { api, type ApiInit } from '../../api/client';
import type { SummaryReply } from '../../api/types';
import { login, useAllows } from '../../state/login';
import { Banner } from '../../ui/Banner';
import { DateHourPicker } from '../projects/DateHourPicker';
import { atHour, dmy, nextDate } from '../projects/period';
import { localDate } from '../../format/time';

/** Default total budget, roubles (spec 01 §9). */
export const DEFAULT_BUDGET = '100000';

/** Budget and hour cost: non-negative whole roubles, or empty (then not sent; spec 01 §5). */
export function moneyProblem(value: string, what: string): string | null {
  if (value.trim() === '') return null;
  return /^\d+$/.test(value.trim()) ? null : `${what}: целое неотрицательное число рублей, без копеек`;
}

const hours = new Intl.NumberFormat('ru-RU', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const money = new Intl.NumberFormat('ru-RU', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/**
 * spec 01 "Assessor summary": a period in hourly steps, a total budget and a markup hour cost;
 * the assessors' marked hours (per workplace, the union of the time covered there) and pay, and the detail
 * by day and workplace. The figures come from the server (METHODOLOGY §5).
 */
export function SummaryScreen() {
  const { timeZone } = useSnapshot(login);
  // GET /api/v1/summary needs workspace.write (api/src/summary/routes.ts).
  const canReadSummary = useAllows('workspace.write');
  const today = localDate(Date.now(), timeZone);
  const [from, setFrom] = useState<number | null>(() => atHour(`${today.slice(0, 8)}01`, 0, timeZone));
  const [to, setTo] = useState<number | null>(() => atHour(nextDate(today), 0, timeZone));
  const [budget, setBudget] = useState(DEFAULT_BUDGET);
  const [hourCost, setHourCost] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<SummaryReply | null>(null);

  const calculate = async (event: FormEvent) => {
    event.preventDefault();
    const problem =
      (from === null || to === null ? 'Выберите начало и конец периода' : null) ??
      (to! <= from! ? 'Конец периода должен быть позже начала' : null) ??
      moneyProblem(budget, 'Бюджет') ??
      moneyProblem(hourCost, 'Стоимость часа');
    setError(problem);
    if (problem) return;
    setBusy(true);
    try {
      setResult(
        await api.get('/api/v1/summary', {
          query: {
            from_time: new Date(from!).toISOString(),
            to_time: new Date(to!).toISOString(),
            // Sent only if non-empty (spec 01 §5).
            budget: budget.trim() || undefined,
            hour_cost: hourCost.trim() || undefined,
            // The fields as typed: the API reads the numbers out of them and refuses a wrong one (400, shown).
          } as ApiInit<'/api/v1/summary', 'get'>['query'],
        }),
      );
    } catch {
      // Shown by the API client.
    } finally {
      setBusy(false);
    }
  };

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

      {result && (
        <>
          <h2>Разметчики</h2>
          {result.assessors.length === 0 ? (
            <p className="muted">За этот период разметки нет.</p>
          ) : (
            <div className="table-scroll">
              <table className="data-table" data-testid="summary-assessors">
                <thead>
                  <tr>
                    <th>Разметчик</th>
                    <th>Размечено, ч</th>
                    <th>Оплата, ₽</th>
                  </tr>
                </thead>
                <tbody>
                  {result.assessors.map((a, i) => (
                    <tr key={i}>
                      <td>{a.assessor_name}</td>
                      <td className="number">{hours.format(a.markup_hours)}</td>
                      <td className="number">{money.format(a.salary)}</td>
                    </tr>
                  ))}
                </tbody>
                <tfoot>
                  <tr>
                    <th>Итого</th>
                    <th className="number" data-testid="summary-total-hours">
                      {hours.format(sum(result.assessors.map((a) => a.markup_hours)))}
                    </th>
                    <th className="number" data-testid="summary-total-salary">
                      {money.format(sum(result.assessors.map((a) => a.salary)))}
                    </th>
                  </tr>
                </tfoot>
              </table>
            </div>
          )}
          {result.details.length > 0 && (
            <>
              <h2>Подробно</h2>
              <div className="table-scroll">
                <table className="data-table compact" data-testid="summary-details">
                  <thead>
                    <tr>
                      <th>Разметчик</th>
                      <th>Дата</th>
                      <th>Рабочее место</th>
                      <th>Размечено, ч</th>
                      <th>Стоимость, ₽</th>
                    </tr>
                  </thead>
                  <tbody>
                    {result.details.map((d, i) => (
                      <tr key={i}>
                        <td>{d.assessor_name}</td>
                        <td>{dmy(d.date)}</td>
                        <td>{d.workplace_name}</td>
                        <td className="number">{hours.format(d.markup_hours)}</td>
                        <td className="number">{money.format(d.cost)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          )}
        </>
      )}
    </section>
  );
}
