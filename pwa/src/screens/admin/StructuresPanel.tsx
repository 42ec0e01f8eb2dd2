import { useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import type { AdminStructure } from '../../api/types';
import { notify } from '../../status/notifications';
import { buildTree, type StructureNode } from '../../state/structures';
import { Banner } from '../../ui/Banner';
import { ConfirmButton } from '../../ui/ConfirmButton';

/** The tree flattened in display order, with depth, for lists and parent dropdowns. */
export function flatten(list: AdminStructure[]): { item: AdminStructure; depth: number }[] {
  const byId = new Map(list.map((s) => [s.id, s]));
  const out: { item: AdminStructure; depth: number }[] = [];
  const walk = (nodes: StructureNode[], depth: number) =>
    nodes.forEach((node) => {
      out.push({ item: byId.get(node.id)!, depth });
      walk(node.children, depth + 1);
    });
  walk(buildTree(list), 0);
  return out;
}

/** Ids of a structure and everything under it: not allowed as its new parent. */
export function subtreeIds(list: AdminStructure[], id: number): Set<number> {
  const ids = new Set([id]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const s of list) {
      if (s.parent_id !== null && ids.has(s.parent_id) && !ids.has(s.id)) {
        ids.add(s.id);
        grew = true;
      }
    }
  }
  return ids;
}

function StructureRow({
  item,
  depth,
  list,
  selected,
  onSelect,
  onChanged,
}: {
  item: AdminStructure;
  depth: number;
  list: AdminStructure[];
  selected: boolean;
  onSelect: () => void;
  onChanged: () => Promise<void>;
}) {
  const [name, setName] = useState(item.name);
  const forbidden = subtreeIds(list, item.id);
  const parents = flatten(list).filter(({ item: p }) => !forbidden.has(p.id));

  const change = async (body: { name?: string; parent_id?: number | null }) => {
    try {
      await api.put('/api/v1/admin/structures/{id}', { path: { id: item.id }, body });
      notify('success', 'Сохранено');
    } catch {
      // Shown by the API client.
    }
    await onChanged();
  };
  const remove = async () => {
    try {
      const reply = await api.delete('/api/v1/admin/structures/{id}', { path: { id: item.id } });
      notify('success', reply.message);
    } catch {
      // Shown by the API client (409 says what is left inside).
    }
    await onChanged();
  };
  const holds = [
    item.children && `дочерних: ${item.children}`,
    item.employees && `сотрудников: ${item.employees}`,
    item.workplaces && `мест: ${item.workplaces}`,
    item.cameras && `камер: ${item.cameras}`,
    item.markups && `отрезков: ${item.markups}`,
  ].filter(Boolean);

  return (
    <tr className={selected ? 'selected' : undefined} data-testid="admin-structure-row">
      <td className="fit-wide" style={{ paddingLeft: `${0.75 + depth * 1.25}rem` }}>
        <button type="button" className="link-button tree-pick" aria-pressed={selected} onClick={onSelect}>
          {item.name}
        </button>
      </td>
      <td className="fit-wide" data-label="Название">
        <span className="inline-edit">
          <input aria-label={`Новое название «${item.name}»`} value={name} onChange={(e) => setName(e.target.value)} />
          <button type="button" className="button secondary small" disabled={!name.trim() || name.trim() === item.name} onClick={() => void change({ name })}>
            Переименовать
          </button>
        </span>
      </td>
      <td data-label="Входит в">
        <select aria-label={`Родитель «${item.name}»`} value={item.parent_id ?? 0} onChange={(e) => void change({ parent_id: Number(e.target.value) || null })}>
          <option value={0}>— корень —</option>
          {parents.map(({ item: p, depth: d }) => (
            <option key={p.id} value={p.id}>
              {'\u00a0\u00a0'.repeat(d)}
              {p.name}
            </option>
          ))}
        </select>
      </td>
      <td className="muted small" data-label="Содержит">
        {holds.length ? holds.join(', ') : 'пусто'}
      </td>
      <td className="fit-actions">
        <ConfirmButton question={`Удалить «${item.name}»?`} confirm="Да" title="Удалить можно только пустую единицу" onConfirm={() => void remove()} />
      </td>
    </tr>
  );
}

/** The structure tree: create, rename, move (no cycles), delete when empty; pick one to edit its staff. */
export function StructuresPanel({
  list,
  selectedId,
  onSelect,
  onChanged,
}: {
  list: AdminStructure[];
  selectedId: number | null;
  onSelect: (id: number) => void;
  onChanged: () => Promise<void>;
}) {
  const [name, setName] = useState('');
  const [parent, setParent] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const rows = flatten(list);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setError('Введите название');
      return;
    }
    setError(null);
    try {
      const created = await api.post('/api/v1/admin/structures', { body: { name, parent_id: parent || null } });
      notify('success', `Создана структурная единица «${created.name}»`);
      setName('');
      await onChanged();
      onSelect(created.id);
    } catch {
      // Shown by the API client.
    }
  };

  return (
    <section className="card admin-section" aria-labelledby="structures-title">
      <h2 id="structures-title">Структурные единицы</h2>
      {rows.length === 0 && <p className="muted">Структурных единиц пока нет — создайте первую.</p>}
      {rows.length > 0 && (
        <div className="table-scroll fit-scope">
          <table className="data-table compact fit-table structures-table">
            <thead>
              <tr>
                <th>Единица</th>
                <th>Название</th>
                <th>Входит в</th>
                <th>Содержит</th>
                <th>
                  <span className="visually-hidden">Удалить</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map(({ item, depth }) => (
                <StructureRow
                  key={`${item.id}-${item.name}`}
                  item={item}
                  depth={depth}
                  list={list}
                  selected={item.id === selectedId}
                  onSelect={() => onSelect(item.id)}
                  onChanged={onChanged}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form className="admin-form" onSubmit={create} aria-label="Новая структурная единица">
        <h3>Новая структурная единица</h3>
        <div className="row">
          <label>
            Название
            <input value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          <label>
            Входит в
            <select value={parent} onChange={(e) => setParent(Number(e.target.value))}>
              <option value={0}>— корень —</option>
              {rows.map(({ item, depth }) => (
                <option key={item.id} value={item.id}>
                  {'\u00a0\u00a0'.repeat(depth)}
                  {item.name}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="button">
            Создать
          </button>
        </div>
        <Banner text={error} />
      </form>
    </section>
  );
}
