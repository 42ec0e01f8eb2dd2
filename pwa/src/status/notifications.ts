import { proxy } from 'valtio';

export interface Notice {
  id: number;
  kind: 'error' | 'success' | 'info';
  text: string;
  /** The screen the message belongs to (first segment of the route); null: shown on every screen. */
  screen: string | null;
}

/** Messages shown to the user: every failed call lands here, nothing is swallowed. */
export const notifications = proxy({ items: [] as Notice[] });

let nextId = 1;

/** The screen of a hash route: '/video/7/0' and '#/video/7/0' → 'video'; the landing page → ''. */
export function screenOf(route: string): string {
  return route.replace(/^#?\/?/, '').split(/[/?]/)[0] ?? '';
}

function currentScreen(): string {
  return typeof location === 'undefined' ? '' : screenOf(location.hash);
}

/**
 * Shows a message. It belongs to the current screen and goes when the user moves to another one
 * (issue 28: a toast from the video screen stayed on /summary); `global` keeps it across screens,
 * for messages about an action that itself leads elsewhere (sign-in, sign-out, a finished task).
 */
export function notify(kind: Notice['kind'], text: string, options: { global?: boolean } = {}) {
  const screen = options.global ? null : currentScreen();
  // The same message already on screen is not stacked again (a repeated failure is one message).
  const shown = notifications.items.find((n) => n.kind === kind && n.text === text);
  if (shown) {
    shown.screen = screen;
    return shown.id;
  }
  const id = nextId++;
  notifications.items.push({ id, kind, text, screen });
  // Errors stay until the user closes them; other messages fade on their own.
  if (kind !== 'error') setTimeout(() => dismiss(id), 5000);
  return id;
}

export function dismiss(id: number) {
  const index = notifications.items.findIndex((n) => n.id === id);
  if (index >= 0) notifications.items.splice(index, 1);
}

/** The user is now on `screen`: the messages of other screens go, global ones stay. */
export function enterScreen(screen: string) {
  for (let i = notifications.items.length - 1; i >= 0; i--) {
    const notice = notifications.items[i]!;
    if (notice.screen !== null && notice.screen !== screen) notifications.items.splice(i, 1);
  }
}
