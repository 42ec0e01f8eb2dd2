import { useCallback, useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { ApiCallError, api } from '../../api/client';
import type { FeedbackHandledBody, FeedbackItem, FeedbackList, FeedbackListQuery } from '../../api/types';
import { formatDateTime } from '../../format/time';
import { login } from '../../state/login';
import { Banner } from '../../ui/Banner';

type Status = NonNullable<FeedbackListQuery['status']>;
const PAGE = 50;

/**
 * Requests sent through the site's contact form (docs/site.md): newest first, open or handled; an
 * administrator of the owner organisation marks them handled (or back); the tab shows only to them
 * (permission `site.requests`). Times in the organisation's zone.
 */
export function FeedbackPanel() {
  const [status, setStatus] = useState<Status>('open');
  const [page, setPage] = useState(0);
  const [list, setList] = useState<FeedbackList | null>(null);
  const [refused, setRefused] = useState<string | null>(null);
  const { timeZone } = useSnapshot(login);

  const reload = useCallback(async () => {
    try {
      setList(await api.get('/api/v3/feedback', { query: { status, offset: page * PAGE, limit: PAGE } satisfies FeedbackListQuery, quiet: true }));
      setRefused(null);
    } catch (err) {
      setRefused(err instanceof ApiCallError ? err.message : String(err));
    }
  }, [status, page]);

  useEffect(() => {
    void reload();
  }, [reload]);

  const mark = async (item: FeedbackItem, handled: boolean) => {
    try {
      await api.post('/api/v3/feedback/{id}/handled', { path: { id: String(item.id) }, body: { handled } satisfies FeedbackHandledBody });
    } catch {
      // Shown by the API client; the list shows the state that stayed.
    }
    await reload();
  };

  if (refused) return <Banner text={refused} />;
  if (!list) return <p className="muted">Загрузка…</p>;
  const pages = Math.max(1, Math.ceil(list.total / PAGE));
  return (
    <div className="card" data-testid="feedback-panel">
      <div className="row">
        <label className="inline">
          Показать
          <select
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as Status);
              setPage(0);
            }}
          >
            <option value="open">Новые</option>
            <option value="handled">Обработанные</option>
            <option value="all">Все</option>
          </select>
        </label>
        <span className="muted">Новых: {list.open}</span>
      </div>
      {list.items.length === 0 ? (
        <p className="muted">Заявок нет.</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table compact" data-testid="feedback-table">
            <thead>
              <tr>
                <th>Получена</th>
                <th>Имя</th>
                <th>Почта</th>
                <th>Компания</th>
                <th>Телефон</th>
                <th>Комментарий</th>
                <th>Статус</th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((item) => (
                <tr key={item.id} data-testid="feedback-row">
                  <td>{formatDateTime(item.created_at, timeZone)}</td>
                  <td>{item.name}</td>
                  <td>
                    <a href={`mailto:${item.email}`}>{item.email}</a>
                  </td>
                  <td>{item.company ?? '—'}</td>
                  <td>{item.phone_number ? <a href={`tel:${item.phone_number}`}>{item.phone_number}</a> : '—'}</td>
                  <td style={{ whiteSpace: 'pre-wrap' }}>{item.comment ?? '—'}</td>
                  <td>
                    {item.handled_at ? (
                      <>
                        <span className="muted">
                          Обработана {formatDateTime(item.handled_at, timeZone)}
                          {item.handled_by ? `, ${item.handled_by}` : ''}
                        </span>{' '}
                        <button type="button" className="link-button" onClick={() => mark(item, false)}>
                          Вернуть в новые
                        </button>
                      </>
                    ) : (
                      <button type="button" className="button secondary" onClick={() => mark(item, true)}>
                        Отметить обработанной
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pages > 1 && (
        <div className="actions">
          <button type="button" className="button secondary" disabled={page === 0} onClick={() => setPage(page - 1)}>
            Назад
          </button>
          <span className="muted">
            {page + 1} / {pages}
          </span>
          <button type="button" className="button secondary" disabled={page + 1 >= pages} onClick={() => setPage(page + 1)}>
            Дальше
          </button>
        </div>
      )}
    </div>
  );
}
