import type { SummaryReply } from '../../api/types';
import { dmy } from '../projects/period';

const hours = new Intl.NumberFormat('ru-RU', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const money = new Intl.NumberFormat('ru-RU', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** «Разметчики»: each assessor's marked hours and pay, with the totals. */
function AssessorsTable({ assessors }: { assessors: SummaryReply['assessors'] }) {
  return (
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
          {assessors.map((a, i) => (
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
              {hours.format(sum(assessors.map((a) => a.markup_hours)))}
            </th>
            <th className="number" data-testid="summary-total-salary">
              {money.format(sum(assessors.map((a) => a.salary)))}
            </th>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

/** «Подробно»: the hours and cost by assessor, day and workplace. */
function DetailsTable({ details }: { details: SummaryReply['details'] }) {
  return (
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
          {details.map((d, i) => (
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
  );
}

/** The summary's result: the assessors' table (or that nobody marked), then the detail when there is one. */
export function SummaryResult({ result }: { result: SummaryReply }) {
  return (
    <>
      <h2>Разметчики</h2>
      {result.assessors.length === 0 ? <p className="muted">За этот период разметки нет.</p> : <AssessorsTable assessors={result.assessors} />}
      {result.details.length > 0 && (
        <>
          <h2>Подробно</h2>
          <DetailsTable details={result.details} />
        </>
      )}
    </>
  );
}
