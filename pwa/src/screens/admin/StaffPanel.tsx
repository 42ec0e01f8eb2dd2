import { TableHead } from '../../ui/TableHead';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import type { AdminCamera, CameraCreate, NamedItem } from '../../api/types';
import { notify } from '../../status/notifications';
import { Banner } from '../../ui/Banner';
import { CameraStreamPanel } from './CameraStream';

const KEYS = [1, 2, 3, 4];

function NamedRow({ item, kind, onChanged }: { item: NamedItem; kind: 'employees' | 'workplaces'; onChanged: () => Promise<void> }) {
  const [name, setName] = useState(item.name);
  const rename = async () => {
    try {
      await api.put(`/api/v1/admin/${kind}/{id}`, { path: { id: item.id }, body: { name } });
      notify('success', 'Сохранено');
    } catch {
      // Shown by the API client.
    }
    await onChanged();
  };
  const remove = async () => {
    try {
      const reply = await api.delete(`/api/v1/admin/${kind}/{id}`, { path: { id: item.id } });
      notify('success', reply.message);
    } catch {
      // Shown by the API client (409: it is in the markup).
    }
    await onChanged();
  };
  return (
    <li className="inline-edit">
      <input aria-label={`Название: ${item.name}`} value={name} onChange={(e) => setName(e.target.value)} />
      <button type="button" className="button secondary small" disabled={!name.trim() || name.trim() === item.name} onClick={() => void rename()}>
        Переименовать
      </button>
      <button type="button" className="button danger secondary small" onClick={() => void remove()} aria-label={`Удалить «${item.name}»`}>
        Удалить
      </button>
    </li>
  );
}

/** Employees or workplaces of a structure: add, rename, delete (not when the markup names them). */
function NamedList({
  structureId,
  kind,
  title,
  addLabel,
  onCountChanged,
}: {
  structureId: number;
  kind: 'employees' | 'workplaces';
  title: string;
  addLabel: string;
  onCountChanged: () => Promise<void>;
}) {
  const [items, setItems] = useState<NamedItem[] | null>(null);
  const [name, setName] = useState('');
  const reload = useCallback(async () => {
    try {
      setItems(await api.get(`/api/v1/${kind}`, { query: { structure_id: structureId } }));
    } catch {
      setItems([]);
    }
  }, [structureId, kind]);
  useEffect(() => {
    void reload();
  }, [reload]);
  const changed = async () => {
    await reload();
    await onCountChanged();
  };
  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return;
    try {
      await api.post(`/api/v1/admin/${kind}`, { body: { structure_id: structureId, name } });
      setName('');
    } catch {
      // Shown by the API client.
    }
    await changed();
  };
  return (
    <div className="staff-list" data-testid={`admin-${kind}`}>
      <h3>{title}</h3>
      {items?.length === 0 && <p className="muted small">Пока нет.</p>}
      <ul className="plain-list">
        {items?.map((item) => (
          <NamedRow key={`${item.id}-${item.name}`} item={item} kind={kind} onChanged={changed} />
        ))}
      </ul>
      <form className="inline-edit" onSubmit={add}>
        <input aria-label={addLabel} placeholder={addLabel} value={name} onChange={(e) => setName(e.target.value)} />
        <button type="submit" className="button small" disabled={!name.trim()}>
          Добавить
        </button>
      </form>
    </div>
  );
}

function CameraRow({ camera, onChanged }: { camera: AdminCamera; onChanged: () => Promise<void> }) {
  const [draft, setDraft] = useState({ camera_key: camera.camera_key, name: camera.name, storage_folder: camera.storage_folder });
  const changed = draft.camera_key !== camera.camera_key || draft.name !== camera.name || draft.storage_folder !== camera.storage_folder;
  const [streamOpen, setStreamOpen] = useState(false);
  const save = async () => {
    try {
      await api.put('/api/v1/admin/cameras/{id}', { path: { id: camera.id }, body: draft });
      notify('success', 'Камера сохранена');
    } catch {
      // Shown by the API client.
    }
    await onChanged();
  };
  const remove = async () => {
    try {
      const reply = await api.delete('/api/v1/admin/cameras/{id}', { path: { id: camera.id } });
      notify('success', reply.message);
    } catch {
      // Shown by the API client (409: it has videos).
    }
    await onChanged();
  };
  return (
    <>
      <tr>
        <td data-label="№">
          <select
            aria-label={`Камера ${camera.name}: номер`}
            value={draft.camera_key}
            onChange={(e) => setDraft({ ...draft, camera_key: Number(e.target.value) })}
          >
            {KEYS.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </td>
        <td className="fit-wide" data-label="Название">
          <input aria-label={`Камера ${camera.name}: название`} value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} />
        </td>
        <td className="fit-wide" data-label="Папка хранилища">
          <input
            aria-label={`Камера ${camera.name}: папка`}
            value={draft.storage_folder}
            onChange={(e) => setDraft({ ...draft, storage_folder: e.target.value })}
          />
        </td>
        <td className="number" data-label="Видео">
          {camera.videos}
        </td>
        <td className="row-actions fit-actions">
          <button type="button" className="button secondary small" disabled={!changed} onClick={() => void save()}>
            Сохранить
          </button>
          <button type="button" className="button secondary small" aria-expanded={streamOpen} onClick={() => setStreamOpen(!streamOpen)}>
            Поток
          </button>
          <button type="button" className="button danger secondary small" onClick={() => void remove()}>
            Удалить
          </button>
        </td>
      </tr>
      {streamOpen && (
        <tr>
          <td colSpan={5}>
            <CameraStreamPanel cameraId={camera.id} cameraName={camera.name} />
          </td>
        </tr>
      )}
    </>
  );
}

