import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { useSnapshot } from 'valtio';
import type { NormCard, NormParams } from '../../api/types';
import { localDate } from '../../format/time';
import { login, useAllows } from '../../state/login';
import { Banner } from '../../ui/Banner';
import { dmy } from '../projects/period';
import { ExportButtons } from '../reports/ExportButtons';
import { num, pct } from '../reports/format';
import { PdfDownload } from '../reports/PdfDownload';
import { figuresTable, operationsTable } from './exportTables';
import {
  approve,
  createDraft,
  employeeRatings,
  loadApprovers,
  MANUAL_NOTE_MAX,
  MANUAL_SOURCES,
  manualRows,
  manualTimes,
  normsState,
  openStructure,
  parseRu,
  ratingProblem,
  ratingRows,
  saveParams,
  selectVersion,
  setApprover,
  toggleChosen,
  type ManualRow,
  type ManualSource,
  type RatingRow,
} from './normsState';
import './norms.css';

const show = (value: number | null | undefined) => (value === null || value === undefined ? '' : String(value).replace('.', ','));
const CATEGORY = { main: 'основная', aux: 'вспомогательная' } as const;
/** A figure's value as the card shows it: percentages with three decimals, whole headcounts, other figures with four. */
const figureValue = (key: string, unit: string, value: number | null) =>
  unit.startsWith('%') ? pct(value, 3) : num(value, key.startsWith('headcount') && key !== 'headcount_exact' ? 0 : 4);

/**
 * `/norms/{structureId}` (issue 29, docs/norms.md): the structure's norm card — versions and their
 * history, the operations of one unit with their time study, the figures with their sources,
 * basis warnings, differences from the version in force, parameters of a draft and approval.
 */
