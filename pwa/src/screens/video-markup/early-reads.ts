import { subscribe } from 'valtio';
import { api } from '../../api/client';
import { videoUrl } from '../../api/paths';
import { loadDraft, type MarkupDraft } from '../../offline/drafts';
import { login } from '../../state/login';
import { startVideo } from './early-video';

/**
 * The markup screen's first reads, started from the route while the app starts (routes.tsx `start`),
 * not after the screen's first render: on a 4× slower CPU that render ended 0.75 s after the sign-in
 * check had answered, and the reads waited for it (issue 47, markup cold open).
 */
const calls = (videoId: number, quiet: boolean) => ({
  markups: () => api.get('/api/v1/video_markups/{videoId}', { path: { videoId }, quiet }),
  meta: () => api.get('/api/v1/video_meta/{videoId}', { path: { videoId }, quiet }),
  available: () => api.get('/api/v1/available_operations', { query: { video_id: videoId }, quiet }),
  workplaces: () => api.get('/api/v1/workplaces', { query: { video_id: videoId }, quiet }),
  employees: () => api.get('/api/v1/employees', { query: { video_id: videoId }, quiet }),
});

type Calls = ReturnType<typeof calls>;
export type MarkupReads = { [K in keyof Calls]: ReturnType<Calls[K]> };

function readAll(videoId: number, quiet: boolean): MarkupReads {
  const c = calls(videoId, quiet);
  return { markups: c.markups(), meta: c.meta(), available: c.available(), workplaces: c.workplaces(), employees: c.employees() };
}

let started: { videoId: number; reads: MarkupReads } | null = null;

type DraftRead = Promise<MarkupDraft | undefined>;
/** The local draft of the video, read as soon as the sign-in check names the user (drafts are per user). */
let startedDraft: { videoId: number; read: Promise<{ owner: string; draft: MarkupDraft | undefined }> } | null = null;

const readDraft = (videoId: number, owner: string): DraftRead => loadDraft(videoId, owner).catch(() => undefined);

/** The signed-in user's login, once known (at once where it is). */
function signedInLogin(): Promise<string> {
  if (login.userLogin) return Promise.resolve(login.userLogin);
  return new Promise((resolve) => {
    const unsubscribe = subscribe(login, () => {
      if (!login.userLogin) return;
      unsubscribe();
      resolve(login.userLogin);
    });
  });
}

/**
 * Starts the reads of the video at the page's address, and the video itself, once per page load. Quiet: before the sign-in
 * check answers a read may be refused; the screen then reads it again itself and shows what it gets.
 */
export function startMarkupReads(videoId: number) {
  if (!Number.isSafeInteger(videoId) || videoId <= 0 || started) return;
  const reads = readAll(videoId, true);
  // Taken (and awaited) by the screen; until then a refusal is not an unhandled rejection.
  for (const read of Object.values(reads)) (read as Promise<unknown>).catch(() => {});
  started = { videoId, reads };
  // On a fresh profile the screen's own read came 0.3 s after the markup, on a 4× slower CPU (issue 47).
  startedDraft = { videoId, read: signedInLogin().then(async (owner) => ({ owner, draft: await readDraft(videoId, owner) })) };
  startVideo(videoUrl(videoId));
}

/** The screen's read of `owner`'s draft of `videoId`: the one started early (once, when it is this user's), else a fresh one. */
export function markupDraft(videoId: number, owner: string): DraftRead {
  const early = startedDraft?.videoId === videoId ? startedDraft.read : null;
  startedDraft = null;
  if (!early) return readDraft(videoId, owner);
  return early.then((read) => (read.owner === owner ? read.draft : readDraft(videoId, owner)));
}

/** The screen's reads of `videoId`: those started early (once; each read again if it failed), else fresh ones. */
export function markupReads(videoId: number): MarkupReads {
  const early = started?.videoId === videoId ? started.reads : null;
  started = null;
  if (!early) return readAll(videoId, false);
  const again = calls(videoId, false);
  return {
    markups: early.markups.catch(again.markups),
    meta: early.meta.catch(again.meta),
    available: early.available.catch(again.available),
    workplaces: early.workplaces.catch(again.workplaces),
    employees: early.employees.catch(again.employees),
  };
}