/** Cameras of a structure: key 1–4 (unique in the structure), name, storage folder of recordings. */
function Cameras({ structureId, onCountChanged }: { structureId: number; onCountChanged: () => Promise<void> }) {
  const [cameras, setCameras] = useState<AdminCamera[] | null>(null);
  const [draft, setDraft] = useState({ camera_key: 1, name: '', storage_folder: '' });
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(async () => {
    try {
      const list = await api.get('/api/v1/admin/cameras', { query: { structure_id: structureId } });
      setCameras(list);
      const free = KEYS.find((k) => !list.some((c) => c.camera_key === k)) ?? 1;
      setDraft({ camera_key: free, name: `Камера ${free}`, storage_folder: `recordings/s${structureId}/cam${free}` });
    } catch {
      setCameras([]);
    }
  }, [structureId]);
  useEffect(() => {
    void reload();
  }, [reload]);
  const changed = async () => {
    await reload();
    await onCountChanged();
  };
  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (!draft.name.trim() || !draft.storage_folder.trim()) {
      setError('Укажите название и папку хранилища');
      return;
    }
    setError(null);
    try {
      await api.post('/api/v1/admin/cameras', { body: { structure_id: structureId, ...draft } satisfies CameraCreate });
    } catch {
      // Shown by the API client.
    }
    await changed();
  };
  return (
    <div className="staff-list cameras" data-testid="admin-cameras">
      <h3>Камеры</h3>
      {cameras && cameras.length > 0 && (
        <div className="table-scroll fit-scope">
          <table className="data-table compact fit-table cameras-table">
            <TableHead titles={['№', 'Название', 'Папка хранилища', 'Видео']} />
            <tbody>
              {cameras.map((c) => (
                <CameraRow key={`${c.id}-${c.camera_key}-${c.name}-${c.storage_folder}`} camera={c} onChanged={changed} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {cameras?.length === 0 && <p className="muted small">Камер пока нет.</p>}
      {cameras && cameras.length < 4 && (
        <form className="row" onSubmit={add} aria-label="Новая камера">
          <label>
            Номер
            <select value={draft.camera_key} onChange={(e) => setDraft({ ...draft, camera_key: Number(e.target.value) })}>
              {KEYS.map((k) => (
                <option key={k} value={k} disabled={cameras.some((c) => c.camera_key === k)}>
                  {k}
                </option>
              ))}
            </select>
          </label>
          <label>
            Название камеры
            <input value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} />
          </label>
          <label>
            Папка хранилища
            <input value={draft.storage_folder} onChange={(e) => setDraft({ ...draft, storage_folder: e.target.value })} />
          </label>
          <button type="submit" className="button small">
            Добавить камеру
          </button>
        </form>
      )}
      <p className="muted small">Загрузчик и синхронизация ищут записи камеры в её папке хранилища; папка не может совпадать с папкой другой камеры.</p>
      <Banner text={error} />
    </div>
  );
}

/** Employees, workplaces and cameras of one structure. */
export function StaffPanel({ structureId, name, onCountChanged }: { structureId: number; name: string; onCountChanged: () => Promise<void> }) {
  return (
    <section className="card admin-section" aria-labelledby="staff-title">
      <h2 id="staff-title">«{name}»: сотрудники, рабочие места, камеры</h2>
      <div className="staff-grid">
        <NamedList structureId={structureId} kind="employees" title="Сотрудники" addLabel="Новый сотрудник (ФИО)" onCountChanged={onCountChanged} />
        <NamedList structureId={structureId} kind="workplaces" title="Рабочие места" addLabel="Новое рабочее место" onCountChanged={onCountChanged} />
      </div>
      <Cameras structureId={structureId} onCountChanged={onCountChanged} />
      <p className="muted small">
        Операции, смены и параметры отчёта настраиваются на странице проекта: <a href={`#/projects/${structureId}`}>открыть</a>.
      </p>
    </section>
  );
}
