import { useEffect, useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import type { AdminUser, Role } from '../../api/types';
import { notify } from '../../status/notifications';

const blank = { login: '', first_name: '', last_name: '', password: '', role: 'assessor' as Role };

/** The organisation's users and the role names, read again after every change; a role change and a removal. */
export function useAdminUsers() {
  const [users, setUsers] = useState<AdminUser[] | null>(null);
  const [roles, setRoles] = useState<Record<string, string>>({});

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

  return { users, roles, reload, changeRole, remove };
}

/** The new user's form: every field required (the server checks the rest); `created` reads the list again. */
export function useNewUser(created: () => Promise<void>) {
  const [form, setForm] = useState(blank);
  const [error, setError] = useState<string | null>(null);

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
      await created();
    } catch {
      // Shown by the API client.
    }
  };

  return { form, setForm, error, create };
}
