import { proxy } from 'valtio';
import { api } from '../api/client';
import type { InstanceInfo } from '../api/types';

/**
 * What the server says about this installation (GET /api/v1/instance): demo data, and the outside
 * sites the header and the public pages link to. A site the server does not name (NORMA_LINK_*
 * unset, README «Настройки») has no link at all, rather than a dead one.
 */
export const instance = proxy({
  demo: false,
  links: {} as InstanceInfo['links'],
});

let loading: Promise<void> | null = null;

/** Asks once per page load; a failed call is shown by the API client and leaves no links and no demo badge. */
export function loadInstance(): Promise<void> {
  loading ??= api.get('/api/v1/instance').then(
    (info) => {
      instance.demo = info.demo;
      instance.links = info.links ?? {};
    },
    () => {
      loading = null;
    },
  );
  return loading;
}
