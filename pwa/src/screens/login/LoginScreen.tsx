import { useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { api } from '../../api/client';
import type { LoginBody } from '../../api/types';
import { startSession } from '../../state/login';
import { Banner } from '../../ui/Banner';

/** spec 01 "Login": login and password, Enter submits, Registration button; then /projects. */
export function LoginScreen() {
  const [, navigate] = useLocation();
  const [loginName, setLoginName] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setBusy(true);
    // The PWA signs in with POST so the password never sits in a URL or a log.
    setError(
      await startSession(
        () => api.post('/api/v1/login', { body: { login: loginName, password } satisfies LoginBody, quiet: true }),
        () => navigate('/projects'),
      ),
    );
    setBusy(false);
  };

  return (
    <section className="screen auth-screen">
      <form className="card auth-card" onSubmit={submit}>
        <h1>Вход</h1>
        <label>
          Логин
          <input name="login" autoComplete="username" value={loginName} onChange={(e) => setLoginName(e.target.value)} autoFocus />
        </label>
        <label>
          Пароль
          <input name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        </label>
        <Banner text={error} />
        <div className="actions">
          <button type="submit" className="button" disabled={busy}>
            Войти
          </button>
          <button type="button" className="button secondary" onClick={() => navigate('/registration')}>
            Регистрация
          </button>
        </div>
      </form>
    </section>
  );
}
