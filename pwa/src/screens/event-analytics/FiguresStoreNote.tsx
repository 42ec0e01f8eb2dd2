import { useSnapshot } from 'valtio';
import type { EventAnalytics } from '../../state/eventAnalytics';

const ACTIVE = new Set(['queued', 'running']);

/**
 * The state of a long window's stored figures (docs/event-analytics.md «Цифры длинных окон»): fresh
 * and when computed; stale or never computed while the job computes them («пересчитывается», its
 * progress, «Отменить пересчёт»); the job cancelled or failed («Пересчитать»). Nothing for a short
 * window (computed on each request).
 */
export function FiguresStoreNote({ store, canAct }: { store: EventAnalytics; canAct: boolean }) {
  const snap = useSnapshot(store.state);
  const stored = snap.figuresStore;
  if (!stored) return null;
  const job = stored.job;
  const shown = snap.figures.state === 'ready';
  const error = snap.errors['figures-job'] ?? null;
  const busy = Boolean(snap.busy['figures-job']);
  const computedAt = stored.computed_at ? new Date(stored.computed_at).toLocaleString('ru-RU') : null;
  if (stored.fresh)
    return (
      <p className="muted small" data-testid="figures-store" data-state="fresh">
        Цифры длинного окна посчитаны задачей и сохранены{computedAt ? ` ${computedAt}` : ''}.
      </p>
    );
  const active = job !== null && ACTIVE.has(job.status);
  const percent = job ? Math.round(job.progress) : 0;
  return (
    <div className="banner banner-info figures-store" role="status" data-testid="figures-store" data-state={active ? 'computing' : (job?.status ?? 'stale')}>
      {active && shown && (
        <p>
          Цифры устарели (изменились треки, зоны или калибровка, посчитаны {computedAt ?? 'раньше'}): окно пересчитывается — {percent} %.
        </p>
      )}
      {active && !shown && <p>Окно пересчитывается задачей — {percent} %: цифры появятся, когда она закончит.</p>}
      {active && <progress max={100} value={percent} aria-label="Ход пересчёта цифр" />}
      {!active && job?.status === 'cancelled' && <p>Пересчёт цифр отменён{shown ? ': показаны прежние, устаревшие цифры' : ''}.</p>}
      {!active && job?.status === 'failed' && (
        <p>
          Пересчёт цифр не удался: {job.error ?? 'ошибка задачи'}
          {shown ? '. Показаны прежние, устаревшие цифры' : ''}.
        </p>
      )}
      {!active && (!job || job.status === 'success') && <p>Цифры устарели{shown ? ': показаны прежние' : ''}.</p>}
      {canAct && active && (
        <button type="button" className="button small" disabled={busy} onClick={() => void store.cancelFiguresJob()}>
          Отменить пересчёт
        </button>
      )}
      {canAct && !active && (
        <button type="button" className="button small" disabled={busy} onClick={() => void store.recomputeFigures()}>
          Пересчитать
        </button>
      )}
      {error && <p className="field-error">{error}</p>}
    </div>
  );
}
