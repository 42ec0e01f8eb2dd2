import { api, ApiCallError } from '../api/client';
import type { Message } from '../api/types';
import { queuedSaves } from '../offline/outbox';
import { signedOutOnDevice } from '../state/login';
import { notify } from '../state/notifications';

/**
 * Asks the server, shows its reply, drops the names, the identity kept for offline work and the
 * cached reads, and goes to the start page (spec 02). Without a connection the device forgets the
 * user all the same (the server session ends at the next sign-out or when it expires).
 */
export async function logout(navigate: (to: string) => void) {
  const pending = (await queuedSaves().catch(() => [])).length;
  if (pending > 0 && !window.confirm(`Не отправлено сохранений разметки: ${pending}. Они останутся на устройстве и уйдут после следующего входа. Выйти?`))
    return;
  try {
    const reply = await api.get<Message>('/api/v1/leave', undefined, { quiet: true });
    notify('info', reply.message);
  } catch (err) {
    if (!(err instanceof ApiCallError && err.status === 0)) {
      notify('error', err instanceof Error ? err.message : String(err));
      return;
    }
    notify('info', 'Нет связи с сервером: вы вышли на этом устройстве.');
  }
  signedOutOnDevice();
  navigate('/');
}
