import { useDeferredValue, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useSnapshot } from 'valtio';
import { useLocation } from 'wouter';
import { api, downloadFile } from '../../api/client';
import { waitForJob } from '../../api/jobs';
import { formatDateTime } from '../../format/time';
import { SuggestionPanel } from '../../ml/SuggestionPanel';
import { useCameraModels, useLiveSuggestion, type SettledChange } from '../../ml/useLiveSuggestion';

import { login, useAllows } from '../../state/login';
import { notify } from '../../status/notifications';
import { Banner } from '../../ui/Banner';
import { performAction, type ActionContext } from './actions';
import { endCoding, nextGapStart, nextSegment, pressOperationKey, previousSegment } from './coding';
import { CommandBar } from './CommandBar';
import { ConflictBanner } from './ConflictBanner';
import { HelpOverlay } from './HelpOverlay';
import { MarkupTools } from './MarkupTools';
import { ModelReviewPanel } from './ModelReviewPanel';
import { LINK_COPIED, NO_LONGER_AT_SECOND } from './model';
import type { MarkupRow } from '../../offline/markup-rows';
import { OperationButtons } from './OperationButtons';
import { OperationRows } from './OperationRows';
import { Player } from './Player';
import { usePlayerControls } from './player-controls';
import { Playhead } from './playhead';
import { acceptModelRows, modelRowsIn, nextModelRow, rejectModelRows, reviewTarget } from './review';
import { MarkupSession } from './session';
import { Activities, AgreementPanel, MarkupHelper, OtherCameras, TimeBudgetPanel, VideoComment, type OtherVideo } from './SidePanels';
import { StampList } from './StampList';
import { Timeline } from './Timeline';
import { useCodingInput, useMarkupKeyboard } from './useCodingInput';
import { useDraftAutosave, useMarkupPersistence } from './useMarkupPersistence';
import { useKeptOffline, useQueuedSaveReplay } from './useOfflineSync';
import { useActivities, useOtherCameras, useVideoMarkupData } from './useVideoMarkupData';
import { DamagedRecording } from '../../ui/DamagedRecording';
import { videoUrl } from '../../offline/videoCache';

/**
 * spec 01 "Video markup": the assessor's screen. Keyed by the video, so switching to another
 * camera's video starts a fresh editor (session, draft timer, loaded state) instead of carrying them over.
 */
export function VideoMarkupScreen({ videoId, getTime }: { videoId: string; getTime?: string }) {
  return <VideoMarkupEditor key={videoId} videoId={videoId} getTime={getTime} />;
}

