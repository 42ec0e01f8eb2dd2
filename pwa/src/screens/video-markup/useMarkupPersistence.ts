import { useCallback, useEffect, useRef, useState } from 'react';
import { api, ApiCallError } from '../../api/client';
import type { VideoMarkupsChanges, VideoMarkupsSave } from '../../api/types';
import { clearDraft, saveDraft, type MarkupDraft } from '../../offline/drafts';
import { markupDraft } from './early-reads';
import { rememberMarkups } from '../../offline/apiCache';
import { clearProblem, dropQueuedFor, enqueueSave, withOutboxLock } from '../../offline/outbox';
import { login } from '../../state/login';
import { notify } from '../../status/notifications';
import { INVALID_MARKUP, INVALID_MARKUP_BANNER, SAVE_FAILED, SAVED } from './model';
import { invalidRows, type VideoMarkupsReply } from '../../offline/markup-rows';
import type { MarkupSession, SentKeys } from './session';

/** A newer server version than the local edits: `draft` is set when the edits came from storage. */
export type MarkupConflict = { server: VideoMarkupsReply | null; draft: MarkupDraft | null };

const newSaveId = () => (crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`);
const isOffline = (err: unknown) => err instanceof ApiCallError && err.status === 0;
/** Whose drafts and queued saves these are: the signed-in user's (the screen is behind the sign-in). */
const owner = () => login.userLogin;

interface PersistenceOptions {
  videoId: number;
  session: MarkupSession;
  /** Ends the segment being coded: a save sends it closed. */
  closeOpenSegment(): void;
  /** After the server took a save (the activities panel reloads). */
  onSaved(): void;
}

/**
 * Sends the session's changes. Under the outbox lock: a replay of this video's queued save never
 * runs beside this save. The payload is built inside it, from the baseline left by any replay that
 * just ended; it carries every change still queued for this video (same baseline), so it replaces
 * them. Without a connection the payload is queued in the outbox (and the error still thrown).
 */
function sendSave(videoId: number, session: MarkupSession) {
  return withOutboxLock(async () => {
    // The body and the keys of its new rows from one pass, in one order (acceptChanges pairs them with the server's new rows).
    const { payload, sent } = session.prepareSave(newSaveId());
    try {
      // Only what the save changed comes back (not the whole list): a save at 10,000 rows stays as quick as at 100.
      const saved = await api.put('/api/v1/video_markups/{videoId}', {
        path: { videoId },
        query: { reply: 'changes' },
        body: payload as VideoMarkupsSave,
        quiet: true,
      });
      await dropQueuedFor(videoId, owner());
      return { saved, sent };
    } catch (err) {
      if (isOffline(err)) await enqueueSave({ videoId, payload, queuedAt: Date.now(), owner: owner() });
      throw err;
    }
  });
}

/**
 * Lays a save's answer over the session: its changes, or — the whole markup (a save answered
 * in full) or changes on a version this session does not hold — the whole markup read again.
 */
async function acceptReply(videoId: number, session: MarkupSession, reply: VideoMarkupsReply | VideoMarkupsChanges, sent: SentKeys) {
  if ('deleted_markup_ids' in reply && session.acceptChanges(reply, sent)) return;
  session.acceptSaved('deleted_markup_ids' in reply ? await api.get('/api/v1/video_markups/{videoId}', { path: { videoId } }) : reply);
}

/** After a save the server took: the draft and the sync problem go, the saved markup is kept for offline opening. */
async function keepSaved(videoId: number, session: MarkupSession) {
  await clearDraft(videoId, owner());
  void clearProblem(videoId, owner());
  void rememberMarkups(videoId, session.savedReply()).catch(() => {});
}

/** The server fills the gaps with idle time; the rows it added (not among `before`) are one undoable step, like any other bulk edit. */
async function fillGapsOnServer(videoId: number, session: MarkupSession, before: Set<string>) {
  const { payload, sent } = session.prepareSave(newSaveId());
  const reply = await api.post('/api/v1/video_markups/{videoId}', {
    path: { videoId },
    query: { reply: 'changes' },
    body: payload as VideoMarkupsSave,
  });
  await acceptReply(videoId, session, reply, sent);
  session.recordAdded(
    'Заполнить пропуски',
    session.rows.map((r) => r.key).filter((key) => !before.has(key)),
  );
  await clearDraft(videoId, owner());
}

/**
 * Everything that writes the markup: the save (to the server, or queued in the outbox without a
 * connection), filling gaps, finishing the task, the 409 conflict and its resolution, and the
 * local draft. The callbacks in `options` are read when a command runs, so they may change on
 * every render.
 */
export function useMarkupPersistence(options: PersistenceOptions) {
  const { videoId, session } = options;
  const [conflict, setConflict] = useState<MarkupConflict | null>(null);
  const [busy, setBusy] = useState(false);
  const [banner, setBanner] = useState<string | null>(null);
  /** A save of this video waits in the outbox for a connection. */
  const [queued, setQueued] = useState(false);
  // A save or a rebase in flight: a second save (Ctrl+S pressed again) waits for it to end.
  const inFlight = useRef(false);

  // The unsaved state goes to IndexedDB on every change, so a reload or a crash loses nothing: only
  // what differs from the saved version (a few rows, not all 10,000 copied into storage each time).
  const keepDraft = useCallback(() => saveDraft({ videoId, ...session.toChangesDraft(), savedAt: Date.now(), owner: owner() }), [videoId, session]);

  /** This user's local draft of the video, if any (read beside the markup, laid over it by applyDraft). */
  const readDraft = useCallback(() => markupDraft(videoId, owner()), [videoId]);
  /** Lays a draft left on this device over the server's markup; a draft of an older version is a conflict. */
  const applyDraft = useCallback(
    (markups: VideoMarkupsReply, draft: Awaited<ReturnType<typeof readDraft>>) => {
      if (!draft) return;
      if (draft.version === markups.version) {
        session.restoreDraft(draft);
        if (session.dirty) notify('info', 'Восстановлены несохранённые изменения этого видео');
      } else {
        setConflict({ server: markups, draft });
      }
    },
    [session],
  );

  /** Ends the segment being coded, then refuses locally (spec 01 §5) when a row is invalid. */
  const readyToSend = (): boolean => {
    options.closeOpenSegment();
    if (invalidRows(session.rows).length > 0) {
      notify('error', INVALID_MARKUP);
      setBanner(INVALID_MARKUP_BANNER);
      return false;
    }
    setBanner(null);
    return true;
  };

  const save = async (): Promise<boolean> => {
    if (inFlight.current) return false;
    if (!readyToSend()) return false;
    setBusy(true);
    inFlight.current = true;
    try {
      const { saved, sent } = await sendSave(videoId, session);
      await acceptReply(videoId, session, saved, sent);
      setQueued(false);
      await keepSaved(videoId, session);
      notify('success', SAVED);
      options.onSaved();
      return true;
    } catch (err) {
      if (isOffline(err)) {
        // The draft is what the screen reopens with: written now, not after the usual pause.
        await keepDraft().catch(() => {});
        setQueued(true);
        notify('info', 'Нет связи с сервером: изменения сохранены на этом устройстве и будут отправлены, когда связь появится.');
        return true;
      }
      if (err instanceof ApiCallError && err.status === 409) {
        setConflict({ server: null, draft: null });
        notify('error', err.message);
        return false;
      }
      notify('error', `${SAVE_FAILED}: ${err instanceof Error ? err.message : String(err)}`);
      return false;
    } finally {
      setBusy(false);
      inFlight.current = false;
    }
  };

  /** Takes the server's newer version, with or without the local changes laid over it. */
  const resolveConflict = async (keepMine: boolean) => {
    if (!conflict || inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    try {
      const fresh = conflict.server ?? (await api.get('/api/v1/video_markups/{videoId}', { path: { videoId } }));
      if (keepMine) {
        session.rebase(fresh, conflict.draft ?? undefined);
        notify('info', 'Ваши изменения наложены на свежую версию — проверьте и сохраните');
      } else {
        session.loadFromServer(fresh);
        await clearDraft(videoId, owner());
      }
      setConflict(null);
      void clearProblem(videoId, owner());
    } catch {
      // Shown by the API client; the conflict stays open.
    } finally {
      setBusy(false);
      inFlight.current = false;
    }
  };

  const fillGaps = async () => {
    if (!readyToSend()) return;
    const before = new Set(session.rows.map((r) => r.key));
    setBusy(true);
    try {
      await fillGapsOnServer(videoId, session, before);
      notify('success', 'Пропуски заполнены простоем');
    } catch {
      // Shown by the API client.
    } finally {
      setBusy(false);
    }
  };

  /** Saves, then marks the task finished; true when it is (the screen then leaves). */
  const finish = async (): Promise<boolean> => {
    if (!(await save())) return false;
    try {
      await api.post('/api/v1/task/{videoId}/finish', { path: { videoId }, quiet: true });
      notify('success', 'Задача завершена', { global: true });
      return true;
    } catch (err) {
      notify('error', `Ошибка: ${err instanceof Error ? err.message : JSON.stringify(err)}`);
      return false;
    }
  };

  /** Drops the unsaved changes, asking first; true when the screen may leave. */
  const cancel = (): boolean => {
    if (session.dirty && !window.confirm('Есть несохранённые изменения. Уйти без сохранения?')) return false;
    void clearDraft(videoId, owner());
    return true;
  };

  return { conflict, setConflict, busy, banner, queued, setQueued, keepDraft, readDraft, applyDraft, save, resolveConflict, fillGaps, finish, cancel };
}

/**
 * Keeps the draft in step with the session once the screen is loaded: written 300 ms after each
 * change (cleared when nothing is unsaved), at once when the page is hidden, and the browser
 * warns before leaving with unsaved changes.
 */
export function useDraftAutosave(videoId: number, session: MarkupSession, loaded: boolean, conflict: MarkupConflict | null, keepDraft: () => Promise<unknown>) {
  useEffect(() => {
    if (!loaded) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const restart = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (session.dirty) void keepDraft();
        else if (!conflict) void clearDraft(videoId, owner());
      }, 300);
    };
    restart();
    // By subscription: the screen is not drawn again on each change of the session.
    const unsubscribe = session.subscribe(restart);
    return () => {
      unsubscribe();
      clearTimeout(timer);
    };
  }, [loaded, videoId, session, conflict, keepDraft]);

  // A field device switches apps or closes the tab at any moment: the draft is written at once then.
  useEffect(() => {
    if (!loaded) return;
    const onHide = () => {
      if (document.visibilityState === 'hidden' && session.dirty) void keepDraft();
    };
    document.addEventListener('visibilitychange', onHide);
    return () => document.removeEventListener('visibilitychange', onHide);
  }, [loaded, session, keepDraft]);

  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (session.dirty) {
        event.preventDefault();
        event.returnValue = '';
      }
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [session]);
}
