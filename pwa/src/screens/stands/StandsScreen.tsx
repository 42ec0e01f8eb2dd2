import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { api } from '../../api/client';
import type { AbsoluteLocationBody, Stand, StandsBody } from '../../api/types';
import { useAllows } from '../../state/login';
import { notify } from '../../status/notifications';
import { Banner } from '../../ui/Banner';
import { coordinateColumns, LocationTable } from '../../ui/LocationTable';
import { VISION_MESSAGES } from '../../../../workers/src/vision/messages';
import '../models/vision.css';

const KIND_TEXT: Record<Stand['kind'], string> = { stand: 'Стенд', basis: 'Базис' };

/**
 * /models-stands/{structureId} (spec 02 «Stand/base editor»): the organisation's stands and bases;
 * a Базис has its point (x, y) in this structure (an absolute location).
 */
export function StandsScreen({ structureId: structureIdParam }: { structureId: string }) {
  const structureId = Number(structureIdParam);
  const canWrite = useAllows('workspace.write');
  const [stands, setStands] = useState<Stand[] | null>(null);
  const [organizationId, setOrganizationId] = useState<number | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [kind, setKind] = useState<'' | Stand['kind']>('');
  const [name, setName] = useState('');
  const [x, setX] = useState('');
  const [y, setY] = useState('');
  const [busy, setBusy] = useState(false);

  const load = useCallback(
    () =>
      api.get('/api/v1/all_stands', { query: { structure_id: structureId }, quiet: true }).then(
        (reply) => setStands(reply.stands),
        (err: unknown) => setLoadError(err instanceof Error ? err.message : String(err)),
      ),
    [structureId],
  );
  useEffect(() => {
    void load();
    api.get('/api/v1/whoami', { quiet: true }).then(
      (user) => 'organization' in user && setOrganizationId(user.organization.id),
      () => {},
    );
  }, [load]);

  const save = (body: Omit<StandsBody, 'organization_id'>) => {
    const full: StandsBody = { organization_id: organizationId ?? 0, ...body };
    return api.post('/api/v1/stands', { body: full });
  };

  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (!kind) return notify('error', VISION_MESSAGES.chooseStand);
    if (!name.trim()) return notify('error', VISION_MESSAGES.needName);
    if (kind === 'basis' && (x.trim() === '' || y.trim() === '' || !Number.isFinite(Number(x)) || !Number.isFinite(Number(y))))
      return notify('error', VISION_MESSAGES.needPoint);
    setBusy(true);
    try {
      const before = new Set((stands ?? []).map((s) => s.id));
      const reply = await save({ changed_stands: [{ name: name.trim(), kind }] });
      const created = reply.stands.find((s) => !before.has(s.id) && s.name === name.trim());
      if (kind === 'basis' && created) {
        const body: AbsoluteLocationBody = { stand_id: created.id, structure_id: structureId, x: Number(x), y: Number(y) };
        await api.post('/api/v1/absolute_location', { body });
      }
      notify('success', `${KIND_TEXT[kind]} «${name.trim()}» добавлен`);
      setName('');
      setX('');
      setY('');
    } catch {
      // Shown by the API client.
    } finally {
      setBusy(false);
    }
    await load();
  };

  const remove = async (stand: Stand) => {
    try {
      await save({ stands_to_delete: [stand.id] });
    } catch {
      // Shown by the API client.
    }
    await load();
  };

  if (loadError) {
    return (
      <section className="screen">
        <h1>Стенды и базисы</h1>
        <Banner text={loadError} />
      </section>
    );
  }
  return (
    <section className="screen vision-screen">
      <h1>Стенды и базисы</h1>
      <p className="muted">Стенды и базисы общие для организации; точка базиса (x, y) задаётся для этой структуры.</p>
      <LocationTable
        rows={stands}
        columns={[{ title: 'Тип', value: (s) => KIND_TEXT[s.kind] }, ...coordinateColumns('x', 'y')]}
        empty="Стендов пока нет."
        canWrite={canWrite}
        noun={(s) => KIND_TEXT[s.kind].toLowerCase()}
        onDelete={(stand) => void remove(stand)}
        testId="stands-table"
        rowTestId="stand-row"
      />
      {canWrite && (
        <form className="vision-form" onSubmit={add} aria-label="Новый стенд или базис" data-testid="stand-form">
          <div className="row">
            <label>
              Тип
              <select value={kind} onChange={(e) => setKind(e.target.value as '' | Stand['kind'])}>
                <option value="">— выберите —</option>
                <option value="stand">Стенд</option>
                <option value="basis">Базис</option>
              </select>
            </label>
            <label className="grow">
              Имя
              <input value={name} maxLength={200} onChange={(e) => setName(e.target.value)} />
            </label>
            {kind === 'basis' && (
              <>
                <label className="narrow">
                  x
                  <input type="number" step="any" value={x} onChange={(e) => setX(e.target.value)} />
                </label>
                <label className="narrow">
                  y
                  <input type="number" step="any" value={y} onChange={(e) => setY(e.target.value)} />
                </label>
              </>
            )}
          </div>
          <button type="submit" className="button" disabled={busy || organizationId === null}>
            Добавить
          </button>
        </form>
      )}
    </section>
  );
}
