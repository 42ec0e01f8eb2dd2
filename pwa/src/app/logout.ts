import { api } from '../api/client';
import type { Message } from '../api/types';
import { setLoggedOut } from '../state/login';
import { notify } from '../state/notifications';

/** Asks the server, shows its reply, drops the names and goes to the start page (spec 02). */
export async function logout(navigate: (to: string) => void) {
  const reply = await api.get<Message>('/api/v1/leave');
  notify('info', reply.message);
  setLoggedOut();
  navigate('/');
}
