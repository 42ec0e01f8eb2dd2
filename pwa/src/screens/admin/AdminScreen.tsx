import { useCallback, useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { Link } from 'wouter';
import { api } from '../../api/client';
import type { AdminStructure, Structure } from '../../api/types';
import { login, useAllows } from '../../state/login';
import { structures } from '../../state/structures';
import { Banner } from '../../ui/Banner';
import { Tabs } from '../../ui/Tabs';
import { FeedbackPanel } from './FeedbackPanel';
import { OrganizationPanel } from './OrganizationPanel';
import { StaffPanel } from './StaffPanel';
import { StructuresPanel } from './StructuresPanel';
import { UsersPanel } from './UsersPanel';

type Tab = 'structures' | 'users' | 'organization' | 'feedback';
const ADMIN_TABS: { key: Tab; label: string }[] = [
  { key: 'structures', label: 'Структура и камеры' },
  { key: 'users', label: 'Пользователи' },
  { key: 'organization', label: 'Организация' },
];
/** The site's requests are the installation's: the tab shows only where whoami grants `site.requests` (the API's own rule). */
const FEEDBACK_TAB: { key: Tab; label: string } = { key: 'feedback', label: 'Заявки с сайта' };

/**
 * Administration of the organisation (admin role): the structure tree with its employees,
 * workplaces and cameras, the users with their roles, the organisation's name and time zone.
 * What a new customer sets up first.
 */
export function AdminScreen() {
  const { organizationName } = useSnapshot(login);
  const isAdmin = useAllows('organization.admin');
  const readsSiteRequests = useAllows('site.requests');
  const [tab, setTab] = useState<Tab>('structures');
  const [list, setList] = useState<AdminStructure[] | null>(null);
  const [selectedId, setSelectedId] = useState<number | null>(null);

  const reload = useCallback(async () => {
    try {
      const rows = await api.get('/api/v1/admin/structures');
      setList(rows);
      // The projects tree shows the same structures.
      structures.list = rows.map(({ id, name, parent_id }): Structure => ({ id, name, parent_id }));
      setSelectedId((current) => (current !== null && rows.some((r) => r.id === current) ? current : null));
    } catch {
      setList([]);
    }
  }, []);

  useEffect(() => {
    if (isAdmin) void reload();
  }, [isAdmin, reload]);

  if (!isAdmin) {
    return (
      <section className="screen">
        <h1>Администрирование</h1>
        <Banner text="Этот раздел доступен только администратору организации." />
      </section>
    );
  }
  const selected = list?.find((s) => s.id === selectedId) ?? null;
  return (
    <section className="screen admin">
      <h1>Администрирование</h1>
      <p className="muted">
        {organizationName} · <Link href="/projects">к проектам</Link>
      </p>
      <Tabs tabs={readsSiteRequests ? [...ADMIN_TABS, FEEDBACK_TAB] : ADMIN_TABS} value={tab} onChange={setTab} />
      {tab === 'users' && <UsersPanel />}
      {tab === 'organization' && <OrganizationPanel />}
      {tab === 'feedback' && readsSiteRequests && <FeedbackPanel />}
      {tab === 'structures' && (
        <>
          {list === null ? (
            <p className="muted">Загрузка…</p>
          ) : (
            <StructuresPanel list={list} selectedId={selectedId} onSelect={setSelectedId} onChanged={reload} />
          )}
          {selected ? (
            <StaffPanel key={selected.id} structureId={selected.id} name={selected.name} onCountChanged={reload} />
          ) : (
            list && list.length > 0 && <p className="muted">Выберите единицу в списке, чтобы добавить сотрудников, рабочие места и камеры.</p>
          )}
        </>
      )}
    </section>
  );
}
