import { useEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { Link, useLocation } from 'wouter';
import { api } from '../api/client';
import { outboxStatus } from '../state/outboxSync';
import { connectivity } from '../status/connectivity';
import { instance, loadInstance } from '../state/instance';
import { login } from '../state/login';
import { ExternalLink } from '../ui/ExternalLink';
import { logout } from '../state/logout';
import { PHONE_LAYOUT, TOUCH_LAYOUT, useMediaQuery } from '../ui/useMediaQuery';
import { routeTitleAt } from './routes';
import { Logo } from '../ui/Logo';

/**
 * Saves queued on this device by someone else (a shared tablet): only that they wait, never what
 * they hold or whose they are; they go when their author signs in again.
 */
function OthersSavesNotice() {
  const { othersPending } = useSnapshot(outboxStatus);
  const { loggedIn } = useSnapshot(login);
  if (othersPending === 0) return null;
  return (
    <span
      className="sync-indicator"
      data-testid="others-saves"
      role="status"
      title="Сохранения разметки, сделанные на этом устройстве другим пользователем, отправятся, когда он снова войдёт. Их содержимое доступно только ему."
    >
      {loggedIn ? `Сохранения другого пользователя ждут его входа: ${othersPending}` : `Сохранения ждут входа автора: ${othersPending}`}
    </span>
  );
}

/**
 * Saves waiting on this device and their state; a refused one links to its markup screen, where
 * the conflict dialog (or the restored draft) shows what to do.
 */
function SyncIndicator() {
  const status = useSnapshot(outboxStatus);
  const problem = status.problems[0];
  if (problem) {
    const what = problem.kind === 'conflict' ? 'конфликт версий' : 'ошибка';
    return (
      <Link href={`/video/${problem.videoId}`} className="sync-indicator sync-error" data-testid="sync-indicator" title={problem.message}>
        Не отправлено: {what}, видео № {problem.videoId}
      </Link>
    );
  }
  if (status.sending)
    return (
      <span className="sync-indicator" data-testid="sync-indicator" role="status">
        Отправка…
      </span>
    );
  if (status.pending + status.mapPending === 0) return null;
  return (
    <Link
      href={status.pending > 0 ? `/video/${status.pendingVideos[0]}` : '/ciblock/map'}
      className="sync-indicator sync-pending"
      data-testid="sync-indicator"
      title="Сохранения ждут связи с сервером и уйдут сами"
    >
      Не отправлено: {status.pending + status.mapPending}
    </Link>
  );
}

/** One banner for a lost connection, instead of a message per failed call; the screen in view may say what works offline on it. */
export function OfflineBanner() {
  const { offline, screenText } = useSnapshot(connectivity);
  if (!offline) return null;
  return (
    <div className="offline-banner" role="status" data-testid="offline-banner">
      {screenText ?? 'Нет связи с сервером. Работа продолжается на этом устройстве: сохранения разметки отправятся, когда связь появится.'}
    </div>
  );
}

/** The key of a shared report's page (`/demo/:shareKey`), or null. */
function shareKeyOf(route: string): string | null {
  const match = /^\/demo\/([^/?#]+)/.exec(route);
  return match ? decodeURIComponent(match[1]!) : null;
}

/**
 * Whether the «демо-данные» badge shows: on a shared report, when the key opens the demo
 * organisation's report; for a signed-in user, when their organisation is the demo (whoami); for
 * a visitor elsewhere, when the installation holds the demo (its public pages). Another
 * organisation of the same installation never sees it.
 */
function useDemoBadge(route: string): boolean {
  const user = useSnapshot(login);
  const { demo } = useSnapshot(instance);
  const shareKey = shareKeyOf(route);
  const [shared, setShared] = useState<{ key: string; demo: boolean } | null>(null);
  useEffect(() => {
    if (shareKey === null) return;
    let live = true;
    // A failure is shown by the API client; the badge stays off.
    api.get('/api/v1/instance', { query: { key: shareKey } }).then(
      (info) => live && setShared({ key: shareKey, demo: info.demo }),
      () => live && setShared({ key: shareKey, demo: false }),
    );
    return () => {
      live = false;
    };
  }, [shareKey]);
  if (shareKey !== null) return shared?.key === shareKey && shared.demo;
  return user.loggedIn ? user.organizationDemo : demo;
}

/**
 * The name in the compact header's one row, or null for the full header. The markup screen takes it
 * on a tablet or a phone (TOUCH_LAYOUT): it needs the height for the video and its operation buttons
 * (issue 47). On a phone (PHONE_LAYOUT) every signed-in screen does: the full header wraps into four
 * rows there, a quarter of the screen; public pages keep their site links in view.
 */
function compactTitleOf(route: string, touch: boolean, phone: boolean): string | null {
  if (!touch) return null;
  const title = routeTitleAt(route);
  if (route.startsWith('/video/')) return title;
  return phone ? title : null;
}

/** Shared header: marketing links, the contact anchor, sign-in or the signed-in user; compact on the markup screen of a tablet or a phone, and on every signed-in screen of a phone. */
export function Header() {
  const user = useSnapshot(login);
  const [route, navigate] = useLocation();
  const { links } = useSnapshot(instance);
  const demo = useDemoBadge(route);
  // The projects page has «Выход» in its own button row (spec 02): not a second one here.
  const ownLogout = route === '/projects' || route.startsWith('/projects/');
  const touch = useMediaQuery(TOUCH_LAYOUT);
  const phone = useMediaQuery(PHONE_LAYOUT);
  const compactTitle = compactTitleOf(route, touch, phone);
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);

  useEffect(() => void loadInstance(), []);
  // A new screen (or the window growing into the full header) starts with the menu closed.
  useEffect(() => setMenuOpen(false), [route, compactTitle]);
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  const toContact = () => {
    navigate('/');
    // The landing page ends in the contact form; hash routing leaves no room for a #fragment.
    requestAnimationFrame(() => document.getElementById('contact')?.scrollIntoView({ behavior: 'smooth' }));
  };

  const badge = demo && (
    <span className="demo-badge" data-testid="demo-badge" title="Демонстрационная организация: данные синтетические">
      демо-данные
    </span>
  );
  const nav = (
    <nav className="site-nav">
      <Link href="/products">Продукты</Link>
      <Link href="/services">Услуги</Link>
      <Link href="/news">Новости</Link>
      <button type="button" className="link-button" onClick={toContact}>
        Связаться с нами
      </button>
      {links.tracker && <ExternalLink href={links.tracker}>Трекер задач</ExternalLink>}
    </nav>
  );
  const account = user.loggedIn ? (
    <>
      {user.organizationName && (
        <span className="user-organization" data-testid="organization-name" title={user.organizationName}>
          {user.organizationName}
        </span>
      )}
      <Link href="/projects" className="user-name" data-testid="user-name">
        {user.firstName} {user.lastName}
      </Link>
      {!ownLogout && (
        <button type="button" className="button secondary" onClick={() => logout(navigate)}>
          Выход
        </button>
      )}
    </>
  ) : (
    <Link href="/login" className="button">
      Вход
    </Link>
  );

  if (compactTitle)
    return (
      <header className={`site-header compact${menuOpen ? ' open' : ''}`}>
        <Link href="/" className="brand" aria-label="Norma — на главную">
          <Logo />
        </Link>
        <span className="compact-title">{compactTitle}</span>
        <OthersSavesNotice />
        <SyncIndicator />
        <button
          ref={menuButton}
          type="button"
          className="menu-button"
          aria-expanded={menuOpen}
          aria-controls="site-menu"
          data-testid="site-menu-button"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          <span aria-hidden="true">☰</span> Меню
        </button>
        {menuOpen && (
          <div className="site-menu" id="site-menu" data-testid="site-menu">
            {badge}
            {nav}
            <div className="site-user">{account}</div>
          </div>
        )}
      </header>
    );

  return (
    <header className="site-header">
      <Link href="/" className="brand" aria-label="Norma — на главную">
        <Logo />
        <span>Norma</span>
      </Link>
      {badge}
      {nav}
      <div className="site-user">
        <OthersSavesNotice />
        <SyncIndicator />
        {account}
      </div>
    </header>
  );
}
