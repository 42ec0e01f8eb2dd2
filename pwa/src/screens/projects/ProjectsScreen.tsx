import { useEffect, useMemo, useState } from 'react';
import { useSnapshot } from 'valtio';
import { Link, useLocation } from 'wouter';
import { api } from '../../api/client';
import type { Structure } from '../../api/types';
import { logout } from '../../state/logout';
import { useAllows } from '../../state/login';
import { buildTree, pathTo, structures, type StructureNode } from '../../state/structures';
import { CameraHealthBadge } from './CameraHealth';
import { LoaderMenu } from './LoaderMenu';
import { OperationsEditor } from './OperationsEditor';
import { PeriodPanel } from './PeriodPanel';
import { StructureSettingsCard } from './StructureSettingsCard';
import { SyncButton } from './SyncButton';

function TreeNode({
  node,
  expanded,
  toggle,
  activeId,
  onSelect,
}: {
  node: StructureNode;
  expanded: Set<number>;
  toggle: (id: number) => void;
  activeId: number | null;
  onSelect: (id: number) => void;
}) {
  const open = expanded.has(node.id);
  return (
    <li role="treeitem" aria-expanded={node.children.length ? open : undefined} aria-selected={activeId === node.id}>
      <div className={`tree-row${activeId === node.id ? ' active' : ''}`}>
        {node.children.length > 0 ? (
          <button type="button" className="tree-toggle" aria-label={open ? 'Свернуть' : 'Развернуть'} onClick={() => toggle(node.id)}>
            {open ? '▾' : '▸'}
          </button>
        ) : (
          <span className="tree-toggle" />
        )}
        <button type="button" className="tree-label" onClick={() => onSelect(node.id)}>
          {node.name}
        </button>
      </div>
      {open && node.children.length > 0 && (
        <ul role="group">
          {node.children.map((child) => (
            <TreeNode key={child.id} node={child} expanded={expanded} toggle={toggle} activeId={activeId} onSelect={onSelect} />
          ))}
        </ul>
      )}
    </li>
  );
}

/** spec 02 "Projects page": the tree 'Проекты', the top button row, the chosen structure. */
export function ProjectsScreen({ structureId }: { structureId?: string }) {
  const [, navigate] = useLocation();
  const state = useSnapshot(structures);
  const canWrite = useAllows('workspace.write');
  const isAdmin = useAllows('organization.admin');
  // Syncing and uploading recordings need markup.write (api/src/auth/permissions.ts).
  const canAddRecordings = useAllows('markup.write');
  const [expanded, setExpanded] = useState<Set<number>>(new Set());
  const [loadError, setLoadError] = useState<string | null>(null);
  const activeId = structureId ? Number(structureId) : null;

  useEffect(() => {
    api.get('/api/v2/get_all_structures').then(
      (list) => {
        structures.list = list;
        setLoadError(null);
      },
      (err: Error) => setLoadError(err.message),
    );
  }, []);

  useEffect(() => {
    structures.active = activeId;
    if (activeId !== null) setExpanded((prev) => new Set([...prev, ...pathTo(structures.list, activeId)]));
  }, [activeId, state.list]);

  const tree = useMemo(() => buildTree(state.list as Structure[]), [state.list]);
  const active = state.list.find((s) => s.id === activeId);
  const toggle = (id: number) =>
    setExpanded((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <div className="projects">
      <div className="toolbar">
        <Link href="/calculator" className="button secondary">
          Калькулятор
        </Link>
        <LoaderMenu />
        {canAddRecordings && (
          <Link href="/project" className="button secondary">
            Загрузить запись
          </Link>
        )}
        <Link href="/multi-video" className="button secondary">
          Несколько камер
        </Link>
        <Link href="/ciblock/map" className="button secondary">
          Редактор карты
        </Link>
        {canWrite && (
          <Link href="/summary" className="button secondary">
            Сводка по разметчикам
          </Link>
        )}
        {isAdmin && (
          <Link href="/admin" className="button secondary">
            Администрирование
          </Link>
        )}
        <button type="button" className="button secondary" onClick={() => logout(navigate)}>
          Выход
        </button>
      </div>
      <div className="projects-body">
        <nav className="tree card" aria-labelledby="tree-title">
          <h1 id="tree-title">Проекты</h1>
          {loadError && <p className="muted">Не удалось загрузить структуру: {loadError}</p>}
          {!loadError && tree.length === 0 && <p className="muted">Структурных единиц пока нет.</p>}
          <ul role="tree">
            {tree.map((node) => (
              <TreeNode key={node.id} node={node} expanded={expanded} toggle={toggle} activeId={activeId} onSelect={(id) => navigate(`/projects/${id}`)} />
            ))}
          </ul>
        </nav>
        <div className="structure-column">
          <section className="card structure-panel">
            {active ? (
              <>
                <h2 data-testid="structure-title">{active.name}</h2>
                <CameraHealthBadge key={`health-${active.id}`} structureId={active.id} />
                <div className="actions">
                  <Link href={`/markup/${active.id}`} className="button">
                    Разметка
                  </Link>
                  <Link href={`/norms/${active.id}`} className="button secondary">
                    Нормы
                  </Link>
                  <Link href={`/event-analytics/${active.id}`} className="button secondary">
                    Аналитика мероприятия
                  </Link>
                  <Link href={`/live/${active.id}`} className="button secondary">
                    Смена сейчас
                  </Link>
                  {canAddRecordings && <SyncButton structureId={active.id} />}
                </div>
                <PeriodPanel key={active.id} structureId={active.id} />
              </>
            ) : (
              <p className="muted">
                {state.list.length === 0 && isAdmin
                  ? 'Создайте первую структурную единицу в разделе «Администрирование».'
                  : 'Выберите структурную единицу в дереве слева.'}
              </p>
            )}
          </section>
          {active && <StructureSettingsCard key={`settings-${active.id}`} structureId={active.id} canWrite={canWrite} />}
          {active && <OperationsEditor key={`operations-${active.id}`} structureId={active.id} canWrite={canWrite} />}
        </div>
      </div>
    </div>
  );
}
