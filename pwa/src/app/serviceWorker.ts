import { registerSW } from 'virtual:pwa-register';

/** Installs the workbox service worker that keeps the app shell available offline. */
export function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) return;
  registerSW({ immediate: true });
}
