import { Banner } from '../../ui/Banner';
import { api } from '../../api/client';

import { num, pct } from '../reports/format';
import { useLoad } from '../reports/useLoad';
import { dmy } from '../projects/period';

/**
 * Norm fulfilment of a report window (docs/norms.md «Выполнение норм»), from
 * GET /api/v1/norm_fulfilment: shown under the statement and the block report, and used by the
 * interactive report to mark cycles far from the norm. Not asked for a shared (key) report.
 */
export function useNormFulfilment(structureId: number, from: string, to: string, employeeId?: number, enabled = true) {
  return useLoad(enabled ? `fulfilment/${structureId}/${from}/${to}/${employeeId ?? ''}` : null, () =>
    api.get('/api/v1/norm_fulfilment', { query: { structure_id: structureId, from_time: from, to_time: to, employee_id: employeeId }, quiet: true }),
  );
}

/** Cycles far from the norm of a window, by markup id (deviation, %); a failed call is kept as its message, shown by the report. */
export interface FarFromNorm {
  cycles: Map<number, number>;
  error: string | null;
}

export async function loadFarFromNorm(structureId: number, from: string, to: string): Promise<FarFromNorm> {
  try {
    const reply = await api.get('/api/v1/norm_fulfilment', { query: { structure_id: structureId, from_time: from, to_time: to }, quiet: true });
    return { cycles: new Map(reply.far_cycles.map((c) => [c.markup_id, c.deviation_percent])), error: null };
  } catch (err) {
    return { cycles: new Map(), error: err instanceof Error ? err.message : String(err) };
  }
}

export function NormFulfilmentBlock({ structureId, from, to, employeeId }: { structureId: number; from: string; to: string; employeeId?: number }) {
  const loaded = useNormFulfilment(structureId, from, to, employeeId);
  if (loaded.state === 'loading') return null;
  // The report itself stands; the block says why the fulfilment is missing rather than hiding it.
  if (loaded.state === 'error')
    return (
      <section className="report-block" data-testid="norm-fulfilment">
        <h2>Выполнение норм</h2>
        <Banner text={`Не удалось загрузить выполнение норм: ${loaded.message}`} />
      </section>
    );
  const { rows } = loaded.data;
  const withNorm = rows.filter((r) => r.norm_id !== null);
  return (
    <section className="report-block" data-testid="norm-fulfilment">
      <h2 data-pdf="heading">Выполнение норм</h2>
      {withNorm.length === 0 ? (
        <p className="muted" data-pdf="text">
          В эти дни не действовала ни одна утверждённая норма структурной единицы.
        </p>
      ) : (
        <div className="table-scroll" data-pdf="table">
          <table className="data-table compact">
            <thead>
              <tr>
                <th>Сотрудник</th>
                <th>Дата</th>
                <th>Норма</th>
                <th>Нвр, мин</th>
                <th>Выпуск, шт.</th>
                <th>Факт на единицу, мин</th>
                <th>Выполнение нормы</th>
              </tr>
            </thead>
            <tbody>
              {withNorm.map((r) => (
                <tr key={`${r.employee_id}-${r.date}`} data-testid="fulfilment-row">
                  <td>{r.employee_name}</td>
                  <td>{dmy(r.date)}</td>
                  <td>версия {r.norm_version}</td>
                  <td>{num(r.norm_time_minutes, 2)}</td>
                  <td>{num(r.units, 0)}</td>
                  <td>{num(r.actual_minutes_per_unit, 2)}</td>
                  <td data-testid="fulfilment-percent">{pct(r.fulfilment_percent, 1)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
