import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useSnapshot } from 'valtio';
import { Link } from 'wouter';
import { api } from '../../api/client';

import { formatDateTime, formatDateTimeSeconds } from '../../format/time';
import { login, useAllows } from '../../state/login';
import { markup } from '../../state/markup';
import { notify } from '../../status/notifications';
import { Pagination } from '../../ui/Pagination';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { Tabs } from '../../ui/Tabs';
import { pageOffset, TASK_PAGE_SIZE } from '../../offline/task-pages';
import { taskTabs, type TaskOption, type TaskPage, type TaskRow } from './tasks';
import { FailedUploads } from './FailedUploads';
import { RecordingsWithoutStart } from './RecordingsWithoutStart';
import { RecordingStartEditor, START_SOURCE_TEXT } from './RecordingStart';
import { WorkTimeRecord } from './WorkTimeRecord';
import { DamagedRecording } from '../../ui/DamagedRecording';
import { pct } from '../reports/format';

function TaskStatus({ status, timeZone }: { status: TaskRow['status']; timeZone: string }) {
  return (
    <div className="task-status">
      <span className={status.finished ? 'badge done' : 'badge'}>{status.finished ? 'Завершена' : 'В работе'}</span>
      <div className="progress" role="progressbar" aria-valuenow={status.completion_percentage} aria-valuemin={0} aria-valuemax={100} aria-label="Размечено">
        <div style={{ width: `${Math.min(100, status.completion_percentage)}%` }} />
      </div>
      <span>{pct(status.completion_percentage)}</span>
      {status.happened_at && <span className="muted">{formatDateTime(status.happened_at, timeZone)}</span>}
    </div>
  );
}

function DeleteTask({ task, onDeleted }: { task: TaskRow; onDeleted: () => void }) {
  const remove = async () => {
    const reply = await api.delete('/api/v1/task/{id}', { path: { id: task.video.id } }).catch(() => null);
    if (reply) {
      notify('success', reply.message);
      onDeleted();
    }
  };
  return <ConfirmButton question={`Удалить «${task.video.filename}»?`} small={false} onConfirm={() => void remove()} />;
}

/** A recording's start with where it came from, a mark when no person confirmed it, and (analyst, admin) its change. */
function TaskStart({ task, timeZone, canChange, onSaved }: { task: TaskRow; timeZone: string; canChange: boolean; onSaved: () => void }) {
  const [editing, setEditing] = useState(false);
  const { video } = task;
  if (editing)
    return (
      <RecordingStartEditor
        start={{ videoId: video.id, startTime: video.start_time, source: video.start_source, confirmed: video.start_confirmed }}
        timeZone={timeZone}
        action="Сохранить"
        onCancel={() => setEditing(false)}
        onSaved={() => {
          setEditing(false);
          onSaved();
        }}
      />
    );
  return (
    <div className="task-start" data-testid="task-start">
      <span title={START_SOURCE_TEXT[video.start_source]}>{formatDateTimeSeconds(video.start_time, timeZone)}</span>
      {!video.start_confirmed && <span className="badge warning">начало не подтверждено</span>}
      {canChange && (
        <button type="button" className="button secondary small" onClick={() => setEditing(true)}>
          Изменить начало
        </button>
      )}
    </div>
  );
}

/** spec 01 "Task list": tabs, search, table, numbered pages of 30, the work-time record block. */
export function TaskListScreen({ structureId }: { structureId: string }) {
  const id = Number(structureId);
  const paging = useSnapshot(markup);
  const { timeZone } = useSnapshot(login);
  // DELETE /api/v1/task/{id} and changing a confirmed start need workspace.write (api/src/auth/permissions.ts).
  const canDelete = useAllows('workspace.write');
  const [option, setOption] = useState<TaskOption>('all');
  const [search, setSearch] = useState(markup.searchPattern);
  const [data, setData] = useState<TaskPage | null>(null);
  const [structureName, setStructureName] = useState<string>('');

  useEffect(() => {
    api.get('/api/v2/get_all_structures').then(
      (list) => setStructureName(list.find((s) => s.id === id)?.name ?? ''),
      () => {},
    );
  }, [id]);

  const load = useCallback(() => {
    api
      .get('/api/v1/get_tasks', {
        query: {
          structure_id: id,
          option,
          offset: pageOffset(paging.currentPage),
          limit: TASK_PAGE_SIZE,
          filename_pattern: paging.searchPattern,
        },
      })
      .then(setData, () => setData({ elements: [], total: 0 }));
  }, [id, option, paging.currentPage, paging.searchPattern]);

  useEffect(load, [load]);

  const chooseTab = (next: TaskOption) => {
    setOption(next);
    markup.currentPage = 1;
  };
  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    const pattern = search.trim();
    // The same search again still asks the server: new recordings may have become ready meanwhile.
    if (pattern === markup.searchPattern && markup.currentPage === 1) load();
    markup.searchPattern = pattern;
    markup.currentPage = 1;
  };

  return (
    <div className="task-list">
      <h1>Задачи разметки{structureName ? `: ${structureName}` : ''}</h1>
      <Tabs tabs={taskTabs} value={option} onChange={chooseTab} />
      <form className="row search" role="search" onSubmit={submitSearch}>
        <input type="search" aria-label="Поиск по имени файла" placeholder="Имя файла" value={search} onChange={(e) => setSearch(e.target.value)} />
        <button type="submit" className="button secondary">
          Найти
        </button>
      </form>
      <WorkTimeRecord structureId={id} />
      <FailedUploads structureId={id} timeZone={timeZone} refreshKey={data} />
      <RecordingsWithoutStart structureId={id} timeZone={timeZone} refreshKey={data} onGiven={load} />
      {data === null ? (
        <p className="muted">Загрузка…</p>
      ) : data.elements.length === 0 ? (
        <p className="muted">Задач нет{paging.searchPattern ? ` по запросу «${paging.searchPattern}»` : ''}.</p>
      ) : (
        <div className="table-scroll fit-scope">
          <table className="data-table fit-table tasks-table">
            <thead>
              <tr>
                <th>Файл</th>
                <th>Начало записи</th>
                <th>Комментарий</th>
                <th>Статус</th>
                <th>Автор</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {data.elements.map((task) => (
                <tr key={task.video.id} data-testid="task-row">
                  <td className="fit-wide" data-label="Файл">
                    {task.video.filename}
                    {task.video.damage && <DamagedRecording reason={task.video.damage} compact />}
                  </td>
                  <td data-label="Начало записи">
                    <TaskStart task={task} timeZone={timeZone} canChange={canDelete} onSaved={load} />
                  </td>
                  <td data-label="Комментарий">{task.video.comment}</td>
                  <td data-label="Статус">
                    <TaskStatus status={task.status} timeZone={timeZone} />
                  </td>
                  <td data-label="Автор">{task.author ? `${task.author.first_name} ${task.author.last_name}` : '—'}</td>
                  <td className="row-actions fit-actions">
                    <Link href={`/video/${task.video.id}`} className="button">
                      Открыть
                    </Link>
                    {canDelete && <DeleteTask task={task} onDeleted={load} />}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {data && <Pagination page={paging.currentPage} total={data.total} pageSize={TASK_PAGE_SIZE} onPage={(page) => (markup.currentPage = page)} />}
    </div>
  );
}
