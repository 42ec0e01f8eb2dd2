import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useSnapshot } from 'valtio';
import { useLocation } from 'wouter';
import { api, ApiCallError, downloadFile } from '../../api/client';
import type { NamedItem } from '../../api/types';
import { formatDateTime } from '../../format/time';
import { clearDraft, loadDraft, saveDraft, type MarkupDraft } from '../../offline/drafts';
import { rememberMarkups } from '../../offline/apiCache';
import { clearProblem, dropQueuedFor, enqueueSave, queuedSaves, withOutboxLock } from '../../offline/outbox';
import { carryOverAfterSave } from '../../offline/replay';
import { onSaveReplayed } from '../../offline/sync';
import { forgetOffline, isKeptOffline, keepOffline } from '../../offline/videoCache';
import { login } from '../../state/login';
import { notify } from '../../state/notifications';
import { Banner } from '../../ui/Banner';
import { performAction, runShortcut, type ActionContext } from './actions';
import { endCoding, nextGapStart, nextSegment, OPERATION_KEYS, pressOperationKey, previousSegment, type Lane } from './coding';
import { HelpOverlay } from './HelpOverlay';
import {
  INVALID_MARKUP, INVALID_MARKUP_BANNER, invalidRows, LINK_COPIED, NO_LONGER_AT_SECOND, SAVE_FAILED, SAVED,
  type MarkupRow, type SavePayload, type VideoMarkupsReply,
} from './model';
import { OperationButtons } from './OperationButtons';
import { OperationRows, type OperationOption } from './OperationRows';
import { Player, SPEEDS } from './Player';
import { Playhead } from './playhead';
import { MarkupSession } from './session';
import { Activities, AgreementPanel, MarkupHelper, OtherCameras, TimeBudgetPanel, VideoComment, type Activity, type OtherVideo } from './SidePanels';
import { Timeline } from './Timeline';

interface VideoMeta {
  id: number;
  filename: string;
  comment: string;
  camera_id: number;
  camera_key: number;
  structure_id: number;
  start_time: string;
  duration: number | null;
  status: string;
}

interface Lookups {
  operations: OperationOption[];
  workplaces: NamedItem[];
  employees: NamedItem[];
}

