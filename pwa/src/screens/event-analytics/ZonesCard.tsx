import { type FormEvent, useState } from 'react';
import { useSnapshot } from 'valtio';
import type { EventZone } from '../../api/types';
import { type EventAnalytics, zoneRoleName } from '../../state/eventAnalytics';
import { Banner } from '../../ui/Banner';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { TableHead } from '../../ui/TableHead';
import { PlanView, type PlanBounds } from './PlanView';

type Point = [number, number];
type Role = EventZone['role'];

const shapeText = (zone: EventZone) =>
  zone.shape.type === 'circle'
    ? `круг: центр ${zone.shape.center.join('; ')} м, радиус ${zone.shape.radius} м`
    : `многоугольник: ${zone.shape.points.length} точек`;

const num = (text: string) => (text.trim() === '' ? NaN : Number(text.replace(',', '.')));

/** A zone's row: its name (editable for writers), role, shape and deletion. */
function ZoneRow({ store, zone, canWrite }: { store: EventAnalytics; zone: EventZone; canWrite: boolean }) {
  const [name, setName] = useState(zone.name);
  const snap = useSnapshot(store.state);
  const key = `zone:${zone.id}`;
  return (
    <tr data-testid="zone-row">
      <td>
        {canWrite ? <input value={name} maxLength={100} aria-label={`Название зоны ${zone.name}`} onChange={(e) => setName(e.target.value)} /> : zone.name}
        {snap.errors[key] && <span className="field-error">{snap.errors[key]}</span>}
      </td>
      <td>{zoneRoleName(zone.role)}</td>
      <td>{shapeText(zone)}</td>
      <td className="row-actions">
        {canWrite && name !== zone.name && (
          <button type="button" className="button small" onClick={() => void store.renameZone(zone, name)}>
            Сохранить
          </button>
        )}
        {canWrite && (
          <ConfirmButton question={`Удалить зону «${zone.name}»?`} label={`Удалить зону ${zone.name}`} onConfirm={() => void store.deleteZone(zone.id)} />
        )}
      </td>
    </tr>
  );
}

/** The hall's zones: the list and, for writers, a new zone — a polygon clicked on the plan or a circle. */
export function ZonesCard({ store, canWrite, bounds }: { store: EventAnalytics; canWrite: boolean; bounds: PlanBounds }) {
  const snap = useSnapshot(store.state);
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('zone');
  const [kind, setKind] = useState<'circle' | 'polygon'>('circle');
  const [centre, setCentre] = useState(['', '']);
  const [radius, setRadius] = useState('1.5');
  const [draft, setDraft] = useState<Point[]>([]);
  const [local, setLocal] = useState<string | null>(null);
  const zones = snap.zones as EventZone[];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    let shape: NonNullable<EventZone['shape']>;
    if (kind === 'circle') {
      const [x, y, r] = [num(centre[0]!), num(centre[1]!), num(radius)];
      if (![x, y, r].every(Number.isFinite)) return setLocal('Введите центр круга и радиус числами, в метрах');
      shape = { type: 'circle', center: [x, y], radius: r };
    } else {
      if (draft.length < 3) return setLocal('Нажмите на плане не меньше трёх точек многоугольника');
      shape = { type: 'polygon', points: draft };
    }
    setLocal(null);
    if (await store.addZone({ name, role, shape })) {
      setName('');
      setDraft([]);
    }
  };
  const pick = (p: Point) => {
    if (kind === 'polygon') setDraft([...draft, p]);
    else setCentre([String(p[0]), String(p[1])]);
  };
  return (
    <section className="card" aria-labelledby="zones-title">
      <h2 id="zones-title">Зоны зала</h2>
      <div className="table-scroll">
        <table data-testid="zones-table">
          <TableHead titles={['Название', 'Роль', 'Форма']} />
          <tbody>
            {zones.map((z) => (
              <ZoneRow key={`${z.id}:${z.updated_at}`} store={store} zone={z} canWrite={canWrite} />
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
        <form className="event-zone-form" onSubmit={(e) => void submit(e)} aria-label="Новая зона" data-testid="zone-form">
          <div className="row">
            <label>
              Название
              <input value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
            </label>
            <label>
              Роль
              <select value={role} onChange={(e) => setRole(e.target.value as Role)}>
                {(['zone', 'stand', 'safe'] as const).map((r) => (
                  <option key={r} value={r}>
                    {zoneRoleName(r)}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Форма
              <select value={kind} onChange={(e) => setKind(e.target.value as 'circle' | 'polygon')}>
                <option value="circle">Круг</option>
                <option value="polygon">Многоугольник</option>
              </select>
            </label>
          </div>
          {kind === 'circle' ? (
            <div className="row">
              <label>
                Центр x, м
                <input inputMode="decimal" maxLength={12} value={centre[0]} onChange={(e) => setCentre([e.target.value, centre[1]!])} />
              </label>
              <label>
                Центр y, м
                <input inputMode="decimal" maxLength={12} value={centre[1]} onChange={(e) => setCentre([centre[0]!, e.target.value])} />
              </label>
              <label>
                Радиус, м
                <input inputMode="decimal" maxLength={12} value={radius} onChange={(e) => setRadius(e.target.value)} />
              </label>
            </div>
          ) : (
            <p className="muted small">
              Точек: {draft.length}.{' '}
              <button type="button" className="link-button" onClick={() => setDraft([])}>
                Сбросить точки
              </button>
            </p>
          )}
          <p className="muted small">
            {kind === 'circle' ? 'Нажмите на плане, чтобы поставить центр.' : 'Нажимайте на плане точки многоугольника по порядку.'}
          </p>
          <PlanView bounds={bounds} heat={null} zones={zones} draft={draft} onPick={pick} />
          <button type="submit" className="button" disabled={snap.busy.zone}>
            Добавить зону
          </button>
          <Banner text={local ?? snap.errors.zone ?? null} />
        </form>
      )}
    </section>
  );
}
