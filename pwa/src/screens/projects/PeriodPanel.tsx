import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { api } from '../../api/client';

import { login } from '../../state/login';
import { selectTime, setEmployees, structureData } from '../../state/structureData';
import { DateHourPicker } from './DateHourPicker';
import { atHour, endDates, nextDate, periodLinks } from './period';

/** The structure the stored period belongs to: coming back to it (e.g. from a report) keeps the period. */
let periodStructure: number | null = null;

/**
 * The period of a structure (spec 02 "Projects page"): employee, from and to (hourly steps, only
 * dates with reports), the edit link and the three report links.
 */
export function PeriodPanel({ structureId }: { structureId: number }) {
  const data = useSnapshot(structureData);
  const { timeZone } = useSnapshot(login);
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    let alive = true;
    setLoading(true);
    const keep = periodStructure === structureId && structureData.fromTime !== null && structureData.toTime !== null;
    if (!keep) {
      structureData.fromTime = null;
      structureData.toTime = null;
      structureData.reportDates = [];
    }
    periodStructure = structureId;
    Promise.all([
      api.get('/api/v1/employees', { query: { structure_id: structureId } }),
      api.get('/api/v1/report/dates', { query: { structure_id: structureId } }),
    ]).then(
      ([employees, dates]) => {
        if (!alive) return;
        setEmployees(employees);
        structureData.reportDates = dates.dates;
        // Start with the latest day that has a report, as a whole day.
        const last = dates.dates.at(-1);
        if (last && !keep) {
          selectTime('from', new Date(atHour(last, 0, timeZone)).toISOString());
          selectTime('to', new Date(atHour(nextDate(last), 0, timeZone)).toISOString());
        }
        setLoading(false);
      },
      () => alive && setLoading(false),
    );
    return () => {
      alive = false;
    };
  }, [structureId, timeZone]);

  const from = data.fromTime ? Date.parse(data.fromTime) : null;
  const to = data.toTime ? Date.parse(data.toTime) : null;
  const ready = from !== null && to !== null && to > from;
  const links = ready ? periodLinks(structureId, data.selectedEmployee, from, to) : null;

  return (
    <section className="period" aria-labelledby="period-title">
      <h3 id="period-title">Период и отчёты</h3>
      <div className="row">
        <label>
          Сотрудник
          <select
            value={data.selectedEmployee}
            onChange={(e) => (structureData.selectedEmployee = Number(e.target.value))}
            disabled={data.employees.length === 0}
          >
            {data.employees.length === 0 && <option value={0}>нет сотрудников</option>}
            {data.employees.map((e) => (
              <option key={e.id} value={e.id}>
                {e.name}
              </option>
            ))}
          </select>
        </label>
        <DateHourPicker
          label="С"
          testId="period-from"
          value={from}
          timeZone={timeZone}
          dates={data.reportDates}
          onChange={(instant) => selectTime('from', new Date(instant).toISOString())}
        />
        <DateHourPicker
          label="По"
          testId="period-to"
          value={to}
          timeZone={timeZone}
          dates={endDates(data.reportDates)}
          onChange={(instant) => selectTime('to', new Date(instant).toISOString())}
        />
      </div>
      {loading && <p className="muted">Загрузка дат…</p>}
      {!loading && data.reportDates.length === 0 && (
        <p className="muted">Разметки пока нет — выбирать нечего. Отчёты появятся, когда разметчики разметят видео.</p>
      )}
      {!loading && from !== null && to !== null && to <= from && <p className="field-error">Конец периода должен быть позже начала.</p>}
      {links && (
        <nav className="report-links" aria-label="Отчёты за период">
          <a className="button secondary" href={links.edit}>
            Редактировать разметку
          </a>
          {links.statement ? (
            <a className="button" href={links.statement}>
              Отчёт (старый)
            </a>
          ) : (
            <span className="muted">Отчёт-ведомость: нет сотрудника</span>
          )}
          <a className="button" href={links.report}>
            Отчёт (новый)
          </a>
          <a className="button" href={links.interactive}>
            Интерактивный отчёт
          </a>
        </nav>
      )}
    </section>
  );
}