const newSaveId = () => (crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`);
const isOffline = (err: unknown) => err instanceof ApiCallError && err.status === 0;

/** spec 01 "Video markup": the assessor's screen. */
export function VideoMarkupScreen({ videoId: videoIdParam, getTime }: { videoId: string; getTime?: string }) {
  const videoId = Number(videoIdParam);
  const startSecond = Number(getTime ?? 0) || 0;
  const [, navigate] = useLocation();
  const { timeZone } = useSnapshot(login);
  const session = useMemo(() => new MarkupSession(), [videoId]);
  useSyncExternalStore(session.subscribe, session.getRevision);
  const playhead = useMemo(() => new Playhead(), [videoId]);
  const videoRef = useRef<HTMLVideoElement>(null);

  const [meta, setMeta] = useState<VideoMeta | null>(null);
  const [lookups, setLookups] = useState<Lookups>({ operations: [], workplaces: [], employees: [] });
  const [loadError, setLoadError] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [duration, setDuration] = useState(0);
  const [banner, setBanner] = useState<string | null>(null);
  /** A newer server version than the local edits: `draft` is set when the edits came from storage. */
  const [conflict, setConflict] = useState<{ server: VideoMarkupsReply | null; draft: MarkupDraft | null } | null>(null);
  const [busy, setBusy] = useState(false);
  const [others, setOthers] = useState<OtherVideo[] | null>(null);
  const [activities, setActivities] = useState<Activity[]>([]);
  const [currentSecond, setCurrentSecond] = useState(startSecond);
  const [help, setHelp] = useState(false);
  const [loop, setLoop] = useState<{ start: number; end: number } | null>(null);
  const [offline, setOffline] = useState<{ kept: boolean; progress: number | null }>({ kept: false, progress: null });
  const [queued, setQueued] = useState(false);

  // Load everything the screen needs; the markup may be restored from a local draft.
  useEffect(() => {
    let cancelled = false;
    (async () => {
      try {
        const [metaReply, markups, available, workplaces, employees] = await Promise.all([
          api.get<VideoMeta>(`/api/v1/video_meta/${videoId}`),
          api.get<VideoMarkupsReply>(`/api/v1/video_markups/${videoId}`),
          api.get<{ operations: OperationOption[] }>('/api/v1/available_operations', { video_id: videoId }),
          api.get<NamedItem[]>('/api/v1/workplaces', { video_id: videoId }),
          api.get<NamedItem[]>('/api/v1/employees', { video_id: videoId }),
        ]);
        if (cancelled) return;
        setMeta(metaReply);
        if (metaReply.duration) setDuration(metaReply.duration);
        setLookups({ operations: available.operations, workplaces, employees });
        session.loadFromServer(markups);
        const draft = await loadDraft(videoId).catch(() => undefined);
        if (draft && !cancelled) {
          if (draft.version === markups.version) {
            session.restoreDraft(draft);
            if (session.dirty) notify('info', 'Восстановлены несохранённые изменения этого видео');
          } else {
            setConflict({ server: markups, draft });
          }
        }
        setLoaded(true);
      } catch (err) {
        if (!cancelled) setLoadError(err instanceof Error ? err.message : String(err));
      }
    })();
    isKeptOffline(videoId).then((kept) => setOffline({ kept, progress: null }), () => {});
    return () => {
      cancelled = true;
    };
  }, [videoId, session]);

  // The unsaved state goes to IndexedDB on every change, so a reload or a crash loses nothing.
  const keepDraft = useCallback(
    () => saveDraft({ videoId, version: session.version, rows: [...session.rows], stamps: [...session.stamps], savedAt: Date.now() }),
    [videoId, session],
  );
  useEffect(() => {
    if (!loaded) return;
    const timer = setTimeout(() => {
      if (session.dirty) void keepDraft();
      else if (!conflict) void clearDraft(videoId);
    }, 300);
    return () => clearTimeout(timer);
  }, [session.revision, loaded, videoId, session, conflict, keepDraft]);
  // A field device switches apps or closes the tab at any moment: the draft is written at once then.
  useEffect(() => {
    if (!loaded) return;
    const onHide = () => {
      if (document.visibilityState === 'hidden' && session.dirty) void keepDraft();
    };
    document.addEventListener('visibilitychange', onHide);
    return () => document.removeEventListener('visibilitychange', onHide);
  }, [loaded, session, keepDraft]);

  // The browser warns before leaving with unsaved changes.
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

  // Current second refreshes every 1 second (spec 01 §9).
  useEffect(() => {
    const timer = setInterval(() => setCurrentSecond(Math.floor(playhead.time)), 1000);
    return () => clearInterval(timer);
  }, [playhead]);

  const loadOthers = useCallback(
    (second: number) => api.get<OtherVideo[]>('/api/v1/other_videos', { video_id: videoId, current_second: second }).then(setOthers, () => setOthers([])),
    [videoId],
  );
  const loadActivities = useCallback(
    () => api.get<Activity[]>('/api/v1/activities', { video_id: videoId, offset: 0, limit: 5 }).then(setActivities, () => {}),
    [videoId],
  );
  useEffect(() => {
    void loadActivities();
  }, [loadActivities]);
  const othersSecond = Math.floor(currentSecond / 5) * 5;
  useEffect(() => {
    void loadOthers(othersSecond);
  }, [loadOthers, othersSecond]);

  // Saves queued without a connection are sent app-wide (offline/sync.ts); this screen takes the
  // outcome for its video: the sent rows become saved ones, later edits stay unsaved.
  useEffect(() => {
    void queuedSaves().then((items) => setQueued(items.some((i) => i.videoId === videoId)), () => {});
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
        void loadActivities();
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
  }, [videoId, session, loadActivities]);

  const player = useMemo(
    () => ({
      time: () => videoRef.current?.currentTime ?? playhead.time,
      seek: (seconds: number) => {
        const video = videoRef.current;
        if (video) video.currentTime = Math.max(0, Math.min(video.duration || seconds, seconds));
        playhead.set(Math.max(0, seconds));
      },
      togglePlay: () => {
        const video = videoRef.current;
        if (video) video.paused ? video.play().catch(() => {}) : video.pause();
      },
      stepRate: (direction: 1 | -1) => {
        const video = videoRef.current;
        if (!video) return;
        const index = SPEEDS.indexOf(video.playbackRate);
        video.playbackRate = SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, (index < 0 ? 2 : index) + direction))]!;
      },
      frame: () => 0.1,
      duration: () => videoRef.current?.duration || duration,
    }),
    [playhead, duration],
  );

  /**
   * The lane new rows go to: the selected row's, else the one chosen in "Разметка для", which starts
   * as the lane of the video's last row, or the only workplace/employee (spec 01 §4).
   */
  const [lane, setLane] = useState<Lane>({ workplace_id: null, employee_id: null });
  useEffect(() => {
    if (!loaded) return;
    const last = session.rows.at(-1);
    setLane(
      last
        ? { workplace_id: last.workplace_id, employee_id: last.employee_id }
        : {
            workplace_id: lookups.workplaces.length === 1 ? lookups.workplaces[0]!.id : null,
            employee_id: lookups.employees.length === 1 ? lookups.employees[0]!.id : null,
          },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded, lookups]);
  const defaultLane = (): Lane => {
    const selected = session.selectedKey ? session.row(session.selectedKey) : null;
    if (selected) return { workplace_id: selected.workplace_id, employee_id: selected.employee_id };
    return lane;
  };

  /** Reaction-time offset: a key pressed while playing marks a moment slightly earlier. */
  const [reactionMs, setReactionMs] = useState(() => Number(localStorage.getItem('norma:reaction-ms') ?? 250));
  useEffect(() => localStorage.setItem('norma:reaction-ms', String(reactionMs)), [reactionMs]);
  const keyTime = () => {
    const video = videoRef.current;
    const playing = video && !video.paused;
    return Math.max(0, player.time() - (playing ? (reactionMs / 1000) * (video?.playbackRate ?? 1) : 0));
  };

  const closeOpenSegment = () => {
    if (session.codingKey) endCoding(session, player.time());
  };

  /** Ends the segment being coded, then refuses locally (spec 01 §5) when a row is invalid. */
  const readyToSend = (): boolean => {
    closeOpenSegment();
    if (invalidRows(session.rows).length > 0) {
      notify('error', INVALID_MARKUP);
      setBanner(INVALID_MARKUP_BANNER);
      return false;
    }
    setBanner(null);
    return true;
  };

  // A save or a rebase in flight: a second save (Ctrl+S pressed again) waits for it to end.
  const inFlight = useRef(false);
  const save = async (): Promise<boolean> => {
    if (inFlight.current) return false;
    if (!readyToSend()) return false;
    setBusy(true);
    inFlight.current = true;
    try {
      // Under the outbox lock: a replay of this video's queued save never runs beside this save.
      // The payload is built inside it, from the baseline left by any replay that just ended; it
      // carries every change still queued for this video (same baseline), so it replaces them.
      const reply = await withOutboxLock(async () => {
        const payload: SavePayload = session.buildSavePayload(newSaveId());
        try {
          const saved = await api.put<VideoMarkupsReply>(`/api/v1/video_markups/${videoId}`, payload, { quiet: true });
          await dropQueuedFor(videoId);
          return saved;
        } catch (err) {
          if (isOffline(err)) await enqueueSave({ videoId, payload, queuedAt: Date.now() });
          throw err;
        }
      });
      session.acceptSaved(reply);
      setQueued(false);
      await clearDraft(videoId);
      void clearProblem(videoId);
      void rememberMarkups(videoId, reply).catch(() => {});
      notify('success', SAVED);
      void loadActivities();
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
      const fresh = conflict.server ?? (await api.get<VideoMarkupsReply>(`/api/v1/video_markups/${videoId}`));
      if (keepMine) {
        session.rebase(fresh, conflict.draft ?? undefined);
        notify('info', 'Ваши изменения наложены на свежую версию — проверьте и сохраните');
      } else {
        session.loadFromServer(fresh);
        await clearDraft(videoId);
      }
      setConflict(null);
      void clearProblem(videoId);
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
      const reply = await api.post<VideoMarkupsReply>(`/api/v1/video_markups/${videoId}`, session.buildSavePayload(newSaveId()));
      session.acceptSaved(reply);
      // The filled gaps are one undoable step, like any other bulk edit.
      session.recordAdded('Заполнить пропуски', session.rows.map((r) => r.key).filter((key) => !before.has(key)));
      await clearDraft(videoId);
      notify('success', 'Пропуски заполнены простоем');
    } catch {
      // Shown by the API client.
    } finally {
      setBusy(false);
    }
  };

  const backToTasks = () => navigate(meta ? `/markup/${meta.structure_id}` : '/projects');

  const finish = async () => {
    if (!(await save())) return;
    try {
      await api.post(`/api/v1/task/${videoId}/finish`, undefined, { quiet: true });
      notify('success', 'Задача завершена');
      backToTasks();
    } catch (err) {
      notify('error', `Error: ${err instanceof Error ? err.message : JSON.stringify(err)}`);
    }
  };

  const cancel = () => {
    if (session.dirty && !window.confirm('Есть несохранённые изменения. Уйти без сохранения?')) return;
    void clearDraft(videoId);
    backToTasks();
  };

  const switchCamera = async (other: OtherVideo) => {
    try {
      if (session.dirty && !(await save())) return;
      const second = Math.floor(player.time());
      const fresh = await api.get<OtherVideo[]>('/api/v1/other_videos', { video_id: videoId, current_second: second }, { quiet: true });
      const target = fresh.find((v) => v.video_id === other.video_id);
      if (!target) {
        notify('error', NO_LONGER_AT_SECOND);
        setOthers(fresh);
        return;
      }
      navigate(`/video/${target.video_id}/${Math.floor(target.current_second)}`);
    } catch (err) {
      notify('error', `Error: ${err instanceof Error ? err.message : String(err)}`);
    }
  };

  const share = async () => {
    const link = `${location.origin}/#/video/${videoId}/${Math.floor(player.time())}`;
    try {
      await navigator.clipboard.writeText(link);
      notify('success', LINK_COPIED);
    } catch {
      notify('error', `Не удалось скопировать ссылку, скопируйте её вручную: ${link}`);
    }
  };

  const addOperation = () => {
    // spec 01 §4: no operation, id -1; workplace/employee preselected. Start = end = the playhead
    // (not 0), so a row added by touch is already where the video is (docs/markup.md).
    const at = Math.round(player.time() * 10) / 10;
    const row = session.addRow({ ...defaultLane(), start: at, end: at });
    session.select(row.key);
  };
  const addNote = () => session.addStamp({ type: 'note', time: Math.floor(player.time()), comment: '', employee_id: defaultLane().employee_id });

  const keepForOffline = async () => {
    try {
      if (offline.kept) {
        await forgetOffline(videoId);
        setOffline({ kept: false, progress: null });
        return;
      }
      setOffline({ kept: false, progress: 0 });
      await keepOffline(videoId, meta?.structure_id ?? 0, (progress) => setOffline({ kept: false, progress }));
      setOffline({ kept: true, progress: null });
      notify('success', 'Видео сохранено на устройстве: его можно размечать без сети');
    } catch (err) {
      setOffline({ kept: false, progress: null });
      notify('error', err instanceof Error ? err.message : String(err));
    }
  };

  const selected = session.selectedKey ? session.row(session.selectedKey) : null;
  const ctx: ActionContext = {
    session,
    player,
    save: () => void save(),
    addOperation,
    addNote,
    endCoding: closeOpenSegment,
    nextGap: () => {
      const at = nextGapStart(session.rows, player.time(), player.duration());
      if (at === null) notify('info', 'Неразмеченных мест дальше нет');
      else player.seek(at);
    },
    previousSegment: () => {
      const row = previousSegment(session.rows, player.time());
      if (row) {
        session.select(row.key);
        player.seek(row.start);
      }
    },
    nextSegment: () => {
      const row = nextSegment(session.rows, player.time());
      if (row) {
        session.select(row.key);
        player.seek(row.start);
      }
    },
    toggleLoop: () => {
      if (loop || !selected || !(selected.end > selected.start)) return setLoop(null);
      setLoop({ start: selected.start, end: selected.end });
      player.seek(selected.start);
      void videoRef.current?.play().catch(() => {});
    },
    nudge: (edge, seconds) => {
      if (!selected) return;
      const value = Math.round(Math.max(0, (edge === 'start' ? selected.start : selected.end) + seconds) * 10) / 10;
      session.updateRow(selected.key, edge === 'start' ? { start: value } : { end: value }, 'Сдвинуть границу');
    },
    deleteSelected: () => selected && session.removeRow(selected.key),
    toggleHelp: () => setHelp((h) => !h),
  };
  const ctxRef = useRef(ctx);
  ctxRef.current = ctx;
  const operationsRef = useRef(lookups.operations);
  operationsRef.current = lookups.operations;

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      const typing = !!target && ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
      if (!typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
        const index = OPERATION_KEYS.indexOf(event.key.toLowerCase());
        const operation = index >= 0 ? operationsRef.current[index] : undefined;
        if (operation) {
          event.preventDefault();
          pressOperationKey(session, operation.id, keyTime(), defaultLane());
          return;
        }
      }
      runShortcut(event, ctxRef.current);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const operationById = useMemo(() => new Map(lookups.operations.map((o) => [o.id, o])), [lookups.operations]);
  const lanes = useMemo(() => {
    const keys = new Map<string, string>();
    const label = (row: Pick<MarkupRow, 'workplace_id' | 'employee_id'>) =>
      [lookups.workplaces.find((w) => w.id === row.workplace_id)?.name ?? 'без рабочего места', lookups.employees.find((e) => e.id === row.employee_id)?.name]
        .filter(Boolean)
        .join(' — ');
    for (const row of session.rows) keys.set(`${row.workplace_id}:${row.employee_id}`, label(row));
    if (keys.size === 0) {
      const lane = defaultLane();
      keys.set(`${lane.workplace_id}:${lane.employee_id}`, label(lane));
    }
    return [...keys.entries()].map(([key, text]) => ({ key, label: text }));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [session.revision, lookups]);

  // The statistics panels follow a frame later: a key press paints its segment first.
  const deferredRows = useDeferredValue(session.rows);

  if (loadError) return <section className="screen"><h1>Видео № {videoId}</h1><Banner text={`Не удалось открыть видео: ${loadError}`} /></section>;
  if (!meta) return <section className="screen"><h1>Видео № {videoId}</h1><p className="muted">Загрузка…</p></section>;

  const commandBar = (position: string) => (
    <div className={`command-bar ${position}`}>
      <button type="button" className="button secondary" onClick={cancel}>Отмена</button>
      <button type="button" className="button secondary" onClick={fillGaps} disabled={busy}>Заполнить пропуски</button>
      <button type="button" className="button secondary" onClick={() => navigate(`/models/${videoId}`)}>Настроить модель</button>
      <button type="button" className="button secondary" onClick={() => navigate(`/models-stand-locations/${videoId}`)}>Отметить стенды</button>
      <button type="button" className="button secondary" onClick={() => void downloadFile(`/api/v1/video_markups/${videoId}`, { format: 'tsv' }, `${meta.filename}.tsv`).catch(() => {})}>Скачать TSV</button>
      <button type="button" className="button" onClick={() => void save()} disabled={busy}>Сохранить</button>
      <button type="button" className="button" onClick={() => void finish()} disabled={busy}>Завершить</button>
    </div>
  );

  return (
    <div className="video-markup">
      <div className="markup-head">
        <h1>{meta.filename}</h1>
        <span className="muted">Камера {meta.camera_key} · начало записи {formatDateTime(meta.start_time, timeZone)}</span>
        {session.dirty && <span className="badge unsaved" data-testid="unsaved">не сохранено</span>}
        {queued && <span className="badge">ждёт отправки</span>}
        <button type="button" className="button secondary small" onClick={() => setHelp(true)}>Клавиши (?)</button>
      </div>
      {commandBar('top')}
      <Banner text={banner} />
      {conflict && (
        <div className="banner banner-error" role="alert">
          <p>
            Разметка этого видео изменилась на сервере после того, как вы начали правку. Загрузите свежую версию (ваши
            несохранённые изменения пропадут) или наложите свои изменения на неё и сохраните снова.
          </p>
          <div className="actions">
            <button type="button" className="button secondary" disabled={busy} onClick={() => void resolveConflict(false)}>Загрузить версию с сервера</button>
            <button type="button" className="button" disabled={busy} onClick={() => void resolveConflict(true)}>Наложить мои изменения</button>
          </div>
        </div>
      )}
      <div className="markup-body">
        <div className="markup-main">
          <Player videoRef={videoRef} src={`/api/v1/video?video_id=${videoId}`} playhead={playhead} startSecond={startSecond} loop={loop}
            onDuration={(seconds) => {
              setDuration(seconds);
              const whole = Math.round(seconds);
              // A write (markup.write): a viewer is refused, quietly — it is only a hint for the server.
              if (whole > 0 && meta.duration === null) void api.post('/api/v1/set_duration', { video_id: videoId, duration: whole }, { quiet: true }).catch(() => {});
            }}
          />
          <div className="markup-tools">
            <button type="button" className="button" onClick={addOperation} aria-label="Добавить операцию">+</button>
            <button type="button" className="button secondary" onClick={addNote} aria-label="Заметка на текущей секунде">⚑</button>
            <button type="button" className="button secondary" onClick={share}>Поделиться</button>
            <button type="button" className="button secondary" onClick={keepForOffline} disabled={offline.progress !== null}>
              {offline.progress !== null ? `Сохраняю… ${offline.progress.toFixed(0)} %` : offline.kept ? 'Убрать с устройства' : 'Сохранить для работы без сети'}
            </button>
            <button type="button" className="button secondary" onClick={() => session.undo()} disabled={!session.canUndo}>Отменить</button>
            <button type="button" className="button secondary" onClick={() => session.redo()} disabled={!session.canRedo}>Повторить</button>
            {loop && <span className="badge">повтор {loop.start.toFixed(1)}–{loop.end.toFixed(1)} с</span>}
            <label className="inline">
              Разметка для
              <select aria-label="Рабочее место новых операций" value={lane.workplace_id ?? ''} onChange={(e) => { session.select(null); setLane({ ...lane, workplace_id: e.target.value ? Number(e.target.value) : null }); }}>
                <option value="">— рабочее место —</option>
                {lookups.workplaces.map((w) => <option key={w.id} value={w.id}>{w.name}</option>)}
              </select>
              <select aria-label="Сотрудник новых операций" value={lane.employee_id ?? ''} onChange={(e) => { session.select(null); setLane({ ...lane, employee_id: e.target.value ? Number(e.target.value) : null }); }}>
                <option value="">— сотрудник —</option>
                {lookups.employees.map((w) => <option key={w.id} value={w.id}>{w.name}</option>)}
              </select>
            </label>
            <label className="inline">
              Реакция, мс
              <input type="number" min={0} max={2000} step={50} value={reactionMs} onChange={(e) => setReactionMs(Math.max(0, Number(e.target.value) || 0))} />
            </label>
          </div>
          <OperationButtons
            operations={lookups.operations}
            codingOperationId={session.codingKey ? session.row(session.codingKey)?.operation_id ?? null : null}
            onPress={(operationId) => pressOperationKey(session, operationId, keyTime(), defaultLane())}
            onStop={() => performAction('endCoding', ctx)}
          />
          <Timeline
            rows={session.rows}
            stamps={session.stamps}
            revision={session.revision}
            selectedKey={session.selectedKey}
            codingKey={session.codingKey}
            duration={duration || meta.duration || 1}
            playhead={playhead}
            lanes={lanes}
            laneOf={(row) => `${row.workplace_id}:${row.employee_id}`}
            colorOf={(row) => operationById.get(row.operation_id ?? -1)?.color ?? '#9e9e9e'}
            onSeek={player.seek}
            onSelect={(key) => session.select(key)}
            onEdge={(key, edge, seconds) => session.updateRow(key, edge === 'start' ? { start: seconds } : { end: seconds }, 'Сдвинуть границу')}
          />
          <OperationRows session={session} rows={session.rows} selectedKey={session.selectedKey} operations={lookups.operations} workplaces={lookups.workplaces} employees={lookups.employees} onSeek={player.seek} />
          {session.stamps.length > 0 && (
            <section className="stamps">
              <h2>Отметки</h2>
              <ul className="plain-list inline-list">
                {session.stamps.map((stamp) => (
                  <li key={stamp.key}>
                    <button type="button" className="link-button" onClick={() => player.seek(stamp.time)}>{stamp.type === 'product' ? 'Изделие' : 'Заметка'} {stamp.time.toFixed(0)} с</button>
                    <button type="button" className="link-button muted" aria-label="Удалить отметку" onClick={() => session.removeStamp(stamp.key)}>✕</button>
                  </li>
                ))}
              </ul>
            </section>
          )}
          <TimeBudgetPanel rows={deferredRows} duration={duration || meta.duration || 0} operations={lookups.operations} />
          <AgreementPanel rows={deferredRows} duration={duration || meta.duration || 0} operations={lookups.operations} onSeek={player.seek} />
        </div>
        <aside className="markup-side">
          <OtherCameras videos={others} onRefresh={() => void loadOthers(Math.floor(player.time()))} onSwitch={(v) => void switchCamera(v)} />
          <Activities items={activities} timeZone={timeZone} />
          <VideoComment videoId={videoId} initial={meta.comment} />
          <MarkupHelper />
        </aside>
      </div>
      {commandBar('bottom')}
      {help && <HelpOverlay operations={lookups.operations} onClose={() => setHelp(false)} />}
    </div>
  );
}
