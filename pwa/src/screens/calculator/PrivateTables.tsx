import type { CalculatorGearTable as GearTable, CalculatorPrivateOutput as PrivateOutput } from '../../api/types';
import { formatNumber, formatRub } from './model';

/** The cost structure: each article and the total. */
function CostTable({ priv }: { priv: PrivateOutput }) {
  const costs: [string, number][] = [
    ['Разметка', priv.markup_price],
    ['Аналитика', priv.analytics_price],
    ['Установка камер', priv.tech_price],
    ['Сопровождение проекта', priv.support_price],
    ['Лицензии (конвертация и разметка)', priv.license_price],
    ['Оборудование', priv.gear_price],
    ['Сборка боксов', priv.box_work_price],
    ['Транспорт', priv.transport_price],
    ['Прямые затраты', priv.direct_price],
    ['Бухгалтерия', priv.accountant_price],
    ['Накладные расходы', priv.overhead],
    ['Маркетинг', priv.marketing_price],
    ['Налоги', priv.taxes],
  ];
  return (
    <div className="table-scroll">
      <table className="data-table compact">
        <thead>
          <tr>
            <th>Статья</th>
            <th>₽</th>
          </tr>
        </thead>
        <tbody>
          {costs.map(([name, value]) => (
            <tr key={name}>
              <td>{name}</td>
              <td className="number">{formatRub(value)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th>Итого</th>
            <th className="number" data-testid="calc-private-total">
              {formatRub(priv.final_cost)}
            </th>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

/** The gear to install: needed, in stock, to buy, and what it costs. */
function GearCostTable({ gear }: { gear: GearTable }) {
  return (
    <div className="table-scroll">
      <table className="data-table compact" data-testid="calc-gear-table">
        <thead>
          <tr>
            <th>Оборудование</th>
            <th>Нужно</th>
            <th>На складе</th>
            <th>Купить</th>
            <th>Цена</th>
            <th>Стоимость</th>
          </tr>
        </thead>
        <tbody>
          {gear.rows.map((r) => (
            <tr key={r.item}>
              <td>{r.label}</td>
              <td className="number">{r.needed}</td>
              <td className="number">{r.owned}</td>
              <td className="number">{r.to_buy}</td>
              <td className="number">{formatRub(r.price)}</td>
              <td className="number">{formatRub(r.cost)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th colSpan={5}>Итого</th>
            <th className="number">{formatRub(gear.total)}</th>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

/** The cars: trips, hours, rate and cost of each. */
function CarsTable({ priv }: { priv: PrivateOutput }) {
  return (
    <div className="table-scroll">
      <table className="data-table compact">
        <thead>
          <tr>
            <th>Машины</th>
            <th>Выездов</th>
            <th>Часов</th>
            <th>₽/ч</th>
            <th>Стоимость</th>
          </tr>
        </thead>
        <tbody>
          {priv.table_cars.map((r) => (
            <tr key={r.name}>
              <td>{r.name}</td>
              <td className="number">{r.trips}</td>
              <td className="number">{formatNumber(r.hours)}</td>
              <td className="number">{formatRub(r.price)}</td>
              <td className="number">{formatRub(r.cost)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The project's economy figures, each with its unit. */
function EconomyTable({ priv }: { priv: PrivateOutput }) {
  return (
    <div className="table-scroll">
      <table className="data-table compact">
        <thead>
          <tr>
            <th>Экономика</th>
            <th>Значение</th>
          </tr>
        </thead>
        <tbody>
          {priv.table_economy.map((r) => (
            <tr key={r.name}>
              <td>{r.name}</td>
              <td className="number">{r.value === null ? '—' : `${formatNumber(r.value)} ${r.unit}`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Members of the owner organisation: the cost structure, cars, economy and gear. */
export function PrivateTables({ priv, gear }: { priv: PrivateOutput; gear: GearTable | null }) {
  return (
    <section data-testid="calc-private">
      <h2>Служебный расчёт</h2>
      <p className="muted small">
        Часы: разметка {formatNumber(priv.markup_hours)}, аналитика {formatNumber(priv.analytics_hours)}, техник {formatNumber(priv.tech_hours)}; ручной
        хронометраж на месте занял бы {formatNumber(priv.manual_measurements_hours)} ч. Сопровождение после проекта: {formatRub(priv.future_price)} в месяц.
      </p>
      <CostTable priv={priv} />
      {gear && <GearCostTable gear={gear} />}
      <CarsTable priv={priv} />
      <EconomyTable priv={priv} />
    </section>
  );
}
