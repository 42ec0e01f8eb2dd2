import { useEffect, useState, type ComponentProps } from 'react';
import { useSnapshot } from 'valtio';
import { api } from '../../api/client';
import { formatDateTime } from '../../format/time';
import { SuggestionPanel } from '../../ml/SuggestionPanel';
import { login, useAllows } from '../../state/login';
import { Banner } from '../../ui/Banner';
import { DamagedRecording } from '../../ui/DamagedRecording';
import { TOUCH_LAYOUT, useMediaQuery } from '../../ui/useMediaQuery';
import { videoUrl } from '../../api/paths';
import type { MarkupRow } from '../../offline/markup-rows';
import { performAction } from './actions';
import { CommandBar } from './CommandBar';
import { ConflictBanner } from './ConflictBanner';
import { HelpOverlay } from './HelpOverlay';
import { MarkupTools } from './MarkupTools';
import { ModelReviewPanel } from './ModelReviewPanel';
import { OperationButtons } from './OperationButtons';
import { OperationRows } from './OperationRows';
import { Player } from './Player';
import { reviewTarget } from './review';
import { Activities, AgreementPanel, MarkupHelper, OtherCameras, TimeBudgetPanel, VideoComment } from './SidePanels';
import { laneKey, type MarkupSession } from './session';
import { StampList } from './StampList';
import { Timeline } from './Timeline';
import { analyse, share, switchCamera, useMarkupActions, type MarkupActions } from './useMarkupActions';
import { useLanes, useMarkupEditor, type MarkupEditor } from './useMarkupEditor';
import { useSessionValue } from './useSessionValue';
import './video-markup.css';

/**
 * spec 01 "Video markup": the assessor's screen. Keyed by the video, so switching to another
 * camera's video starts a fresh editor (session, draft timer, loaded state) instead of carrying them over.
 */
export function VideoMarkupScreen({ videoId, getTime }: { videoId: string; getTime?: string }) {
  return <VideoMarkupEditor key={videoId} videoId={videoId} getTime={getTime} />;
}

/** The statistics panels' rows before the first pause. */
const NO_ROWS: readonly MarkupRow[] = [];

/** How long the keys must rest before the statistics panels and the model review count take the new rows. */
const STATISTICS_PAUSE_MS = 400;

/** `compact`: a tablet or a phone (TOUCH_LAYOUT), laid out for a finger (docs/layout.md). */
type Parts = { editor: MarkupEditor; actions: MarkupActions; compact: boolean };
type Meta = NonNullable<MarkupEditor['meta']>;

/** «не сохранено»: follows the session's unsaved flag alone (a key press does not redraw the title line). */
function UnsavedBadge({ session }: { session: MarkupSession }) {
  const dirty = useSessionValue(session, (s) => s.dirty);
  return dirty ? (
    <span className="badge unsaved" data-testid="unsaved">
      не сохранено
    </span>
  ) : null;
}

/** The operation buttons, following only which operation is being coded (the active button). */
function CodingButtons({ session, ...props }: Omit<ComponentProps<typeof OperationButtons>, 'codingOperationId'> & { session: MarkupSession }) {
  const codingOperationId = useSessionValue(session, (s) => (s.codingKey ? (s.row(s.codingKey)?.operation_id ?? null) : null));
  return <OperationButtons {...props} codingOperationId={codingOperationId} />;
}

/** The title line: file, camera and start, damage, unsaved and queued badges, the keys' help (under «Ещё» when compact). */
function MarkupHead({ editor, actions, meta, compact }: Parts & { meta: Meta }) {
  const { timeZone } = useSnapshot(login);
  return (
    <div className="markup-head">
      <h1>{meta.filename}</h1>
      <span className="muted">
        Камера {meta.camera_key} · {compact ? '' : 'начало записи '}
        {editor.settled ? formatDateTime(meta.start_time, timeZone) : '…'}
      </span>
      {meta.damage && <DamagedRecording reason={meta.damage} />}
      <UnsavedBadge session={editor.session} />
      {editor.persistence.queued && <span className="badge">ждёт отправки</span>}
      {!compact && (
        <button type="button" className="button secondary small" onClick={() => actions.setHelp(true)}>
          Клавиши (?)
        </button>
      )}
    </div>
  );
}

