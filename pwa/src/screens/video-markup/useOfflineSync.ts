import { useEffect, useState } from 'react';
import { ownedBy, queuedSaves } from '../../offline/outbox';
import { carryOverAfterSave } from '../../offline/replay';
import { onSaveReplayed } from '../../state/outboxSync';
import { forgetOffline, isKeptOffline, keepOffline } from '../../offline/videoCache';
import { login } from '../../state/login';
import { notify } from '../../status/notifications';
import { SAVE_FAILED, SAVED } from './model';
import type { MarkupSession } from './session';
import type { MarkupConflict } from './useMarkupPersistence';

interface ReplayOptions {
  videoId: number;
  session: MarkupSession;
  setQueued(queued: boolean): void;
  setConflict(conflict: MarkupConflict): void;
  /** After a queued save reached the server. */
  onSent(): void;
}

/**
 * Saves queued without a connection are sent app-wide (state/outboxSync.ts); this screen takes the
 * outcome for its video: the sent rows become saved ones, later edits stay unsaved. The callbacks
 * must be stable (state setters, memoised functions).
 */
export function useQueuedSaveReplay({ videoId, session, setQueued, setConflict, onSent }: ReplayOptions) {
  useEffect(() => {
    void queuedSaves().then(
      (items) => setQueued(items.some((i) => i.videoId === videoId && ownedBy(i, login.userLogin))),
      () => {},
    );
    return onSaveReplayed((outcome) => {
      if (outcome.videoId !== videoId) return false;
      setQueued(false);
      if (outcome.result === 'sent' && outcome.reply) {
        if (session.version !== outcome.reply.version) {
          const carried = carryOverAfterSave(session.toDraft(), outcome.reply);
          session.loadFromServer(outcome.reply);
          session.restoreDraft(carried);
        }
        notify('success', `${SAVED} (отложенное сохранение отправлено)`);
        onSent();
        return true;
      }
      if (outcome.result === 'conflict') {
        setConflict({ server: null, draft: null });
        notify('error', outcome.message || 'Разметка этого видео изменилась на сервере');
        return true;
      }
      if (outcome.result === 'rejected') {
        notify('error', `${SAVE_FAILED}: ${outcome.message ?? ''}`);
        return true;
      }
      return false;
    });
  }, [videoId, session, setQueued, setConflict, onSent]);
}

/** Whether the video file is kept on this device for work without a network, and the command that keeps or forgets it. */
export function useKeptOffline(videoId: number, structureId: number | undefined) {
  const [offline, setOffline] = useState<{ kept: boolean; progress: number | null }>({ kept: false, progress: null });
  useEffect(() => {
    isKeptOffline(videoId).then(
      (kept) => setOffline({ kept, progress: null }),
      () => {},
    );
  }, [videoId]);

  const toggle = async () => {
    try {
      if (offline.kept) {
        await forgetOffline(videoId);
        setOffline({ kept: false, progress: null });
        return;
      }
      setOffline({ kept: false, progress: 0 });
      await keepOffline(videoId, structureId ?? 0, (progress) => setOffline({ kept: false, progress }));
      setOffline({ kept: true, progress: null });
      notify('success', 'Видео сохранено на устройстве: его можно размечать без сети');
    } catch (err) {
      setOffline({ kept: false, progress: null });
      notify('error', err instanceof Error ? err.message : String(err));
    }
  };
  return { offline, toggle };
}
