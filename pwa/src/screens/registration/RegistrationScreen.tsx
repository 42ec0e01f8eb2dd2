import { useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { api } from '../../api/client';
import type { RegistrationBody } from '../../api/types';
import { startSession } from '../../state/login';
import { Banner } from '../../ui/Banner';
import { registrationError, type RegistrationForm } from './validate';

const fields: { name: keyof RegistrationForm; label: string; type?: string; autoComplete: string }[] = [
  { name: 'login', label: 'Логин', autoComplete: 'username' },
  { name: 'firstName', label: 'Имя', autoComplete: 'given-name' },
  { name: 'lastName', label: 'Фамилия', autoComplete: 'family-name' },
  { name: 'password', label: 'Пароль', type: 'password', autoComplete: 'new-password' },
  { name: 'repeatPassword', label: 'Повторите пароль', type: 'password', autoComplete: 'new-password' },
];

/** spec 01 "Registration": Enter in the repeat-password field presses the button. */
export function RegistrationScreen() {
  const [, navigate] = useLocation();
  const [form, setForm] = useState<RegistrationForm>({ login: '', firstName: '', lastName: '', password: '', repeatPassword: '' });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = registrationError(form);
    setError(problem);
    if (problem) return;
    setBusy(true);
    const body = { login: form.login, password: form.password, first_name: form.firstName, last_name: form.lastName } satisfies RegistrationBody;
    setError(
      await startSession(
        () => api.post('/api/v2/register', { body, quiet: true }),
        () => navigate('/projects'),
      ),
    );
    setBusy(false);
  };

  return (
    <section className="screen auth-screen">
      <form className="card auth-card" onSubmit={submit} noValidate>
        <h1>Регистрация</h1>
        {fields.map((field) => (
          <label key={field.name}>
            {field.label}
            <input
              name={field.name}
              type={field.type ?? 'text'}
              autoComplete={field.autoComplete}
              value={form[field.name]}
              onChange={(e) => setForm({ ...form, [field.name]: e.target.value })}
            />
          </label>
        ))}
        <Banner text={error} />
        <div className="actions">
          <button type="submit" className="button" disabled={busy}>
            Зарегистрироваться
          </button>
          <button type="button" className="button secondary" onClick={() => navigate('/login')}>
            У меня есть вход
          </button>
        </div>
      </form>
    </section>
  );
}