/** The video and the operation buttons on one screen, also on a tablet (docs/layout.md); the model's suggestion under them. */
function CodingStage({ editor, actions, meta, compact }: Parts & { meta: Meta }) {
  const { videoId, readOnly, session, lookups } = editor;
  return (
    <>
      <div className="coding-stage">
        <Player
          videoRef={editor.videoRef}
          src={videoUrl(videoId)}
          playhead={editor.playhead}
          startSecond={editor.startSecond}
          loop={actions.loop}
          onDuration={(seconds) => {
            editor.setDuration(seconds);
            const whole = Math.round(seconds);
            // A write (markup.write): sent only by a role that may write; quiet — it is only a hint for the server.
            if (whole > 0 && meta.duration === null && !readOnly)
              void api.post('/api/v1/set_duration', { body: { video_id: videoId, duration: whole }, quiet: true }).catch(() => {});
          }}
        />
        {!readOnly && (
          <CodingButtons
            session={session}
            operations={lookups.operations}
            onPress={actions.pressOperationKey}
            onStop={() => performAction('endCoding', actions.ctx)}
            fitWindow={compact}
          />
        )}
      </div>
      {!readOnly && editor.cameraModels.some((m) => m.meta.object_storage_key) && (
        <SuggestionPanel
          models={editor.cameraModels}
          modelId={editor.suggestModel}
          onModel={(id) => {
            editor.setSuggestModel(id);
            if (id === null) editor.setFollowSuggestions(false);
          }}
          state={editor.suggestion}
          hint="M — принять"
          follow={editor.followSuggestions}
          onFollow={editor.setFollowSuggestions}
        />
      )}
    </>
  );
}

/**
 * The rows as they were when the session last stayed unchanged for `pauseMs`: work over all 10,000
 * rows runs between key presses, not in the frame a press is painted in (useDeferredValue renders
 * it right after the press, before the browser paints, and on a tablet's CPU that delayed the press).
 * Followed by subscription, not by a render per change: the calling panel draws only when they settle.
 */
function useSettledRows(session: MarkupSession, pauseMs: number): readonly MarkupRow[] {
  // Not the rows at once: at 10,000 rows the first render of the screen would count them all too.
  const [settled, setSettled] = useState(NO_ROWS);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const restart = () => {
      clearTimeout(timer);
      timer = setTimeout(() => setSettled(session.rows), pauseMs);
    };
    restart();
    const unsubscribe = session.subscribe(restart);
    return () => {
      unsubscribe();
      clearTimeout(timer);
    };
  }, [session, pauseMs]);
  return settled;
}

/** The model's layer under review, with the rows once the keys pause. */
function ModelReview({ editor, actions, duration }: Parts & { duration: number }) {
  const { session, playhead, lookups } = editor;
  const rows = useSettledRows(session, STATISTICS_PAUSE_MS);
  return (
    <ModelReviewPanel
      rows={rows}
      playhead={playhead}
      targetAt={(at) => reviewTarget(session, at)}
      operations={lookups.operations}
      span={actions.reviewSpan ?? { from: 0, to: duration }}
      onSpan={actions.setReviewSpan}
      onReview={(decision, scope) => actions.ctx.reviewModel(decision, scope)}
    />
  );
}

/** The time budget and agreement panels (a pass over all rows each), with the rows once the keys pause. */
function StatisticsPanels({ editor, duration }: Parts & { duration: number }) {
  const { session, lookups, player } = editor;
  const rows = useSettledRows(session, STATISTICS_PAUSE_MS);
  return (
    <>
      <TimeBudgetPanel rows={rows} duration={duration} operations={lookups.operations} />
      <AgreementPanel rows={rows} duration={duration} operations={lookups.operations} onSeek={player.seek} />
    </>
  );
}

/**
 * The timeline. Its segments and the coding mark follow the session by subscription (a key press
 * redraws the canvas, not React); it renders when the lanes, the stamps or the selected row with
 * its draggable edges change.
 */
function MarkupTimeline({ editor, meta }: Parts & { meta: Meta }) {
  const { readOnly, session, player, operationById } = editor;
  const stamps = useSessionValue(session, (s) => s.stamps);
  const selected = useSessionValue(session, (s) => (s.selectedKey && s.selectedKey !== s.codingKey ? s.row(s.selectedKey) : null));
  const lanes = useLanes(editor);
  return (
    <Timeline
      live={() => session}
      subscribe={session.subscribe}
      stamps={stamps}
      selected={selected}
      duration={editor.duration || meta.duration || 1}
      playhead={editor.playhead}
      lanes={lanes}
      laneOf={laneKey}
      colorOf={(row) => operationById.get(row.operation_id ?? -1)?.color ?? '#9e9e9e'}
      colors={operationById}
      rowOf={(key) => session.row(key)}
      changedSince={session.rowsChangedSince}
      onSeek={player.seek}
      onSelect={(key) => session.select(key)}
      onEdge={(key, edge, seconds) => !readOnly && session.updateRow(key, edge === 'start' ? { start: seconds } : { end: seconds }, 'Сдвинуть границу')}
    />
  );
}

