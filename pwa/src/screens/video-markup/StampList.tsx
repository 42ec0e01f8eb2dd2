import { useSessionValue } from './useSessionValue';
import type { MarkupSession } from './session';

/** The video's stamps (products, notes): a click seeks to one, ✕ removes it. */
export function StampList({ session, onSeek, readOnly = false }: { session: MarkupSession; onSeek(seconds: number): void; readOnly?: boolean }) {
  const stamps = useSessionValue(session, (s) => s.stamps);
  if (stamps.length === 0) return null;
  return (
    <section className="stamps">
      <h2>Отметки</h2>
      <ul className="plain-list inline-list">
        {stamps.map((stamp) => (
          <li key={stamp.key}>
            <button type="button" className="link-button" onClick={() => onSeek(stamp.time)}>
              {stamp.type === 'product' ? 'Изделие' : 'Заметка'} {stamp.time.toFixed(0)} с
            </button>
            {!readOnly && (
              <button type="button" className="link-button muted" aria-label="Удалить отметку" onClick={() => session.removeStamp(stamp.key)}>
                ✕
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
