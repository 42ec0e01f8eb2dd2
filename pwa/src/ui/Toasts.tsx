import { useSnapshot } from 'valtio';
import { dismiss, notifications } from '../state/notifications';

/** The one place messages appear: errors stay until closed, others fade. */
export function Toasts() {
  const { items } = useSnapshot(notifications);
  return (
    <div className="toasts" aria-live="polite">
      {items.map((item) => (
        <div key={item.id} className={`toast toast-${item.kind}`} role={item.kind === 'error' ? 'alert' : 'status'}>
          <span>{item.text}</span>
          <button type="button" className="toast-close" aria-label="Закрыть" onClick={() => dismiss(item.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
