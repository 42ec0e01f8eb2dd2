/**
 * The first screen of a shared report as server HTML: the page of a shared report's link,
 * /demo/{key}, carries it before #root (api/src/report/share-snapshot.ts, SERVER_SNAPSHOT_ID), so the
 * table is on screen with the first response; index.html's style keeps #root laid out but unseen
 * while it is there. The app's own screen drops it once it has rendered (SharedInteractiveScreen),
 * any navigation drops it too. docs/performance.md, «Lighthouse».
 */
const SERVER_SNAPSHOT_ID = 'norma-server-snapshot';

/** Whether the page came with the server's first screen (and it is still there). */
export function hasServerSnapshot(): boolean {
  return document.getElementById(SERVER_SNAPSHOT_ID) !== null;
}

/** Removes the server's first screen, if the page has one: the app's own screen shows from now on. */
export function dropServerSnapshot() {
  document.getElementById(SERVER_SNAPSHOT_ID)?.remove();
}

/** From src/main.tsx: the server's first screen belongs to the address the page came for; another route drops it. */
export function dropServerSnapshotOnNavigation() {
  if (hasServerSnapshot()) window.addEventListener('hashchange', dropServerSnapshot, { once: true });
}
