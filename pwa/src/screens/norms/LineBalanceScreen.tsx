import { useEffect, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { Link } from 'wouter';
import { useSnapshot } from 'valtio';
import type { NormCard } from '../../api/types';
import { useAllows } from '../../state/login';
import { Banner } from '../../ui/Banner';
import { ExportButtons } from '../reports/ExportButtons';
import { num, pct } from '../reports/format';
import { PdfDownload } from '../reports/PdfDownload';
import { stationsTable } from './exportTables';
import { parseRu } from './normsState';
import { balanceOf, initialAssignment, lineState, loadScenario, moveBy, moveTo, openLine, saveScenario, stationsOf } from './lineState';
import './norms.css';

const COLORS = { main: '#2e7d32', aux: '#1976d2', loss: '#d32f2f' } as const;
const CATEGORY = { main: 'основная', aux: 'вспомогательная', loss: 'потери' } as const;
const CHART_PX = 320;

/**
 * `/norms/{structureId}/line/{cardId}` (issue 29, docs/norms.md «Баланс линии»): Yamazumi — work
 * content per unit of each workplace, stacked by operation and coloured by category, against the
 * takt; an operation moves by drag and drop or by ←/→ on the focused block, and line efficiency,
 * balance delay and minimum stations follow at once. Scenarios are saved and compared.
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
  const line = card.card.line;
  const balance = balanceOf(line, s.assignment, s.demand);
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
        <section className="card line-figures" data-testid="line-figures">
          <label>
            Потребность за смену, шт.
            <input
              inputMode="decimal"
              defaultValue={String(s.demand).replace('.', ',')}
              key={`demand-${s.demand}`}
              onBlur={(e) => {
                const v = parseRu(e.target.value);
                if (v !== null && v > 0) lineState.demand = v;
              }}
              data-testid="line-demand"
            />
          </label>
          <dl>
            <dt>Σt на единицу</dt>
            <dd data-testid="line-total">{num(balance.totalMinutes, 3)} мин</dd>
            <dt>Цикл C (самое загруженное место)</dt>
            <dd data-testid="line-cycle">{num(balance.cycleMinutes, 3)} мин</dd>
            <dt>Такт</dt>
            <dd data-testid="line-takt">{balance.taktMinutes === null ? '—' : `${num(balance.taktMinutes, 3)} мин`}</dd>
            <dt>Эффективность линии Σt / (N · C)</dt>
            <dd data-testid="line-efficiency">{balance.efficiency === null ? '—' : pct(balance.efficiency * 100, 1)}</dd>
            <dt>Потери на балансировку</dt>
            <dd data-testid="line-delay">{balance.balanceDelay === null ? '—' : pct(balance.balanceDelay * 100, 1)}</dd>
            <dt>Минимум рабочих мест ⌈Σt / такт⌉</dt>
            <dd data-testid="line-min-stations">{balance.minimumStations ?? '—'}</dd>
          </dl>
          <p className="muted" data-pdf="text">
            {`Потребность ${num(s.demand, 2)} шт./смену; Σt ${num(balance.totalMinutes, 3)} мин; цикл C ${num(balance.cycleMinutes, 3)} мин; такт ${balance.taktMinutes === null ? '—' : `${num(balance.taktMinutes, 3)} мин`}; эффективность ${balance.efficiency === null ? '—' : pct(balance.efficiency * 100, 1)}; потери на балансировку ${balance.balanceDelay === null ? '—' : pct(balance.balanceDelay * 100, 1)}; минимум мест ${balance.minimumStations ?? '—'}.`}
          </p>
        </section>
        <Chart />
        <section className="card">
          <div className="norm-table-head">
            <h2 data-pdf="heading">Рабочие места</h2>
            <ExportButtons table={() => stationsTable(line, s.assignment, balance)} fileBase={`Баланс линии ${card.title}`} />
          </div>
          <div className="table-scroll" data-pdf="table">
            <table className="data-table compact" data-testid="line-stations">
              <thead>
                <tr>
                  {stationsTable(line, s.assignment, balance).columns.map((c) => (
                    <th key={c}>{c}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {stationsTable(line, s.assignment, balance).rows.map((row, k) => (
                  <tr key={k}>
                    {row.map((v, i) => (
                      <td key={i}>{typeof v === 'number' ? num(v, 3) : v}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
        <Scenarios />
      </div>
    </div>
  );
}

function Chart() {
  const s = useSnapshot(lineState);
  const line = (s.card as NormCard).card.line;
  const balance = balanceOf(line, s.assignment, s.demand);
  const scale = CHART_PX / Math.max(balance.cycleMinutes, balance.taktMinutes ?? 0, 1e-9) / 1.1;
  const drop = (workplaceId: number) => (e: DragEvent) => {
    e.preventDefault();
    const id = Number(e.dataTransfer.getData('text/plain'));
    if (id) moveTo(id, workplaceId);
  };
  const keys = (operationId: number) => (e: KeyboardEvent) => {
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      e.preventDefault();
      moveBy(operationId, e.key === 'ArrowLeft' ? -1 : 1);
    }
  };
  // Keep the moved block focused, so that the keys can move it on.
  useEffect(() => {
    if (s.selected !== null) document.querySelector<HTMLElement>(`[data-operation-id="${s.selected}"]`)?.focus();
  }, [s.selected, s.assignment]);
  return (
    <section className="card">
      <h2>Диаграмма Ямадзуми</h2>
      <p className="muted">
        Перетащите операцию на другое рабочее место или выберите её и нажмите ← / →. Цвет: <span style={{ color: COLORS.main }}>основная</span>,{' '}
        <span style={{ color: COLORS.aux }}>вспомогательная</span>, <span style={{ color: COLORS.loss }}>потери</span>.
      </p>
      <div className="yamazumi" style={{ height: CHART_PX + 40 }}>
        {balance.taktMinutes !== null && (
          <div className="yamazumi-takt" style={{ bottom: 40 + balance.taktMinutes * scale }} data-testid="line-takt-line">
            такт {num(balance.taktMinutes, 2)} мин
          </div>
        )}
        {stationsOf(line, s.assignment).map((station, k) => (
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
                <div
                  key={op.id}
                  className="yamazumi-op"
                  data-testid="line-op"
                  data-operation-id={op.id}
                  tabIndex={0}
                  draggable
                  role="button"
                  aria-label={`${op.name}, ${CATEGORY[op.category]}, ${num(op.minutes, 3)} мин`}
                  title={`${op.name}: ${num(op.minutes, 3)} мин`}
                  style={{ height: Math.max(2, op.minutes * scale), background: COLORS[op.category] }}
                  onDragStart={(e) => e.dataTransfer.setData('text/plain', String(op.id))}
                  onFocus={() => (lineState.selected = op.id)}
                  onKeyDown={keys(op.id)}
                >
                  {op.minutes * scale > 14 ? op.name : ''}
                </div>
              ))}
            </div>
            <div className="yamazumi-label">
              {station.name}
              <br />
              {num(balance.stations[k]!.minutes, 2)} мин
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
    { key: 'current', name: 'Текущий', demand: s.demand, assignment: s.assignment as Record<number, number>, scenario: null },
    ...s.scenarios.map((sc) => ({
      key: String(sc.id),
      name: sc.name,
      demand: sc.demand,
      assignment: { ...initialAssignment(line), ...Object.fromEntries(sc.assignment.map((a) => [a.operation_id, a.workplace_id])) },
      scenario: sc,
    })),
  ];
  return (
    <section className="card">
      <h2 data-pdf="heading">Сценарии</h2>
      <table className="data-table compact" data-testid="line-scenarios" data-pdf="table">
        <thead>
          <tr>
            <th>Сценарий</th>
            <th>Потребность</th>
            <th>Цикл, мин</th>
            <th>Эффективность</th>
            <th>Мин. мест</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const b = balanceOf(line, r.assignment, r.demand);
            return (
              <tr key={r.key}>
                <td>{r.name}</td>
                <td>{num(r.demand, 2)}</td>
                <td>{num(b.cycleMinutes, 3)}</td>
                <td>{b.efficiency === null ? '—' : pct(b.efficiency * 100, 1)}</td>
                <td>{b.minimumStations ?? '—'}</td>
                <td>
                  {r.scenario && (
                    <button type="button" className="button secondary" onClick={() => loadScenario(r.scenario!)}>
                      Открыть
                    </button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {canWrite && (
        <form
          className="line-save"
          onSubmit={(e) => {
            e.preventDefault();
            if (name.trim()) void saveScenario(name.trim()).then(() => setName(''));
          }}
        >
          <label>
            Название сценария
            <input value={name} onChange={(e) => setName(e.target.value)} maxLength={200} />
          </label>
          <button type="submit" className="button">
            Сохранить сценарий
          </button>
        </form>
      )}
    </section>
  );
}
