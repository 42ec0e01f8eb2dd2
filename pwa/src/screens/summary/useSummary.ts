import { useState, type FormEvent } from 'react';
import { useSnapshot } from 'valtio';
import { api, type ApiInit } from '../../api/client';
import type { SummaryReply } from '../../api/types';
import { login } from '../../state/login';
import { atHour, nextDate } from '../projects/period';
import { localDate } from '../../format/time';

/** Default total budget, roubles (spec 01 §9). */
const DEFAULT_BUDGET = '100000';

/** Budget and hour cost: non-negative whole roubles, or empty (then not sent; spec 01 §5). */
function moneyProblem(value: string, what: string): string | null {
  if (value.trim() === '') return null;
  return /^\d+$/.test(value.trim()) ? null : `${what}: целое неотрицательное число рублей, без копеек`;
}

/**
 * The summary's form and result: the period (this month so far by default), the budget and the hour
 * cost as typed; `calculate` checks them and asks the server.
 */
export function useSummary() {
  const { timeZone } = useSnapshot(login);
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

  return { timeZone, from, setFrom, to, setTo, budget, setBudget, hourCost, setHourCost, error, busy, result, calculate };
}
