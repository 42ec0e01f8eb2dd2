import { useEffect, useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import type { AdminUser, Role } from '../../api/types';
import { notify } from '../../status/notifications';
import { Banner } from '../../ui/Banner';
import { ConfirmButton } from '../../ui/ConfirmButton';

const blank = { login: '', first_name: '', last_name: '', password: '', role: 'assessor' as Role };

/** Users of the organisation: create with a role, change the role, remove from the organisation. */
export function UsersPanel() {
  const [users, setUsers] = useState<AdminUser[] | null>(null);
  const [roles, setRoles] = useState<Record<string, string>>({});
  const [form, setForm] = useState(blank);
  const [error, setError] = useState<string | null>(null);

  const reload = () =>
    api.get('/api/v1/admin/users').then(
      (reply) => {
        setUsers(reply.users);
        setRoles(reply.roles);
      },
      () => setUsers([]),
    );
  useEffect(() => {
    void reload();
  }, []);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    if (!form.login.trim() || !form.first_name.trim() || !form.last_name.trim() || !form.password) {
      setError('Заполните все поля');
      return;
    }
    setError(null);
    try {
      const user = await api.post('/api/v1/admin/users', { body: form });
      notify('success', `Пользователь ${user.login} создан`);
      setForm(blank);
      await reload();
    } catch {
      // Shown by the API client.
    }
  };

  const changeRole = async (user: AdminUser, role: Role) => {
    try {
      await api.put('/api/v1/admin/users/{id}', { path: { id: user.id }, body: { role } });
      notify('success', `Роль ${user.login}: ${roles[role] ?? role}`);
    } catch {
      // Shown by the API client; the list shows the role that stayed.
    }
    await reload();
  };

  const remove = async (user: AdminUser) => {
    try {
      const reply = await api.delete('/api/v1/admin/users/{id}', { path: { id: user.id } });
      notify('success', reply.message);
    } catch {
      // Shown by the API client.
    }
    await reload();
  };

  return (
    <section className="card admin-section" aria-labelledby="users-title">
      <h2 id="users-title">Пользователи и роли</h2>
      {users === null && <p className="muted">Загрузка…</p>}
      {users && (
        <div className="table-scroll">
          <table className="data-table compact" data-testid="users-table">
            <thead>
              <tr>
                <th>Логин</th>
                <th>Имя</th>
                <th>Роль</th>
                <th>
                  <span className="visually-hidden">Действия</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {users.map((user) => (
                <tr key={user.id}>
                  <td>
                    {user.login}
                    {user.is_self && <span className="muted"> (вы)</span>}
                  </td>
                  <td>
                    {user.first_name} {user.last_name}
                  </td>
                  <td>
                    <select aria-label={`Роль ${user.login}`} value={user.role} onChange={(e) => void changeRole(user, e.target.value as Role)}>
                      {Object.entries(roles).map(([code, label]) => (
                        <option key={code} value={code}>
                          {label}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td>{user.is_self ? null : <ConfirmButton question={`Удалить ${user.login} из организации?`} onConfirm={() => void remove(user)} />}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form className="admin-form" onSubmit={create} aria-label="Новый пользователь">
        <h3>Новый пользователь</h3>
        <div className="row">
          <label>
            Логин
            <input value={form.login} onChange={(e) => setForm({ ...form, login: e.target.value })} autoComplete="off" />
          </label>
          <label>
            Имя
            <input value={form.first_name} onChange={(e) => setForm({ ...form, first_name: e.target.value })} />
          </label>
          <label>
            Фамилия
            <input value={form.last_name} onChange={(e) => setForm({ ...form, last_name: e.target.value })} />
          </label>
          <label>
            Пароль
            <input type="password" value={form.password} onChange={(e) => setForm({ ...form, password: e.target.value })} autoComplete="new-password" />
          </label>
          <label>
            Роль
            <select aria-label="Роль нового пользователя" value={form.role} onChange={(e) => setForm({ ...form, role: e.target.value as Role })}>
              {Object.entries(roles).map(([code, label]) => (
                <option key={code} value={code}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="button">
            Создать пользователя
          </button>
        </div>
        <p className="muted small">Пароль — не короче 8 символов. Передайте логин и пароль человеку лично.</p>
        <Banner text={error} />
      </form>
    </section>
  );
}
