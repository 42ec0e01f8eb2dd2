import { ownedBy, queuedSaves } from '../offline/outbox';
import { markPendingSignOut, settlePendingSignOut } from '../offline/signOut';
import { login, signedOutOnDevice } from './login';
import { notify } from '../status/notifications';

export const SIGNED_OUT = 'Вы вышли из системы';
export const SIGNED_OUT_OFFLINE =
  'Нет связи с сервером: вы вышли на этом устройстве. Сеанс на сервере будет завершён первым же запросом, когда связь появится; до тех пор приложение не отправляет ничего от вашего имени.';

/**
 * Signs out (spec 02): the names, the identity kept for offline work and the cached reads go at
 * once, with or without a connection. The session cookie cannot be removed by a script, so the
 * sign-out is first written down on the device (offline/signOut.ts): until the server has ended
 * the session, nothing else is sent with that cookie, and the next person on the device signs
 * in with their own password. The user's queued saves stay for their next sign-in.
 */
export async function logout(navigate: (to: string) => void) {
  const owner = login.userLogin;
  const pending = (await queuedSaves().catch(() => [])).filter((i) => ownedBy(i, owner)).length;
  if (
    pending > 0 &&
    !window.confirm(`Не отправлено ваших сохранений разметки: ${pending}. Они останутся на устройстве и уйдут после вашего следующего входа. Выйти?`)
  )
    return;
  try {
    await markPendingSignOut();
  } catch (err) {
    // Without the record the old session could be used again after a reload: do not pretend it ended.
    notify('error', `Не удалось выйти: хранилище устройства недоступно (${err instanceof Error ? err.message : String(err)})`, { global: true });
    return;
  }
  signedOutOnDevice();
  navigate('/');
  notify('info', (await settlePendingSignOut()) ? SIGNED_OUT : SIGNED_OUT_OFFLINE, { global: true });
}
