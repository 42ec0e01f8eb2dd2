import { useEffect, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { Link } from 'wouter';
import { useSnapshot } from 'valtio';
import type { NormCard } from '../../api/types';
import { useAllows } from '../../state/login';
import { Banner } from '../../ui/Banner';
import { TableHead } from '../../ui/TableHead';
import { ExportButtons } from '../reports/ExportButtons';
import { num, pct } from '../reports/format';
import { PdfDownload } from '../reports/PdfDownload';
import { stationsTable } from './exportTables';
import { parseRu } from './normsState';
import {
  addStation,
  balanceOf,
  benchesOf,
  buildLine,
  lineState,
  loadScenario,
  moveBy,
  moveStation,
  moveTo,
  openLine,
  placeStation,
  removeStation,
  saveScenario,
  scenarioLayout,
  showParallel,
  stationsOf,
  unplacedOf,
  type LineLayout,
} from './lineState';
import './norms.css';

const COLORS = { main: '#2e7d32', aux: '#1976d2', loss: '#d32f2f' } as const;
const CATEGORY = { main: 'основная', aux: 'вспомогательная', loss: 'потери' } as const;
const CHART_PX = 320;
const NOT_A_LINE = 'Рабочие места выполняют изделие целиком параллельно — это не линия; баланс линии не считается.';

/** After a move the moved element is drawn anew: focus goes back to it, so the keys can move it on. */
function useRefocus() {
  const pending = useRef<string[]>([]);
  useEffect(() => {
    if (pending.current.length === 0) return;
    // The first of the selectors that finds an element that can take focus (a button at an end of the line is disabled).
    for (const selector of pending.current) {
      const el = document.querySelector<HTMLElement>(selector);
      if (el && !(el instanceof HTMLButtonElement && el.disabled)) {
        el.focus();
        break;
      }
    }
    pending.current = [];
  });
  return (...selectors: string[]) => {
    pending.current = selectors;
  };
}

const layoutOf = (s: { stations: readonly number[]; assignment: Readonly<Record<number, number>> }): LineLayout => ({
  stations: s.stations,
  assignment: s.assignment,
});

/**
 * `/norms/{structureId}/line/{cardId}` (docs/norms.md «Баланс линии», METHODOLOGY §7): until the
 * analyst builds a line the workplaces are parallel benches, each with its Нвыр — not a line. A
 * line is the analyst's stations in order with the unit's operations on them (drag and drop, or the
 * keys: Alt+↑/↓ on a station, ←/→ on an operation); Σt of each station, the cycle, takt, line
 * efficiency, balance delay and minimum stations follow at once; the line is saved as a scenario.
 */
export function LineBalanceScreen({ structureId, cardId }: { structureId: string; cardId: string }) {
  const s = useSnapshot(lineState);
  const layout = useRef<HTMLDivElement>(null);
  const [pdf, setPdf] = useState(false);
  useEffect(() => {
    void openLine(Number(cardId));
  }, [cardId]);
  const card = s.card as NormCard | null;
  if (!card) {
    return (
      <div className="screen norms-screen">
        <Banner text={s.error} />
        <p aria-busy="true">Загрузка…</p>
      </div>
    );
  }
  return (
    <div className="screen norms-screen">
      <p>
        <Link href={`/norms/${structureId}`}>← к карточке нормы</Link>
      </p>
      <div className="actions no-print">
        <button type="button" className="button secondary" onClick={() => setPdf(true)} disabled={pdf}>
          PDF баланса
        </button>
        {pdf && <PdfDownload layout={layout} ready fileName={`Баланс линии ${card.title}`} />}
      </div>
      <div ref={layout}>
        <h1 data-pdf="title">Баланс линии: {card.title}</h1>
        <Banner text={s.error} />
        {s.mode === 'parallel' ? <ParallelBenches card={card} /> : <LineEditor card={card} />}
        <Scenarios />
      </div>
    </div>
  );
}

/** «время операции «…» — по карточке: на этом месте не замерялась», for each borrowed operation of a bench. */
const borrowedNote = (names: readonly string[]) => names.map((name) => `время операции «${name}» — по карточке: на этом месте не замерялась`).join('; ');

/** The default: workplaces side by side, each making the whole unit at its own Нвыр (METHODOLOGY §7). */
function ParallelBenches({ card }: { card: NormCard }) {
  const benches = benchesOf(card);
  const own = benches.every((b) => b.ownFigures);
  return (
    <section className="card line-parallel" data-testid="line-parallel">
      <p data-pdf="text" data-testid="line-not-a-line">
        {NOT_A_LINE}
      </p>
      <p className="muted">
        Каждое рабочее место делает изделие от начала до конца в своём темпе: Топ места — сумма t_norm × раз на единицу по замерам на этом месте, Нвыр места =
        Топ.н карточки / Топ места. Если изделие проходит через рабочие места одно за другим, постройте линию: расставьте станции по порядку и распределите по
        ним операции.
      </p>
      {!own && (
        <p data-pdf="text" data-testid="bench-fallback">
          Карточка сохранена до того, как Нвыр стала считаться по каждому рабочему месту: у каждого места показаны Топ и Нвыр карточки.
        </p>
      )}
      <div className="table-scroll">
        <table className="data-table compact" data-testid="line-benches" data-pdf="table">
          <thead>
            <tr>
              <th>Рабочее место</th>
              <th>Топ, мин</th>
              <th>Нвыр, шт./смену</th>
              <th>Нвыр точно</th>
              <th>Примечание</th>
            </tr>
          </thead>
          <tbody>
            {benches.map((b) => (
              <tr key={b.id} data-workplace-id={b.id}>
                <td>{b.name}</td>
                <td data-testid="bench-top">{b.top === null ? '—' : num(b.top, 3)}</td>
                <td data-testid="bench-output">{b.whole === null ? 'не рассчитано' : num(b.whole, 0)}</td>
                <td data-testid="bench-output-exact">{b.output === null ? '—' : num(b.output, 3)}</td>
                <td data-testid="bench-note">{b.ownFigures ? borrowedNote(b.borrowed) : 'Нвыр карточки'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="actions">
        <button type="button" className="button" onClick={buildLine} disabled={card.card.line.workplaces.length === 0}>
          Построить линию
        </button>
      </div>
    </section>
  );
}

function LineEditor({ card }: { card: NormCard }) {
  const s = useSnapshot(lineState);
  const line = card.card.line;
  const balance = balanceOf(line, layoutOf(s), s.demand);
  const unplaced = unplacedOf(line, layoutOf(s));
  const table = stationsTable(line, layoutOf(s), balance);
  return (
    <>
      <LineFigures card={card} />
      {unplaced.length > 0 && (
        <p className="banner banner-info" role="status" data-testid="line-unplaced" data-pdf="text">
          {`Не на линии: ${unplaced.map((o) => `«${o.name}»`).join(', ')} — линия ещё не делает изделие целиком.`}
        </p>
      )}
      <StationOrder card={card} />
      <Chart />
      <section className="card">
        <div className="norm-table-head">
          <h2 data-pdf="heading">Станции линии</h2>
          <ExportButtons table={() => table} fileBase={`Баланс линии ${card.title}`} />
        </div>
        <div className="table-scroll" data-pdf="table">
          <table className="data-table compact" data-testid="line-stations">
            <thead>
              <tr>
                {table.columns.map((c) => (
                  <th key={c}>{c}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((row, k) => (
                <tr key={k}>
                  {row.map((v, i) => (
                    <td key={i}>{typeof v === 'number' && i > 0 ? num(v, 3) : v}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div className="actions">
          <button type="button" className="button secondary" onClick={showParallel}>
            Не линия: рабочие места параллельно
          </button>
        </div>
      </section>
    </>
  );
}

function LineFigures({ card }: { card: NormCard }) {
  const s = useSnapshot(lineState);
  const balance = balanceOf(card.card.line, layoutOf(s), s.demand);
  const takt = balance.taktMinutes === null ? '—' : `${num(balance.taktMinutes, 3)} мин`;
  const efficiency = balance.efficiency === null ? '—' : pct(balance.efficiency * 100, 1);
  const delay = balance.balanceDelay === null ? '—' : pct(balance.balanceDelay * 100, 1);
  return (
    <section className="card line-figures" data-testid="line-figures">
      <label>
        Потребность за смену, шт.
        <input
          inputMode="decimal"
          defaultValue={String(s.demand).replace('.', ',')}
          key={`demand-${s.demand}`}
          onBlur={(e) => {
            const v = parseRu(e.target.value);
            if (v !== null && v > 0 && v <= 1e7) {
              lineState.demand = v;
              lineState.error = null;
            } else lineState.error = 'Потребность за смену — число больше 0 и не больше 10 000 000';
          }}
          data-testid="line-demand"
        />
      </label>
      <dl>
        <dt>Станций N</dt>
        <dd data-testid="line-n">{balance.stations.length}</dd>
        <dt>Σt на единицу (только работа, без потерь)</dt>
        <dd data-testid="line-total">{num(balance.totalMinutes, 3)} мин</dd>
        <dt>Цикл C = max Σt станции</dt>
        <dd data-testid="line-cycle">{num(balance.cycleMinutes, 3)} мин</dd>
        <dt>Такт = рабочее время / потребность</dt>
        <dd data-testid="line-takt">{takt}</dd>
        <dt>Эффективность линии Σt / (N · C)</dt>
        <dd data-testid="line-efficiency">{efficiency}</dd>
        <dt>Потери на балансировку 1 − эффективность</dt>
        <dd data-testid="line-delay">{delay}</dd>
        <dt>Минимум станций ⌈Σt / такт⌉</dt>
        <dd data-testid="line-min-stations">{balance.minimumStations ?? '—'}</dd>
      </dl>
      <p className="muted" data-pdf="text">
        {`Линия из ${balance.stations.length} станций; потребность ${num(s.demand, 2)} шт./смену; Σt ${num(balance.totalMinutes, 3)} мин; цикл C ${num(balance.cycleMinutes, 3)} мин; такт ${takt}; эффективность ${efficiency}; потери на балансировку ${delay}; минимум станций ${balance.minimumStations ?? '—'}.`}
      </p>
      <p className="muted">Потери (простои) — не работа: в Σt не входят и станцию не занимают.</p>
    </section>
  );
}

/** The stations in order: Alt+↑/↓ or «Выше»/«Ниже» move one, drag and drop puts one before another. */
function StationOrder({ card }: { card: NormCard }) {
  const s = useSnapshot(lineState);
  const refocus = useRefocus();
  const line = card.card.line;
  const stations = stationsOf(line, layoutOf(s));
  const outside = line.workplaces.filter((w) => !s.stations.includes(w.id));
  const move = (id: number, step: -1 | 1, button?: string) => {
    moveStation(id, step);
    const item = `[data-testid="line-order-item"][data-station-id="${id}"]`;
    refocus(...(button ? [`${item} button[aria-label="${button}"]`] : []), item);
  };
  const keys = (id: number) => (e: KeyboardEvent) => {
    if (e.target !== e.currentTarget || !e.altKey || (e.key !== 'ArrowUp' && e.key !== 'ArrowDown')) return;
    e.preventDefault();
    move(id, e.key === 'ArrowUp' ? -1 : 1);
  };
  const drop = (beforeId: number | null) => (e: DragEvent) => {
    const id = Number(e.dataTransfer.getData('application/x-norma-station'));
    if (!id) return;
    e.preventDefault();
    placeStation(id, beforeId);
  };
  return (
    <section className="card line-order">
      <h2>Порядок станций</h2>
      <p className="muted">
        Изделие проходит станции сверху вниз. Переставьте станцию перетаскиванием, кнопками «Выше»/«Ниже» или клавишами Alt+↑ / Alt+↓ на выбранной станции.
      </p>
      <ol data-testid="line-order" onDragOver={(e) => e.preventDefault()} onDrop={drop(null)}>
        {stations.map((st, k) => (
          <li
            key={st.id}
            data-testid="line-order-item"
            data-station-id={st.id}
            tabIndex={0}
            draggable
            aria-label={`Станция ${k + 1}: ${st.name}. Alt+↑ / Alt+↓ — переставить`}
            onDragStart={(e) => e.dataTransfer.setData('application/x-norma-station', String(st.id))}
            onDragOver={(e) => e.preventDefault()}
            onDrop={(e) => {
              e.stopPropagation();
              drop(st.id)(e);
            }}
            onKeyDown={keys(st.id)}
          >
            <span className="line-order-name">
              {k + 1}. {st.name}
            </span>
            <button
              type="button"
              className="button secondary"
              aria-label={`Станцию «${st.name}» выше`}
              disabled={k === 0}
              onClick={() => move(st.id, -1, `Станцию «${st.name}» выше`)}
            >
              Выше
            </button>
            <button
              type="button"
              className="button secondary"
              aria-label={`Станцию «${st.name}» ниже`}
              disabled={k === stations.length - 1}
              onClick={() => move(st.id, 1, `Станцию «${st.name}» ниже`)}
            >
              Ниже
            </button>
            <button type="button" className="button secondary" aria-label={`Убрать «${st.name}» из линии`} onClick={() => removeStation(st.id)}>
              Убрать
            </button>
          </li>
        ))}
      </ol>
      {outside.length > 0 && (
        <p className="line-outside">
          Не в линии:{' '}
          {outside.map((w) => (
            <button key={w.id} type="button" className="button secondary" aria-label={`Добавить «${w.name}» в линию`} onClick={() => addStation(w.id)}>
              + {w.name}
            </button>
          ))}
        </p>
      )}
    </section>
  );
}

/** One operation's block: dragged, or moved by ←/→ along the line (left of the first station: off the line). */
function OperationBlock({
  op,
  height,
  onMove,
}: {
  op: { id: number; name: string; category: 'main' | 'aux' | 'loss'; minutes: number };
  height?: number;
  onMove: (step: -1 | 1) => void;
}) {
  return (
    <div
      className={height === undefined ? 'yamazumi-op unplaced' : 'yamazumi-op'}
      data-testid="line-op"
      data-operation-id={op.id}
      tabIndex={0}
      draggable
      role="button"
      aria-label={`${op.name}, ${CATEGORY[op.category]}, ${num(op.minutes, 3)} мин. ← / → — на соседнюю станцию`}
      title={`${op.name}: ${num(op.minutes, 3)} мин`}
      style={{ height, background: COLORS[op.category] }}
      onDragStart={(e) => e.dataTransfer.setData('text/plain', String(op.id))}
      onKeyDown={(e) => {
        if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
        e.preventDefault();
        onMove(e.key === 'ArrowLeft' ? -1 : 1);
      }}
    >
      {height === undefined || height > 14 ? op.name : ''}
    </div>
  );
}

function Chart() {
  const s = useSnapshot(lineState);
  const refocus = useRefocus();
  const line = (s.card as NormCard).card.line;
  const balance = balanceOf(line, layoutOf(s), s.demand);
  const unplaced = unplacedOf(line, layoutOf(s));
  const scale = CHART_PX / Math.max(balance.cycleMinutes, balance.taktMinutes ?? 0, 1e-9) / 1.1;
  const drop = (stationId: number | null) => (e: DragEvent) => {
    const id = Number(e.dataTransfer.getData('text/plain'));
    if (!id) return;
    e.preventDefault();
    moveTo(id, stationId);
  };
  const move = (id: number) => (step: -1 | 1) => {
    moveBy(id, step);
    refocus(`[data-operation-id="${id}"]`);
  };
  return (
    <section className="card">
      <h2>Диаграмма Ямадзуми</h2>
      <p className="muted">
        Перетащите операцию на станцию или выберите её и нажмите ← / → (левее первой станции — вне линии). Цвет:{' '}
        <span style={{ color: COLORS.main }}>основная</span>, <span style={{ color: COLORS.aux }}>вспомогательная</span>.
      </p>
      <div className="line-pool" data-testid="line-pool" onDragOver={(e) => e.preventDefault()} onDrop={drop(null)} aria-label="Операции вне линии">
        <span className="muted">Вне линии:</span>
        {unplaced.length === 0 && <span className="muted"> все операции на станциях</span>}
        {unplaced.map((o) => (
          <OperationBlock
            key={o.operation_id}
            op={{ id: o.operation_id, name: o.name, category: o.category, minutes: o.minutes }}
            onMove={move(o.operation_id)}
          />
        ))}
      </div>
      <div className="yamazumi" style={{ height: CHART_PX + 40 }}>
        {balance.taktMinutes !== null && (
          <div className="yamazumi-takt" style={{ bottom: 40 + balance.taktMinutes * scale }} data-testid="line-takt-line">
            такт {num(balance.taktMinutes, 2)} мин
          </div>
        )}
        {stationsOf(line, layoutOf(s)).map((station, k) => (
          <div
            key={station.id}
            className="yamazumi-station"
            data-testid="line-station"
            data-workplace-id={station.id}
            onDragOver={(e) => e.preventDefault()}
            onDrop={drop(station.id)}
          >
            <div className="yamazumi-stack">
              {station.operations.map((op) => (
                <OperationBlock key={op.id} op={op} height={Math.max(2, op.minutes * scale)} onMove={move(op.id)} />
              ))}
            </div>
            <div className="yamazumi-label">
              {k + 1}. {station.name}
              <br />
              <span data-testid="line-station-total">{num(balance.stations[k]!.minutes, 2)} мин</span>
            </div>
          </div>
        ))}
      </div>
    </section>
  );
}

function Scenarios() {
  const s = useSnapshot(lineState);
  const canWrite = useAllows('workspace.write');
  const [name, setName] = useState('');
  const line = (s.card as NormCard).card.line;
  const rows = [
    ...(s.mode === 'line' ? [{ key: 'current', name: 'Текущая линия', demand: s.demand, layout: layoutOf(s), scenario: null }] : []),
    ...s.scenarios.map((sc) => ({ key: String(sc.id), name: sc.name, demand: sc.demand, layout: scenarioLayout(sc), scenario: sc })),
  ];
  return (
    <section className="card">
      <h2 data-pdf="heading">Сценарии линии</h2>
      {rows.length === 0 && <p className="muted">Сохранённых линий нет.</p>}
      {rows.length > 0 && (
        <table className="data-table compact" data-testid="line-scenarios" data-pdf="table">
          <TableHead titles={['Сценарий', 'Станций', 'Потребность', 'Цикл, мин', 'Эффективность', 'Мин. станций']} />
          <tbody>
            {rows.map((r) => {
              const b = balanceOf(line, r.layout, r.demand);
              return (
                <tr key={r.key}>
                  <td>{r.name}</td>
                  <td>{b.stations.length}</td>
                  <td>{num(r.demand, 2)}</td>
                  <td>{num(b.cycleMinutes, 3)}</td>
                  <td>{b.efficiency === null ? '—' : pct(b.efficiency * 100, 1)}</td>
                  <td>{b.minimumStations ?? '—'}</td>
                  <td>
                    {r.scenario && (
                      <button type="button" className="button secondary" aria-label={`Открыть сценарий «${r.name}»`} onClick={() => loadScenario(r.scenario!)}>
                        Открыть
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {canWrite && s.mode === 'line' && (
        <form
          className="line-save"
          onSubmit={(e) => {
            e.preventDefault();
            if (!name.trim()) {
              lineState.error = 'Введите название сценария';
              return;
            }
            void saveScenario(name.trim()).then((ok) => ok && setName(''));
          }}
        >
          <label>
            Название сценария
            <input value={name} onChange={(e) => setName(e.target.value)} maxLength={200} />
          </label>
          <button type="submit" className="button" disabled={s.stations.length === 0}>
            Сохранить сценарий
          </button>
        </form>
      )}
    </section>
  );
}
