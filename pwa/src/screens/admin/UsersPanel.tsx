import { TableHead } from '../../ui/TableHead';
import type { AdminUser, Role } from '../../api/types';
import { Banner } from '../../ui/Banner';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { useAdminUsers, useNewUser } from './useAdminUsers';

function RoleOptions({ roles }: { roles: Record<string, string> }) {
  return Object.entries(roles).map(([code, label]) => (
    <option key={code} value={code}>
      {label}
    </option>
  ));
}

interface TableProps {
  users: AdminUser[];
  roles: Record<string, string>;
  changeRole: (user: AdminUser, role: Role) => Promise<void>;
  remove: (user: AdminUser) => Promise<void>;
}

/** The users with their role to change and, for everyone but oneself, the removal. */
function UsersTable({ users, roles, changeRole, remove }: TableProps) {
  return (
    <div className="table-scroll fit-scope">
      <table className="data-table compact fit-table users-table" data-testid="users-table">
        <TableHead titles={['Логин', 'Имя', 'Роль']} />
        <tbody>
          {users.map((user) => (
            <tr key={user.id}>
              <td data-label="Логин">
                {user.login}
                {user.is_self && <span className="muted"> (вы)</span>}
              </td>
              <td data-label="Имя">
                {user.first_name} {user.last_name}
              </td>
              <td data-label="Роль">
                <select aria-label={`Роль ${user.login}`} value={user.role} onChange={(e) => void changeRole(user, e.target.value as Role)}>
                  <RoleOptions roles={roles} />
                </select>
              </td>
              <td className="fit-actions">
                {user.is_self ? null : <ConfirmButton question={`Удалить ${user.login} из организации?`} onConfirm={() => void remove(user)} />}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** «Новый пользователь»: login, name, password and role. */
function NewUserForm({ roles, created }: { roles: Record<string, string>; created: () => Promise<void> }) {
  const { form, setForm, error, create } = useNewUser(created);
  return (
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
            <RoleOptions roles={roles} />
          </select>
        </label>
        <button type="submit" className="button">
          Создать пользователя
        </button>
      </div>
      <p className="muted small">Пароль — не короче 8 символов. Передайте логин и пароль человеку лично.</p>
      <Banner text={error} />
    </form>
  );
}

/** Users of the organisation: create with a role, change the role, remove from the organisation. */
export function UsersPanel() {
  const { users, roles, reload, changeRole, remove } = useAdminUsers();
  return (
    <section className="card admin-section" aria-labelledby="users-title">
      <h2 id="users-title">Пользователи и роли</h2>
      {users === null && <p className="muted">Загрузка…</p>}
      {users && <UsersTable users={users} roles={roles} changeRole={changeRole} remove={remove} />}
      <NewUserForm roles={roles} created={reload} />
    </section>
  );
}