/**
 * Everything under the video: tools, model review, the timeline, the rows, the stamps and the
 * statistics. Not subscribed to the session itself: each part follows the values it shows.
 */
function MarkupWork(parts: Parts & { meta: Meta }) {
  const { editor, actions, meta } = parts;
  const { readOnly, session, lookups, player, coding } = editor;
  const hasModelRows = useSessionValue(session, (s) => s.modelRowCount > 0);
  const knownDuration = editor.duration || meta.duration || 0;
  return (
    <>
      <MarkupTools
        session={session}
        offline={editor.keptOffline.offline}
        loop={actions.loop}
        lane={coding.lane}
        workplaces={lookups.workplaces}
        employees={lookups.employees}
        reactionMs={coding.reactionMs}
        onAddOperation={actions.addOperation}
        onAddNote={actions.addNote}
        onShare={() => void share(editor.videoId, Math.floor(player.time()))}
        onKeepOffline={() => void editor.keptOffline.toggle()}
        onLane={coding.setLane}
        onReactionMs={coding.setReactionMs}
        readOnly={readOnly || !editor.loaded}
      />
      {!readOnly && hasModelRows && <ModelReview {...parts} duration={knownDuration} />}
      <MarkupTimeline {...parts} />
      <OperationRows
        session={session}
        operations={lookups.operations}
        workplaces={lookups.workplaces}
        employees={lookups.employees}
        onSeek={player.seek}
        readOnly={readOnly}
        loading={!editor.loaded}
      />
      <StampList session={session} onSeek={player.seek} readOnly={readOnly} />
      {editor.settled && <StatisticsPanels {...parts} duration={knownDuration} />}
    </>
  );
}

/** The side column: other cameras at this second, the activity log, the video's comment, the model helper. */
function MarkupSide({ editor, actions, meta }: Parts & { meta: Meta }) {
  const { videoId, readOnly, player, otherCameras } = editor;
  const { timeZone } = useSnapshot(login);
  // Applying a model to the video is workspace.write (api/src/vision/routes.ts).
  const canAnalyse = useAllows('workspace.write');
  return (
    <aside className="markup-side">
      <OtherCameras
        videos={otherCameras.others}
        onRefresh={() => void otherCameras.load(Math.floor(player.time()))}
        onSwitch={(v) => void switchCamera(editor, v, actions.navigate)}
      />
      <Activities items={editor.activities} timeZone={timeZone} />
      <VideoComment videoId={videoId} initial={meta.comment} readOnly={readOnly} />
      {!readOnly && <MarkupHelper models={editor.cameraModels} onAnalyse={(modelId) => analyse(editor, modelId)} canAnalyse={canAnalyse} />}
    </aside>
  );
}

function VideoMarkupEditor({ videoId: videoIdParam, getTime }: { videoId: string; getTime?: string }) {
  const videoId = Number(videoIdParam);
  const editor = useMarkupEditor(videoId, Number(getTime ?? 0) || 0);
  const actions = useMarkupActions(editor);
  const compact = useMediaQuery(TOUCH_LAYOUT);
  const { meta, readOnly, persistence, lookups } = editor;

  if (editor.loadError)
    return (
      <section className="screen">
        <h1>Видео № {videoId}</h1>
        <Banner text={`Не удалось открыть видео: ${editor.loadError}`} />
      </section>
    );
  if (!meta)
    return (
      <section className="screen">
        <h1>Видео № {videoId}</h1>
        <p className="muted">Загрузка…</p>
      </section>
    );

  const parts = { editor, actions, meta, compact };
  return (
    <div className={compact ? 'video-markup compact' : 'video-markup'}>
      <MarkupHead {...parts} />
      <CommandBar position="top" ctx={actions.ctx} busy={persistence.busy || !editor.loaded} compact={compact} />
      {readOnly && (
        <p className="muted" data-testid="markup-read-only">
          Просмотр: менять разметку могут администратор, аналитик и разметчик.
        </p>
      )}
      <Banner text={persistence.banner} />
      {persistence.conflict && <ConflictBanner busy={persistence.busy} onResolve={(keepMine) => void persistence.resolveConflict(keepMine)} />}
      <div className="markup-body">
        <div className="markup-main">
          <CodingStage {...parts} />
          <MarkupWork {...parts} />
        </div>
        <MarkupSide {...parts} />
      </div>
      <CommandBar position="bottom" ctx={actions.ctx} busy={persistence.busy || !editor.loaded} compact={compact} />
      {actions.help && <HelpOverlay operations={lookups.operations} onClose={() => actions.setHelp(false)} readOnly={readOnly} />}
    </div>
  );
}