function VideoMarkupEditor({ videoId: videoIdParam, getTime }: { videoId: string; getTime?: string }) {
  const videoId = Number(videoIdParam);
  const startSecond = Number(getTime ?? 0) || 0;
  const [, navigate] = useLocation();
  const { timeZone } = useSnapshot(login);
  // Saving markups needs markup.write (api/src/auth/permissions.ts): without it the screen only shows.
  const readOnly = !useAllows('markup.write');
  // Applying a model to the video is workspace.write (api/src/vision/routes.ts).
  const canAnalyse = useAllows('workspace.write');
  const [session] = useState(() => new MarkupSession());
  useSyncExternalStore(session.subscribe, session.getRevision);
  const [playhead] = useState(() => new Playhead());
  const videoRef = useRef<HTMLVideoElement>(null);
  /** Seconds: the server's, then the file's own length once the player reads it. */
  const [duration, setDuration] = useState(0);
  const player = usePlayerControls(videoRef, playhead, duration);
  const [help, setHelp] = useState(false);
  const [loop, setLoop] = useState<{ start: number; end: number } | null>(null);
  /** The span «accept / reject all» works on; its end defaults to the whole video. */
  const [reviewSpan, setReviewSpan] = useState<{ from: number; to: number } | null>(null);
  // A trained model of this camera suggests the current operation; M accepts it, and with «Размечать
  // по подсказкам» (Shift+M) every settled suggestion is coded as it plays (docs/vision.md).
  const cameraModels = useCameraModels(videoId);
  const [suggestModel, setSuggestModel] = useState<number | null>(null);
  const [followSuggestions, setFollowSuggestions] = useState(false);
  const suggestion = useLiveSuggestion(videoRef, suggestModel, (change) => {
    if (followSuggestions && !videoRef.current?.paused) followSuggestion(change);
  });

  const closeOpenSegment = () => {
    if (session.codingKey) endCoding(session, player.time());
  };

  const { activities, reload: reloadActivities } = useActivities(videoId);
  const otherCameras = useOtherCameras(videoId, playhead, startSecond);
  const persistence = useMarkupPersistence({ videoId, session, closeOpenSegment, onSaved: () => void reloadActivities() });
  const { meta, lookups, loadError, loaded } = useVideoMarkupData(videoId, session, { restoreDraft: persistence.restoreDraft, onDuration: setDuration });
  useDraftAutosave(videoId, session, loaded, persistence.conflict, persistence.keepDraft);
  useQueuedSaveReplay({ videoId, session, setQueued: persistence.setQueued, setConflict: persistence.setConflict, onSent: reloadActivities });
  const keptOffline = useKeptOffline(videoId, meta?.structure_id);
  const coding = useCodingInput(session, lookups, loaded, videoRef, player);

  const backToTasks = () => navigate(meta ? `/markup/${meta.structure_id}` : '/projects');

  const switchCamera = async (other: OtherVideo) => {
    try {
      if (session.dirty && !(await persistence.save())) return;
      const second = Math.floor(player.time());
      const fresh = await api.get('/api/v1/other_videos', { query: { video_id: videoId, current_second: second }, quiet: true });
      const target = fresh.find((v) => v.video_id === other.video_id);
      if (!target) {
        notify('error', NO_LONGER_AT_SECOND);
        otherCameras.setOthers(fresh);
        return;
      }
      navigate(`/video/${target.video_id}/${Math.floor(target.current_second)}`);
    } catch (err) {
      notify('error', `Ошибка: ${err instanceof Error ? err.message : String(err)}`);
    }
  };

  /**
   * «Анализ»: the model marks the whole video (the applying job, as on the models screen) and its
   * segments load into the editor for review; unsaved work is saved first, so nothing is lost.
   */
  const analyse = async (modelId: number): Promise<string> => {
    if (session.codingKey) closeOpenSegment();
    if (session.dirty && !(await persistence.save())) throw new Error('сначала сохраните разметку');
    const started = await api.post('/api/v1/start_marker_applying', {
      body: {
        model_id: modelId,
        unmarked_video_id: videoId,
        start_second: 0,
        end_second: Math.max(1, Math.floor(player.duration())),
        // The lane's employee when one is chosen, else the server takes the workplace's employee that day.
        employee_id: coding.defaultLane().employee_id,
      },
    });
    const job = await waitForJob(started.job_id, { intervalMs: 500 });
    if (job?.status !== 'success') throw new Error(job?.error ?? 'задача не выполнена');
    const markups = await api.get('/api/v1/video_markups/{videoId}', { path: { videoId } });
    // Edits made while the model ran are not thrown away: the next save meets the model's version (409) and the conflict banner takes over.
    if (session.dirty)
      throw new Error(
        'разметку меняли, пока модель работала. Сохраните её: сервер сообщит о новой версии, и вы сможете наложить свои изменения на разметку модели',
      );
    session.loadFromServer(markups);
    const count = markups.video_markups.filter((m) => m.source === 'model').length;
    return `Модель «${started.model_name}» разметила отрезков: ${count}. В отчёты они не войдут, пока вы их не примете: V — принять, X — отклонить (Shift — все в отрезке проверки), J и K переходят по отрезкам; затем сохраните.`;
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
    const row = session.addRow({ ...coding.defaultLane(), start: at, end: at });
    session.select(row.key);
  };
  const addNote = () => session.addStamp({ type: 'note', time: Math.floor(player.time()), comment: '', employee_id: coding.defaultLane().employee_id });
  const seekToRow = (row: MarkupRow | null) => {
    if (row) {
      session.select(row.key);
      player.seek(row.start);
    }
  };

  const selected = session.selectedKey ? session.row(session.selectedKey) : null;
  const ctx: ActionContext = {
    readOnly,
    session,
    player,
    save: () => void persistence.save(),
    addOperation,
    addNote,
    endCoding: closeOpenSegment,
    nextGap: () => {
      const at = nextGapStart(session.rows, player.time(), player.duration());
      if (at === null) notify('info', 'Неразмеченных мест дальше нет');
      else player.seek(at);
    },
    previousSegment: () => seekToRow(previousSegment(session.rows, player.time())),
    nextSegment: () => seekToRow(nextSegment(session.rows, player.time())),
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
    cancel: () => {
      if (persistence.cancel()) backToTasks();
    },
    fillGaps: () => void persistence.fillGaps(),
    finish: () => void persistence.finish().then((finished) => finished && backToTasks()),
    openModel: () => navigate(`/models/${videoId}`),
    markStands: () => navigate(`/models-stand-locations/${videoId}`),
    toggleFollowSuggestions: () => {
      if (suggestModel === null) return notify('info', 'Выберите модель для подсказки');
      setFollowSuggestions((on) => !on);
    },
    acceptSuggestion: () => {
      const operationId = suggestion.suggestion?.operationId;
      if (operationId != null && operationById.has(operationId)) pressOperation(operationId);
      else notify('info', suggestModel === null ? 'Выберите модель для подсказки' : 'Модель сейчас не подсказывает операцию');
    },
    reviewModel: (decision, scope) => {
      if (scope === 'span') {
        const span = reviewSpan ?? { from: 0, to: player.duration() || Infinity };
        const rows = modelRowsIn(session.rows, span.from, span.to);
        if (rows.length === 0) return notify('info', 'В отрезке проверки нет отрезков модели');
        if (decision === 'accept') acceptModelRows(session, rows);
        else rejectModelRows(session, rows);
        return notify('info', `${decision === 'accept' ? 'Принято' : 'Отклонено'} отрезков модели: ${rows.length}. Сохраните разметку (Ctrl+S)`);
      }
      const target = reviewTarget(session, player.time());
      if (!target) return notify('info', 'Выберите отрезок модели (J, K или щелчок по строке)');
      const next = nextModelRow(session.rows, target);
      if (decision === 'accept') acceptModelRows(session, [target], 'Принять отрезок модели');
      else rejectModelRows(session, [target], 'Отклонить отрезок модели');
      // Straight on to the next segment to review.
      if (next) seekToRow(session.row(next.key));
      else session.select(decision === 'accept' ? target.key : null);
    },
    downloadTsv: () =>
      void downloadFile('/api/v1/video_markups/{videoId}', { path: { videoId }, query: { format: 'tsv' } }, `${meta?.filename}.tsv`).catch(() => {}),
  };
  const pressOperation = (operationId: number) => !readOnly && pressOperationKey(session, operationId, coding.keyTime(), coding.defaultLane());
  /** A settled suggestion coded from the second the model saw it begin; the segment already coded as it is left alone. */
  const followSuggestion = (change: SettledChange) => {
    const open = session.codingKey ? session.row(session.codingKey) : null;
    if (change.operationId === null) {
      if (open) endCoding(session, change.onsetSecond);
    } else if (operationById.has(change.operationId) && open?.operation_id !== change.operationId) {
      pressOperationKey(session, change.operationId, change.onsetSecond, coding.defaultLane());
    }
  };
  useMarkupKeyboard(ctx, lookups.operations, pressOperation);

  const operationById = useMemo(() => new Map(lookups.operations.map((o) => [o.id, o])), [lookups.operations]);
  const lanes = useMemo(() => {
    const keys = new Map<string, string>();
    const label = (row: Pick<MarkupRow, 'workplace_id' | 'employee_id'>) =>
      [lookups.workplaces.find((w) => w.id === row.workplace_id)?.name ?? 'без рабочего места', lookups.employees.find((e) => e.id === row.employee_id)?.name]
        .filter(Boolean)
        .join(' — ');
    for (const row of session.rows) keys.set(`${row.workplace_id}:${row.employee_id}`, label(row));
    if (keys.size === 0) {
      const lane = coding.defaultLane();
      keys.set(`${lane.workplace_id}:${lane.employee_id}`, label(lane));
    }
    return [...keys.entries()].map(([key, text]) => ({ key, label: text }));
    // The session mutates in place: its revision is what changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [session.revision, lookups]);

  // The statistics panels follow a frame later: a key press paints its segment first.
  const deferredRows = useDeferredValue(session.rows);

  if (loadError)
    return (
      <section className="screen">
        <h1>Видео № {videoId}</h1>
        <Banner text={`Не удалось открыть видео: ${loadError}`} />
      </section>
    );
  if (!meta)
    return (
      <section className="screen">
        <h1>Видео № {videoId}</h1>
        <p className="muted">Загрузка…</p>
      </section>
    );

  const knownDuration = duration || meta.duration || 0;
  return (
    <div className="video-markup">
      <div className="markup-head">
        <h1>{meta.filename}</h1>
        <span className="muted">
          Камера {meta.camera_key} · начало записи {formatDateTime(meta.start_time, timeZone)}
        </span>
        {meta.damage && <DamagedRecording reason={meta.damage} />}
        {session.dirty && (
          <span className="badge unsaved" data-testid="unsaved">
            не сохранено
          </span>
        )}
        {persistence.queued && <span className="badge">ждёт отправки</span>}
        <button type="button" className="button secondary small" onClick={() => setHelp(true)}>
          Клавиши (?)
        </button>
      </div>
      <CommandBar position="top" ctx={ctx} busy={persistence.busy} />
      {readOnly && (
        <p className="muted" data-testid="markup-read-only">
          Просмотр: менять разметку могут администратор, аналитик и разметчик.
        </p>
      )}
      <Banner text={persistence.banner} />
      {persistence.conflict && <ConflictBanner busy={persistence.busy} onResolve={(keepMine) => void persistence.resolveConflict(keepMine)} />}
      <div className="markup-body">
        <div className="markup-main">
          {/* The video and the operation buttons on one screen, also on a tablet (docs/layout.md). */}
          <div className="coding-stage">
            <Player
              videoRef={videoRef}
              src={videoUrl(videoId)}
              playhead={playhead}
              startSecond={startSecond}
              loop={loop}
              onDuration={(seconds) => {
                setDuration(seconds);
                const whole = Math.round(seconds);
                // A write (markup.write): sent only by a role that may write; quiet — it is only a hint for the server.
                if (whole > 0 && meta.duration === null && !readOnly)
                  void api.post('/api/v1/set_duration', { body: { video_id: videoId, duration: whole }, quiet: true }).catch(() => {});
              }}
            />
            {!readOnly && (
              <OperationButtons
                operations={lookups.operations}
                codingOperationId={session.codingKey ? (session.row(session.codingKey)?.operation_id ?? null) : null}
                onPress={pressOperation}
                onStop={() => performAction('endCoding', ctx)}
              />
            )}
          </div>
          {!readOnly && cameraModels.some((m) => m.meta.object_storage_key) && (
            <SuggestionPanel
              models={cameraModels}
              modelId={suggestModel}
              onModel={(id) => {
                setSuggestModel(id);
                if (id === null) setFollowSuggestions(false);
              }}
              state={suggestion}
              hint="M — принять"
              follow={followSuggestions}
              onFollow={setFollowSuggestions}
            />
          )}
          <MarkupTools
            session={session}
            offline={keptOffline.offline}
            loop={loop}
            lane={coding.lane}
            workplaces={lookups.workplaces}
            employees={lookups.employees}
            reactionMs={coding.reactionMs}
            onAddOperation={addOperation}
            onAddNote={addNote}
            onShare={() => void share()}
            onKeepOffline={() => void keptOffline.toggle()}
            onLane={coding.setLane}
            onReactionMs={coding.setReactionMs}
            readOnly={readOnly}
          />
          {!readOnly && (
            <ModelReviewPanel
              rows={session.rows}
              playhead={playhead}
              targetAt={(at) => reviewTarget(session, at)}
              operations={lookups.operations}
              span={reviewSpan ?? { from: 0, to: knownDuration }}
              onSpan={setReviewSpan}
              onReview={(decision, scope) => ctx.reviewModel(decision, scope)}
            />
          )}
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
            onEdge={(key, edge, seconds) => !readOnly && session.updateRow(key, edge === 'start' ? { start: seconds } : { end: seconds }, 'Сдвинуть границу')}
          />
          <OperationRows
            session={session}
            rows={session.rows}
            selectedKey={session.selectedKey}
            operations={lookups.operations}
            workplaces={lookups.workplaces}
            employees={lookups.employees}
            onSeek={player.seek}
            readOnly={readOnly}
          />
          <StampList session={session} onSeek={player.seek} readOnly={readOnly} />
          <TimeBudgetPanel rows={deferredRows} duration={knownDuration} operations={lookups.operations} />
          <AgreementPanel rows={deferredRows} duration={knownDuration} operations={lookups.operations} onSeek={player.seek} />
        </div>
        <aside className="markup-side">
          <OtherCameras
            videos={otherCameras.others}
            onRefresh={() => void otherCameras.load(Math.floor(player.time()))}
            onSwitch={(v) => void switchCamera(v)}
          />
          <Activities items={activities} timeZone={timeZone} />
          <VideoComment videoId={videoId} initial={meta.comment} readOnly={readOnly} />
          {!readOnly && <MarkupHelper models={cameraModels} onAnalyse={analyse} canAnalyse={canAnalyse} />}
        </aside>
      </div>
      <CommandBar position="bottom" ctx={ctx} busy={persistence.busy} />
      {help && <HelpOverlay operations={lookups.operations} onClose={() => setHelp(false)} readOnly={readOnly} />}
    </div>
  );
}