export function NormCardScreen({ structureId }: { structureId: string }) {
  const s = useSnapshot(normsState);
  useEffect(() => {
    void openStructure(Number(structureId));
  }, [structureId]);
  const card = s.card as NormCard | null;

  return (
    <div className="screen norms-screen">
      <p>
        <Link href={`/projects/${structureId}`}>← к структурной единице</Link>
      </p>
      <h1>Нормы труда{s.list ? `: ${s.list.structure.name}` : ''}</h1>
      <Banner text={s.error} />
      {s.busy && <p aria-busy="true">Загрузка…</p>}
      {s.list && (
        <section className="card">
          <h2>Версии</h2>
          {s.list.versions.length === 0 ? (
            <p className="muted">Карточек нормы пока нет. Соберите черновик из дней наблюдений ниже.</p>
          ) : (
            <ul className="norm-versions" data-testid="norm-versions">
              {s.list.versions.map((v) => (
                <li key={v.id}>
                  <button type="button" className={card?.id === v.id ? 'button' : 'button secondary'} onClick={() => void selectVersion(v.id)}>
                    Версия {v.version}: {v.status === 'approved' ? `утверждена, действует с ${dmy(v.effective_from ?? '')}` : 'черновик'}
                    {v.in_force ? ' (действующая)' : ''}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
      {card && <CardView card={card} />}
      {s.list?.can_edit && <NewDraft />}
      <ApproversPanel />
    </div>
  );
}

function CardView({ card }: { card: NormCard }) {
  const s = useSnapshot(normsState);
  const layout = useRef<HTMLElement>(null);
  const [pdf, setPdf] = useState(false);
  const fileBase = `Норма ${card.title} версия ${card.version}`;
  return (
    <section className="card" data-testid="norm-card" ref={layout}>
      <div className="actions no-print">
        <button type="button" className="button secondary" onClick={() => setPdf(true)} disabled={pdf}>
          PDF карточки
        </button>
        {pdf && <PdfDownload key={`${card.id}-${card.updated_at}`} layout={layout} ready fileName={fileBase} />}
      </div>
      <h2 data-pdf="title">
        {card.title} — {card.status === 'approved' ? 'утверждена' : 'черновик'}
      </h2>
      {card.status === 'approved' && (
        <p data-testid="norm-approval" data-pdf="text">
          Утвердил(а) {card.approved_by_name}, {card.approved_at ? dmy(card.approved_at.slice(0, 10)) : ''}; действует с {dmy(card.effective_from ?? '')}.
        </p>
      )}
      <p>
        <Link href={`/norms/${card.structure_id}/line/${card.id}`} className="button secondary">
          Баланс линии (Ямадзуми)
        </Link>
      </p>
      <p className="muted" data-testid="norm-basis" data-pdf="text">
        Основание: {card.card.basis.text}.
      </p>
      {card.card.warnings.length > 0 && (
        <div className="banner banner-error" role="alert" data-testid="norm-warnings" data-pdf="text">
          <strong>Основание недостаточно:</strong>
          <ul>
            {card.card.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </div>
      )}
      <div className="norm-table-head">
        <h3 data-pdf="heading">Операции единицы продукции</h3>
        <ExportButtons table={() => operationsTable(card)} fileBase={fileBase} />
      </div>
      <div className="table-scroll" data-pdf="table">
        <table className="data-table compact" data-testid="norm-operations">
          <thead>
            <tr>
              <th>Операция</th>
              <th>Вид</th>
              <th>t_reg, мин</th>
              <th>Темп, %</th>
              <th>Ку (норм.)</th>
              <th>Замеры: принято / нужно</th>
              <th>Раз на единицу</th>
              <th>Источник</th>
            </tr>
          </thead>
          <tbody>
            {card.card.operations.map((o) => (
              <tr key={o.operation_id} data-operation-id={o.operation_id} className={o.enough && !o.unstable ? undefined : 'norm-thin'}>
                <td>{o.name}</td>
                <td>{CATEGORY[o.category]}</td>
                <td>{o.t_reg_minutes === null ? 'нет замеров' : num(o.t_reg_minutes, 3)}</td>
                <td>{num(o.rating_percent ?? 100, 1)}</td>
                <td>
                  {num(o.coef, 2)} ({num(o.normative_coef, 2)})
                </td>
                <td>
                  {o.accepted} / {o.required} {o.enough ? '' : '— мало'}
                </td>
                <td>{num(o.times_per_unit, 3)}</td>
                <td className="muted">
                  {o.source}
                  {o.manual?.note ? ` (${o.manual.note})` : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="norm-table-head">
        <h3 data-pdf="heading">Показатели нормы</h3>
        <ExportButtons table={() => figuresTable(card)} fileBase={fileBase} />
      </div>
      <div className="table-scroll" data-pdf="table">
        <table className="data-table compact" data-testid="norm-figures">
          <thead>
            <tr>
              <th>Показатель</th>
              <th>Значение</th>
              <th>Ед.</th>
              <th>Источник</th>
            </tr>
          </thead>
          <tbody>
            {card.card.figures.map((f) => (
              <tr key={f.key} data-key={f.key}>
                <td>{f.label}</td>
                <td>{figureValue(f.key, f.unit, f.value)}</td>
                <td>{f.unit.startsWith('%') ? f.unit.slice(2) : f.unit}</td>
                <td className="muted">{f.source}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {s.diff?.before && <DiffView />}
      {card.can_edit && <ParamsForm key={`${card.id}-${card.updated_at}`} card={card} />}
      {s.changed && <DraftChanged />}
      {card.can_approve && <ApproveForm revision={card.revision} unstable={card.card.unstable ?? []} notCalculated={card.card.not_calculated ?? null} />}
    </section>
  );
}

function DiffView() {
  const { diff } = useSnapshot(normsState);
  if (!diff?.before) return null;
  return (
    <>
      <h3>
        Отличия от версии {diff.before.version}
        {diff.before.in_force ? ' (действующей)' : ''}
      </h3>
      <div className="table-scroll">
        <table className="data-table compact" data-testid="norm-diff">
          <thead>
            <tr>
              <th>Показатель</th>
              <th>Было</th>
              <th>Стало</th>
              <th>Изменение</th>
            </tr>
          </thead>
          <tbody>
            {diff.rows.map((r) => (
              <tr key={r.key} className={r.delta !== null && Math.abs(r.delta) > 1e-9 ? 'norm-changed' : undefined}>
                <td>{r.label}</td>
                <td>{num(r.before, 4)}</td>
                <td>{num(r.after, 4)}</td>
                <td>
                  {r.delta === null ? '—' : `${r.delta > 0 ? '+' : ''}${num(r.delta, 4)}${r.delta_percent === null ? '' : ` (${pct(r.delta_percent, 1)})`}`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** The draft's parameters: unit composition, hand times, shift, batch and plan, ratings, allowances; «Пересчитать» saves them. */
function ParamsForm({ card }: { card: NormCard }) {
  const s = useSnapshot(normsState);
  const p = card.params;
  const [fields, setFields] = useState({
    batch_size: show(p.batch_size),
    batch_prep_minutes: show(p.batch_prep_minutes),
    plan_units: show(p.plan_units),
    plan_shifts: show(p.plan_shifts),
    plan_fulfilment: show(p.plan_fulfilment),
    pz: show(p.normative_allowances?.pz),
    service: show(p.normative_allowances?.service),
    rest: show(p.normative_allowances?.rest),
    rating_percent: show(p.rating_percent ?? 100),
  });
  const [times, setTimes] = useState(() => Object.fromEntries(card.card.operations.map((o) => [o.operation_id, show(o.times_per_unit)])));
  // Operations of the structure added to the unit here, not yet on the card (no measurements in the basis).
  const [added, setAdded] = useState<{ id: number; name: string }[]>([]);
  const [hand, setHand] = useState<ManualRow[]>(() => manualRows(card));
  const [ratings, setRatings] = useState<RatingRow[]>(() => ratingRows(card));
  const [shift, setShift] = useState(p.shift_name ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const set = (name: keyof typeof fields) => (e: { target: { value: string } }) => setFields({ ...fields, [name]: e.target.value });
  const unitRows = [...card.card.operations.map((o) => ({ id: o.operation_id, name: o.name })), ...added];
  const onCard = new Set(unitRows.map((o) => o.id));
  const addOperation = (id: number) => {
    const op = s.operations.find((o) => o.id === id);
    if (!op || onCard.has(id)) return;
    setAdded([...added, { id: op.id, name: op.name }]);
    setTimes({ ...times, [op.id]: '1' });
    setHand([...hand, { operationId: op.id, name: op.name, minutes: '', source: 'mtm', note: '' }]);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const v = Object.fromEntries(Object.entries(fields).map(([k, text]) => [k, parseRu(text)])) as Record<keyof typeof fields, number | null>;
    const units = unitRows.map((o) => ({ operation_id: o.id, times_per_unit: parseRu(times[o.id] ?? '') ?? 0 }));
    const allowances = [v.pz, v.service, v.rest];
    const bad = [...Object.values(v), ...units.map((u) => u.times_per_unit)].some((x) => Number.isNaN(x));
    if (bad) return setProblem('Числа вводятся цифрами, дробная часть — через запятую');
    if (allowances.some((a) => a === null) && allowances.some((a) => a !== null)) return setProblem('Нормативы организации: заполните все три или ни одного');
    const rated = employeeRatings(ratings);
    const typed = manualTimes(hand);
    const problemText = ratingProblem(v.rating_percent, 'Оценка темпа') ?? rated.problem ?? typed.problem;
    if (problemText !== null) return setProblem(problemText);
    setProblem(null);
    // Hand times of operations not in the form (measured now) stay as they were: the API uses the measurements.
    const shown = new Set(hand.map((h) => h.operationId));
    const params: NormParams = {
      ...p,
      rating_percent: v.rating_percent ?? 100,
      employee_ratings: rated.value!,
      manual_times: [...p.manual_times.filter((m) => !shown.has(m.operation_id)), ...typed.value!],
      shift_name: shift === '' ? null : shift,
      unit_operations: units,
      batch_size: v.batch_size,
      batch_prep_minutes: v.batch_prep_minutes,
      plan_units: v.plan_units,
      plan_shifts: v.plan_shifts,
      plan_fulfilment: v.plan_fulfilment ?? 1,
      normative_allowances: v.pz === null ? null : { pz: v.pz, service: v.service!, rest: v.rest! },
    };
    void saveParams(params);
  };
  const input = (name: keyof typeof fields, label: string) => (
    <label>
      {label}
      <input inputMode="decimal" value={fields[name]} onChange={set(name)} name={name} />
    </label>
  );
  const addable = s.operations.filter((o) => !onCard.has(o.id));
  return (
    <form className="norm-params" onSubmit={submit} data-testid="norm-params">
      <h3>Параметры черновика</h3>
      <UnitComposition rows={unitRows} times={times} onTimes={setTimes} addable={addable} onAdd={addOperation} />
      {hand.length > 0 && <ManualTimes rows={hand} onChange={setHand} />}
      <ShiftField value={shift} onChange={setShift} chosen={card.card.balance.shift_name} />
      <fieldset>
        <legend>Партия и план</legend>
        {input('batch_size', 'Размер партии, шт.')}
        {input('batch_prep_minutes', 'Тпз на партию, мин')}
        {input('plan_units', 'План выпуска, шт.')}
        {input('plan_shifts', 'Смен в периоде плана')}
        {input('plan_fulfilment', 'K_вн (1 = 100 %)')}
        {input('rating_percent', 'Оценка темпа, % (50–200; 100 — без оценки)')}
      </fieldset>
      {ratings.length > 0 && <EmployeeRatings rows={ratings} onChange={setRatings} />}
      <fieldset>
        <legend>Нормативы организации, % от Топ (пусто — фактические)</legend>
        {input('pz', 'а_пз')}
        {input('service', 'а_обс')}
        {input('rest', 'а_отл')}
      </fieldset>
      <Banner text={problem} />
      <button type="submit" className="button">
        Пересчитать
      </button>
    </form>
  );
}

/** The unit's composition: times per unit of each operation of the card, and operations of the structure to add. */
function UnitComposition(props: {
  rows: { id: number; name: string }[];
  times: Record<string, string>;
  onTimes: (times: Record<string, string>) => void;
  addable: readonly { id: number; name: string }[];
  onAdd: (id: number) => void;
}) {
  const { rows, times, onTimes, addable, onAdd } = props;
  return (
    <fieldset>
      <legend>Состав единицы: раз на единицу</legend>
      {rows.map((o) => (
        <label key={o.id}>
          {o.name}
          <input inputMode="decimal" value={times[o.id] ?? ''} onChange={(e) => onTimes({ ...times, [o.id]: e.target.value })} />
        </label>
      ))}
      {addable.length > 0 && (
        <label>
          Добавить операцию в единицу
          <select value="" onChange={(e) => onAdd(Number(e.target.value))} name="add_operation">
            <option value="">— выберите операцию —</option>
            {addable.map((o) => (
              <option key={o.id} value={o.id}>
                {o.name}
              </option>
            ))}
          </select>
        </label>
      )}
    </fieldset>
  );
}

/** The shift of the norm (its Тсм): one of the structure's, or the basis's most common one, as the API chose it. */
function ShiftField({ value, onChange, chosen }: { value: string; onChange: (name: string) => void; chosen: string | null }) {
  const { shifts } = useSnapshot(normsState);
  return (
    <fieldset>
      <legend>Смена и Тсм</legend>
      <label>
        Смена нормы
        <select value={value} onChange={(e) => onChange(e.target.value)} name="shift_name">
          <option value="">{`Самая частая в основании${chosen ? ` («${chosen}»)` : ''}`}</option>
          {shifts.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </label>
    </fieldset>
  );
}

/** Times of the unit's operations without measurements, entered by hand with their source (METHODOLOGY §7). */
function ManualTimes({ rows, onChange }: { rows: ManualRow[]; onChange: (rows: ManualRow[]) => void }) {
  const edit = (k: number, change: Partial<ManualRow>) => onChange(rows.map((r, i) => (i === k ? { ...r, ...change } : r)));
  return (
    <fieldset data-testid="norm-manual-times">
      <legend>Время операций без замеров (вводится вручную с источником)</legend>
      <div className="table-scroll">
        <table className="data-table compact">
          <thead>
            <tr>
              <th>Операция</th>
              <th>Время, мин</th>
              <th>Источник</th>
              <th>Примечание</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, k) => (
              <tr key={r.operationId} data-operation-id={r.operationId}>
                <td>{r.name}</td>
                <td>
                  <input inputMode="decimal" aria-label={`Время «${r.name}», мин`} value={r.minutes} onChange={(e) => edit(k, { minutes: e.target.value })} />
                </td>
                <td>
                  <select aria-label={`Источник времени «${r.name}»`} value={r.source} onChange={(e) => edit(k, { source: e.target.value as ManualSource })}>
                    {MANUAL_SOURCES.map((m) => (
                      <option key={m.value} value={m.value}>
                        {m.label}
                      </option>
                    ))}
                  </select>
                </td>
                <td>
                  <input
                    aria-label={`Примечание к «${r.name}»`}
                    value={r.note}
                    maxLength={MANUAL_NOTE_MAX}
                    onChange={(e) => edit(k, { note: e.target.value })}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </fieldset>
  );
}

/** The rating (темп) per employee of the basis; an empty field — the card's common rating. */
function EmployeeRatings({ rows, onChange }: { rows: RatingRow[]; onChange: (rows: RatingRow[]) => void }) {
  return (
    <fieldset data-testid="norm-employee-ratings">
      <legend>Оценка темпа по сотрудникам, % (пусто — общая)</legend>
      <div className="table-scroll">
        <table className="data-table compact">
          <thead>
            <tr>
              <th>Сотрудник</th>
              <th>Темп, %</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, k) => (
              <tr key={r.employeeId}>
                <td>{r.name}</td>
                <td>
                  <input
                    inputMode="decimal"
                    aria-label={`Оценка темпа «${r.name}», %`}
                    value={r.percent}
                    onChange={(e) => onChange(rows.map((x, i) => (i === k ? { ...x, percent: e.target.value } : x)))}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </fieldset>
  );
}

/** The approval refused because the draft changed after it was shown (409): the server's message and what changed. */
function DraftChanged() {
  const { changed } = useSnapshot(normsState);
  if (!changed) return null;
  return (
    <div className="banner banner-error" role="alert" data-testid="norm-changed">
      <p>{changed.message}</p>
      {changed.readRevision !== changed.revision && (
        <p>
          Вы читали ревизию {changed.readRevision}, сейчас — ревизия {changed.revision}.
        </p>
      )}
      {changed.figures.length > 0 && (
        <div className="table-scroll">
          <table className="data-table compact" data-testid="norm-changed-figures">
            <thead>
              <tr>
                <th>Показатель</th>
                <th>Было, когда вы читали</th>
                <th>Стало</th>
                <th>Ед.</th>
              </tr>
            </thead>
            <tbody>
              {changed.figures.map((f) => (
                <tr key={f.key} data-key={f.key}>
                  <td>{f.label}</td>
                  <td>{figureValue(f.key, f.unit, f.before)}</td>
                  <td>{figureValue(f.key, f.unit, f.after)}</td>
                  <td>{f.unit.startsWith('%') ? f.unit.slice(2) : f.unit}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function ApproveForm({ revision, unstable, notCalculated }: { revision: number; unstable: readonly string[]; notCalculated: string | null }) {
  const { timeZone } = useSnapshot(login);
  const { refusal } = useSnapshot(normsState);
  const [date, setDate] = useState(() => localDate(Date.now(), timeZone));
  const [comment, setComment] = useState('');
  return (
    <form
      className="norm-approve"
      onSubmit={(e) => {
        e.preventDefault();
        void approve(date, unstable.length > 0 ? comment.trim() : undefined);
      }}
    >
      <h3>Утверждение</h3>
      <p className="muted" data-testid="norm-revision">
        Утверждается ревизия {revision} черновика — та, что на экране. Если черновик изменят до утверждения, оно не пройдёт и карточка покажет изменения.
      </p>
      {refusal !== null && (
        <p className="banner banner-error" role="alert" data-testid="norm-refused">
          {refusal}
        </p>
      )}
      {notCalculated !== null && (
        <p className="banner banner-error" role="alert" data-testid="norm-not-calculated">
          Карточка {notCalculated}: утвердить её нельзя, пока у каждой операции единицы нет времени.
        </p>
      )}
      <label>
        Действует с
        <input type="date" value={date} onChange={(e) => setDate(e.target.value)} name="effective_from" required />
      </label>
      {unstable.length > 0 && (
        <label>
          Ряд неустойчив ({unstable.map((name) => `«${name}»`).join(', ')}): утверждаю вопреки этому, потому что…
          <textarea value={comment} onChange={(e) => setComment(e.target.value)} name="override_comment" maxLength={1000} required />
        </label>
      )}
      <button type="submit" className="button" data-testid="norm-approve">
        Утвердить норму
      </button>
    </form>
  );
}

function NewDraft() {
  const s = useSnapshot(normsState);
  const names = new Map(s.employees.map((e) => [e.id, e.name]));
  const dates = s.dates?.dates ?? [];
  return (
    <section className="card" data-testid="norm-new">
      <h2>Новое исследование</h2>
      {dates.length === 0 ? (
        <p className="muted">Нет дней с разметкой.</p>
      ) : (
        <>
          <p className="muted">Отметьте дни сотрудников: каждый день — окно отчёта; чем больше дней и сотрудников, тем надёжнее норма.</p>
          <ul className="norm-days">
            {dates.map((date) => (
              <li key={date}>
                <strong>{dmy(date)}</strong>
                {(s.dates?.employees[date] ?? []).map((id) => {
                  const key = `${date}:${id}`;
                  return (
                    <label key={key}>
                      <input type="checkbox" checked={s.chosen.includes(key)} onChange={() => toggleChosen(key)} />
                      {names.get(id) ?? `сотрудник ${id}`}
                    </label>
                  );
                })}
              </li>
            ))}
          </ul>
          <button type="button" className="button" onClick={() => void createDraft()} disabled={s.busy}>
            Собрать черновик ({s.chosen.length})
          </button>
        </>
      )}
    </section>
  );
}

/** Administrators give analysts the right to approve norms (they have it themselves). */
function ApproversPanel() {
  const isAdmin = useAllows('organization.admin');
  const s = useSnapshot(normsState);
  useEffect(() => {
    if (isAdmin) void loadApprovers();
  }, [isAdmin]);
  if (!isAdmin) return null;
  return (
    <section className="card" data-testid="norm-approvers">
      <h2>Кто утверждает нормы</h2>
      <p className="muted">Администратор утверждает всегда; аналитик — если отмечен здесь.</p>
      {s.analysts.length === 0 ? (
        <p className="muted">В организации нет аналитиков.</p>
      ) : (
        <ul className="norm-days">
          {s.analysts.map((u) => (
            <li key={u.id}>
              <label>
                <input type="checkbox" checked={s.approvers.includes(u.id)} onChange={(e) => void setApprover(u.id, e.target.checked)} disabled={s.busy} />
                {`${u.last_name} ${u.first_name}`} — может утверждать нормы
              </label>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
