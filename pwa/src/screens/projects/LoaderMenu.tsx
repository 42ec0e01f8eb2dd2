import { useEffect, useState } from 'react';
import { api } from '../../api/client';
import type { LoaderPackage, LoaderPackages } from '../../api/types';

const platformNames: Record<LoaderPackage['platform'], string> = { windows: 'Windows', macos: 'macOS', linux: 'Linux' };

/**
 * The loader download menu: what this server has, the rest marked unavailable — never a dead link —
 * and how the missing installers are made (`npm run build:loader`, not part of `npm start`).
 */
export function LoaderMenu() {
  const [info, setInfo] = useState<LoaderPackages | null>(null);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (open && !info) api.get('/api/v1/loader').then(setInfo, () => setOpen(false));
  }, [open, info]);

  const missing = info?.packages.filter((p) => !(p.available && p.url)).length ?? 0;

  return (
    <details className="menu" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="button secondary">Загрузчик</summary>
      <ul className="menu-list">
        {!info && <li>Загрузка…</li>}
        {info?.packages.map((p) => (
          <li key={p.format}>
            {p.available && p.url ? (
              <a href={p.url} download>
                {platformNames[p.platform]} ({p.format}), {info.version}
                {p.size_bytes ? ` — ${(p.size_bytes / 1024 / 1024).toFixed(0)} МБ` : ''}
              </a>
            ) : (
              <span>
                {platformNames[p.platform]} ({p.format}), {info.version} — нет на этом сервере
              </span>
            )}
          </li>
        ))}
        {missing > 0 && (
          <li className="muted small" data-testid="loader-missing">
            {missing === info?.packages.length ? 'Установщики ещё не собраны на этом сервере.' : 'Остальные установщики не собраны на этом сервере.'} Их
            собирает администратор сервера командой <code>npm run build:loader</code> (см. README, «Прочие команды»); после сборки они появятся здесь.
          </li>
        )}
      </ul>
    </details>
  );
}
