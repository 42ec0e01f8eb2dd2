import { type FormEvent, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import type { EventZone } from '../../api/types';
import { type EventAnalytics, zoneRoleName } from '../../state/eventAnalytics';
import { Banner } from '../../ui/Banner';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { TableHead } from '../../ui/TableHead';
import { PlanView, type PlanBounds } from './PlanView';
import { draftOf, emptyDraft, saveZone, type StandChoice, useStands, zoneBody, type ZoneDraft } from './zoneEditing';

type Point = [number, number];
type Role = EventZone['role'];

const shapeText = (zone: EventZone) =>
  zone.shape.type === 'circle'
    ? `круг: центр ${zone.shape.center.join('; ')} м, радиус ${zone.shape.radius} м`
    : `многоугольник: ${zone.shape.points.length} точек`;

/** A zone's row: its name (editable for writers), role, stand, shape, «Изменить» and deletion. */
function ZoneRow({
  store,
  zone,
  canWrite,
  stands,
  onEdit,
}: {
  store: EventAnalytics;
  zone: EventZone;
  canWrite: boolean;
  stands: readonly StandChoice[];
  onEdit(zone: EventZone): void;
}) {
  const [name, setName] = useState(zone.name);
  const snap = useSnapshot(store.state);
  const key = `zone:${zone.id}`;
  const stand = zone.stand_id === null ? null : (stands.find((s) => s.id === zone.stand_id)?.name ?? `№ ${zone.stand_id}`);
  return (
    <tr data-testid="zone-row">
      <td>
        {canWrite ? <input value={name} maxLength={100} aria-label={`Название зоны ${zone.name}`} onChange={(e) => setName(e.target.value)} /> : zone.name}
        {snap.errors[key] && <span className="field-error">{snap.errors[key]}</span>}
      </td>
      <td>
        {zoneRoleName(zone.role)}
        {stand && <span className="muted small"> · {stand}</span>}
      </td>
      <td>{shapeText(zone)}</td>
      <td className="row-actions">
        {canWrite && name !== zone.name && (
          <button type="button" className="button small" onClick={() => void store.renameZone(zone, name)}>
            Сохранить
          </button>
        )}
        {canWrite && (
          <button type="button" className="button secondary small" aria-label={`Изменить зону ${zone.name}`} onClick={() => onEdit(zone)}>
            Изменить
          </button>
        )}
        {canWrite && (
          <ConfirmButton question={`Удалить зону «${zone.name}»?`} label={`Удалить зону ${zone.name}`} onConfirm={() => void store.deleteZone(zone.id)} />
        )}
      </td>
    </tr>
  );
}

/** The shape's own fields: a circle's centre and radius, or a polygon's point count with «Перерисовать» / «Сбросить точки». */
function ShapeFields({ draft, set, editing }: { draft: ZoneDraft; set(patch: Partial<ZoneDraft>): void; editing: boolean }) {
  return (
    <>
      {draft.kind === 'circle' ? (
        <div className="row">
          <label>
            Центр x, м
            <input inputMode="decimal" maxLength={12} value={draft.centre[0]} onChange={(e) => set({ centre: [e.target.value, draft.centre[1]] })} />
          </label>
          <label>
            Центр y, м
            <input inputMode="decimal" maxLength={12} value={draft.centre[1]} onChange={(e) => set({ centre: [draft.centre[0], e.target.value] })} />
          </label>
          <label>
            Радиус, м
            <input inputMode="decimal" maxLength={12} value={draft.radius} onChange={(e) => set({ radius: e.target.value })} />
          </label>
        </div>
      ) : (
        <p className="muted small" data-testid="zone-point-count">
          Точек: {draft.points.length}.{' '}
          <button type="button" className="link-button" onClick={() => set({ points: [] })}>
            {editing ? 'Перерисовать' : 'Сбросить точки'}
          </button>
        </p>
      )}
      <p className="muted small">
        {draft.kind === 'circle'
          ? 'Нажмите на плане, чтобы поставить центр; центр можно перетащить.'
          : 'Нажимайте на плане точки многоугольника по порядку; поставленные точки можно перетаскивать.'}
      </p>
    </>
  );
}

/**
 * The zone form: a new zone, or an existing one (`editing`) — name, role, the stand of a stand's zone,
 * and the shape: a circle (centre by a click or dragged on the plan, or typed; radius) or a polygon
 * (points clicked in order; an existing polygon's vertices dragged on the plan, or «Перерисовать»).
 */
function ZoneForm({
  store,
  bounds,
  stands,
  editing,
  onDone,
}: {
  store: EventAnalytics;
  bounds: PlanBounds;
  stands: readonly StandChoice[];
  editing: EventZone | null;
  onDone(): void;
}) {
  const snap = useSnapshot(store.state);
  const [draft, setDraft] = useState<ZoneDraft>(() => (editing ? draftOf(editing) : emptyDraft()));
  const [local, setLocal] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const zones = (snap.zones as EventZone[]).filter((z) => z.id !== editing?.id);
  const set = (patch: Partial<ZoneDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const centre: Point | null = draft.kind === 'circle' ? toPoint(draft.centre) : null;
  const radius = Number(draft.radius.replace(',', '.'));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = zoneBody(draft);
    if ('problem' in result) return setLocal(result.problem);
    setLocal(null);
    if (editing) {
      setSaving(true);
      const problem = await saveZone(store, editing.id, result.body);
      setSaving(false);
      if (problem) return setLocal(problem);
      onDone();
    } else if (await store.addZone(result.body)) {
      setDraft({ ...emptyDraft(), role: draft.role, kind: draft.kind });
    }
  };
  const pick = (p: Point) => {
    if (draft.kind === 'polygon') set({ points: [...draft.points, p] });
    else set({ centre: [String(p[0]), String(p[1])] });
  };
  const move = (index: number, p: Point) => {
    if (draft.kind === 'polygon') setDraft((d) => ({ ...d, points: d.points.map((q, i) => (i === index ? p : q)) }));
    else set({ centre: [String(p[0]), String(p[1])] });
  };
  const title = editing ? `Правка зоны «${editing.name}»` : 'Новая зона';
  return (
    <form className="event-zone-form" onSubmit={(e) => void submit(e)} aria-label={title} data-testid={editing ? 'zone-edit-form' : 'zone-form'}>
      <h3>{title}</h3>
      <div className="row">
        <label>
          Название
          <input value={draft.name} maxLength={100} onChange={(e) => set({ name: e.target.value })} />
        </label>
        <label>
          Роль
          <select value={draft.role} onChange={(e) => set({ role: e.target.value as Role })}>
            {(['zone', 'stand', 'safe'] as const).map((r) => (
              <option key={r} value={r}>
                {zoneRoleName(r)}
              </option>
            ))}
          </select>
        </label>
        {draft.role === 'stand' && (
          <label>
            Стенд
            <select value={draft.standId} aria-label="Стенд зоны" onChange={(e) => set({ standId: e.target.value })}>
              <option value="">— без стенда —</option>
              {stands.map((s) => (
                <option key={s.id} value={String(s.id)}>
                  {s.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <label>
          Форма
          <select value={draft.kind} onChange={(e) => set({ kind: e.target.value as 'circle' | 'polygon' })}>
            <option value="circle">Круг</option>
            <option value="polygon">Многоугольник</option>
          </select>
        </label>
      </div>
      <ShapeFields draft={draft} set={set} editing={editing !== null} />
      <PlanView
        bounds={bounds}
        heat={null}
        zones={zones}
        draft={draft.kind === 'polygon' ? draft.points : centre ? [centre] : []}
        draftClosed={editing !== null && draft.points.length >= 3}
        draftRadius={draft.kind === 'circle' && Number.isFinite(radius) ? radius : null}
        onPick={pick}
        onMove={move}
      />
      <div className="row-actions">
        <button type="submit" className="button" disabled={editing ? saving : snap.busy.zone}>
          {editing ? 'Сохранить зону' : 'Добавить зону'}
        </button>
        {editing && (
          <button type="button" className="button secondary" onClick={onDone}>
            Отменить правку
          </button>
        )}
      </div>
      <Banner text={local ?? (editing ? null : (snap.errors.zone ?? null))} />
    </form>
  );
}

function toPoint(text: readonly [string, string]): Point | null {
  const [x, y] = text.map((v) => (v.trim() === '' ? NaN : Number(v.replace(',', '.'))));
  return Number.isFinite(x) && Number.isFinite(y) ? [x!, y!] : null;
}

/** The hall's zones: the list and, for writers, a new zone or the edit of an existing one on the plan. */
export function ZonesCard({ store, canWrite, bounds }: { store: EventAnalytics; canWrite: boolean; bounds: PlanBounds }) {
  const snap = useSnapshot(store.state);
  const [editing, setEditing] = useState<EventZone | null>(null);
  const form = useRef<HTMLDivElement>(null);
  const stands = useStands(snap.structureId, canWrite);
  const zones = snap.zones as EventZone[];
  const edit = (zone: EventZone) => {
    setEditing(zone);
    requestAnimationFrame(() => form.current?.scrollIntoView({ block: 'start' }));
  };
  return (
    <section className="card" aria-labelledby="zones-title">
      <h2 id="zones-title">Зоны зала</h2>
      <div className="table-scroll">
        <table data-testid="zones-table">
          <TableHead titles={['Название', 'Роль', 'Форма']} />
          <tbody>
            {zones.map((z) => (
              <ZoneRow key={`${z.id}:${z.updated_at}`} store={store} zone={z} canWrite={canWrite} stands={stands} onEdit={edit} />
            ))}
            {zones.length === 0 && (
              <tr>
                <td colSpan={4} className="muted">
                  Зон пока нет.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {canWrite && (
        <div ref={form}>
          <ZoneForm
            // A new form for each zone edited (and a fresh one after): its fields start from that zone.
            key={editing ? `edit:${editing.id}` : 'new'}
            store={store}
            bounds={bounds}
            stands={stands}
            editing={editing}
            onDone={() => setEditing(null)}
          />
        </div>
      )}
    </section>
  );
}
