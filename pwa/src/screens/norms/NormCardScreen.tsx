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
import { approve, createDraft, loadApprovers, normsState, openStructure, saveParams, selectVersion, setApprover, toggleChosen } from './normsState';
import './norms.css';

/** A number typed the Russian way ("12,5"); empty → null; anything else → NaN. */
export function parseRu(text: string): number | null {
  const t = text.trim().replace(/\s/g, '').replace(',', '.');
  if (t === '') return null;
  return /^\d+(\.\d+)?$/.test(t) ? Number(t) : NaN;
}
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
              <tr key={o.operation_id} className={o.enough && !o.unstable ? undefined : 'norm-thin'}>
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
                <td className="muted">{o.source}</td>
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

function ParamsForm({ card }: { card: NormCard }) {
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
  const [problem, setProblem] = useState<string | null>(null);
  const set = (name: keyof typeof fields) => (e: { target: { value: string } }) => setFields({ ...fields, [name]: e.target.value });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const v = Object.fromEntries(Object.entries(fields).map(([k, text]) => [k, parseRu(text)])) as Record<keyof typeof fields, number | null>;
    const units = card.card.operations.map((o) => ({ operation_id: o.operation_id, times_per_unit: parseRu(times[o.operation_id] ?? '') ?? 0 }));
    const allowances = [v.pz, v.service, v.rest];
    const bad = [...Object.values(v), ...units.map((u) => u.times_per_unit)].some((x) => Number.isNaN(x));
    if (bad) return setProblem('Числа вводятся цифрами, дробная часть — через запятую');
    if (allowances.some((a) => a === null) && allowances.some((a) => a !== null)) return setProblem('Нормативы организации: заполните все три или ни одного');
    setProblem(null);
    const params: NormParams = {
      ...p,
      rating_percent: v.rating_percent ?? 100,
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
  return (
    <form className="norm-params" onSubmit={submit} data-testid="norm-params">
      <h3>Параметры черновика</h3>
      <fieldset>
        <legend>Состав единицы: раз на единицу</legend>
        {card.card.operations.map((o) => (
          <label key={o.operation_id}>
            {o.name}
            <input inputMode="decimal" value={times[o.operation_id] ?? ''} onChange={(e) => setTimes({ ...times, [o.operation_id]: e.target.value })} />
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Партия и план</legend>
        {input('batch_size', 'Размер партии, шт.')}
        {input('batch_prep_minutes', 'Тпз на партию, мин')}
        {input('plan_units', 'План выпуска, шт.')}
        {input('plan_shifts', 'Смен в периоде плана')}
        {input('plan_fulfilment', 'K_вн (1 = 100 %)')}
        {input('rating_percent', 'Оценка темпа, % (50–200; 100 — без оценки)')}
      </fieldset>
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
