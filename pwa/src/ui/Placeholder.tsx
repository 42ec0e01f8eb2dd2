import type { ReactNode } from 'react';

/**
 * A screen a later capability fills: its title and what it will hold, never a fake.
 */
export function ScreenPlaceholder({ title, will, children }: { title: string; will: string[]; children?: ReactNode }) {
  return (
    <section className="screen placeholder" data-testid="screen-placeholder">
      <h1>{title}</h1>
      {children}
      <p className="muted">Этот экран ещё в разработке. Здесь будет:</p>
      <ul>
        {will.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </section>
  );
}
