import { proxy } from 'valtio';

export interface Notice {
  id: number;
  kind: 'error' | 'success' | 'info';
  text: string;
}

/** Messages shown to the user: every failed call lands here, nothing is swallowed. */
export const notifications = proxy({ items: [] as Notice[] });

let nextId = 1;

export function notify(kind: Notice['kind'], text: string) {
  // The same message already on screen is not stacked again (a repeated failure is one message).
  const shown = notifications.items.find((n) => n.kind === kind && n.text === text);
  if (shown) return shown.id;
  const id = nextId++;
  notifications.items.push({ id, kind, text });
  // Errors stay until the user closes them; other messages fade on their own.
  if (kind !== 'error') setTimeout(() => dismiss(id), 5000);
  return id;
}

export function dismiss(id: number) {
  const index = notifications.items.findIndex((n) => n.id === id);
  if (index >= 0) notifications.items.splice(index, 1);
}
