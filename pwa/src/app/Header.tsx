import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { Link, useLocation } from 'wouter';
import { api } from '../api/client';
import type { InstanceInfo } from '../api/types';
import { login } from '../state/login';
import { logout } from './logout';

/** Shared header: marketing links, the contact anchor, sign-in or the signed-in user. */
export function Header() {
  const user = useSnapshot(login);
  const [, navigate] = useLocation();
  const [demo, setDemo] = useState(false);

  useEffect(() => {
    api.get<InstanceInfo>('/api/v1/instance').then((info) => setDemo(info.demo), () => setDemo(false));
  }, []);

  const toContact = () => {
    navigate('/');
    // The landing page ends in the contact form; hash routing leaves no room for a #fragment.
    requestAnimationFrame(() => document.getElementById('contact')?.scrollIntoView({ behavior: 'smooth' }));
  };

  return (
    <header className="site-header">
      <Link href="/" className="brand" aria-label="Norma — на главную">
        <img src="/icons/favicon.svg" alt="" width={28} height={28} />
        <span>Norma</span>
      </Link>
      {demo && (
        <span className="demo-badge" title="В системе есть демонстрационная организация с синтетическими данными">
          демо-данные
        </span>
      )}
      <nav className="site-nav">
        <Link href="/products">Продукты</Link>
        <Link href="/services">Услуги</Link>
        <Link href="/news">Новости</Link>
        <button type="button" className="link-button" onClick={toContact}>
          Связаться с нами
        </button>
      </nav>
      <div className="site-user">
        {user.loggedIn ? (
          <>
            <Link href="/projects" className="user-name" data-testid="user-name">
              {user.firstName} {user.lastName}
            </Link>
            <button type="button" className="button secondary" onClick={() => logout(navigate)}>
              Выход
            </button>
          </>
        ) : (
          <Link href="/login" className="button">
            Вход
          </Link>
        )}
      </div>
    </header>
  );
}
