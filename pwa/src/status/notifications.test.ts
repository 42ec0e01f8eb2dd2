import { afterEach, describe, expect, it } from 'vitest';
import { dismiss, enterScreen, notifications, notify, screenOf } from './notifications';

afterEach(() => {
  for (const n of [...notifications.items]) dismiss(n.id);
});

describe('notifications belong to their screen', () => {
  it('takes the screen from the first segment of the route', () => {
    expect(screenOf('#/video/7/120')).toBe('video');
    expect(screenOf('/summary')).toBe('summary');
    expect(screenOf('/projects?x=1')).toBe('projects');
    expect(screenOf('#/')).toBe('');
  });

  it('drops the messages of other screens on a route change and keeps global ones', () => {
    notify('error', 'ошибка экрана');
    notify('info', 'вы вышли', { global: true });
    enterScreen(screenOf('')); // the same screen: nothing goes
    expect(notifications.items.map((n) => n.text)).toEqual(['ошибка экрана', 'вы вышли']);
    enterScreen('summary');
    expect(notifications.items.map((n) => n.text)).toEqual(['вы вышли']);
  });
});
