import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { useLocation } from 'wouter';
import { dismiss, enterScreen, notifications, screenOf } from '../status/notifications';

/** The one place messages appear: errors stay until closed, others fade. */
export function Toasts() {
  const { items } = useSnapshot(notifications);
  const [route] = useLocation();
  // Messages belong to their screen: moving to another one takes them away (global ones stay).
  useEffect(() => enterScreen(screenOf(route)), [route]);
  return (
    <div className="toasts" aria-live="polite">
      {items.map((item) => (
        <div key={item.id} className={`toast toast-${item.kind}`} data-testid="toast" role={item.kind === 'error' ? 'alert' : 'status'}>
          <span>{item.text}</span>
          <button type="button" className="toast-close" aria-label="Закрыть" onClick={() => dismiss(item.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
