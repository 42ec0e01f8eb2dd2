import { useEffect, useState } from 'react';
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
import { laneKey } from './session';
import { StampList } from './StampList';
import { Timeline } from './Timeline';
import { analyse, share, switchCamera, useMarkupActions, type MarkupActions } from './useMarkupActions';
import { useLanes, useMarkupEditor, type MarkupEditor } from './useMarkupEditor';
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

/**
 * `value`, once it has stayed the same for `pauseMs`: work over all 10,000 rows runs between key
 * presses, not in the frame a press is painted in (useDeferredValue renders it right after the
 * press, before the browser paints, and on a tablet's CPU that delayed the press).
 */
function useSettledValue<T>(value: T, pauseMs: number, initial: T): T {
  // Not `value`: at 10,000 rows the first render of the screen would count them all too.
  const [settled, setSettled] = useState(initial);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), pauseMs);
    return () => clearTimeout(timer);
  }, [value, pauseMs]);
  return settled;
}

/** `compact`: a tablet or a phone (TOUCH_LAYOUT), laid out for a finger (docs/layout.md). */
type Parts = { editor: MarkupEditor; actions: MarkupActions; compact: boolean };
type Meta = NonNullable<MarkupEditor['meta']>;

/** The title line: file, camera and start, damage, unsaved and queued badges, the keys' help (under «Ещё» when compact). */
function MarkupHead({ editor, actions, meta, compact }: Parts & { meta: Meta }) {
  const { timeZone } = useSnapshot(login);
  return (
    <div className="markup-head">
      <h1>{meta.filename}</h1>
      <span className="muted">
        Камера {meta.camera_key} · {compact ? '' : 'начало записи '}
        {formatDateTime(meta.start_time, timeZone)}
      </span>
      {meta.damage && <DamagedRecording reason={meta.damage} />}
      {editor.session.dirty && (
        <span className="badge unsaved" data-testid="unsaved">
          не сохранено
        </span>
      )}
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
          <OperationButtons
            operations={lookups.operations}
            codingOperationId={session.codingKey ? (session.row(session.codingKey)?.operation_id ?? null) : null}
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

/** Everything under the video: tools, model review, the timeline, the rows, the stamps and the statistics. */
function MarkupWork({ editor, actions, meta }: Parts & { meta: Meta }) {
  const { readOnly, session, lookups, player, coding, playhead, operationById } = editor;
  const lanes = useLanes(editor);
  // The statistics panels (a pass over all rows each) follow once the keys pause: a key press paints its segment alone.
  const deferredRows = useSettledValue(session.rows, STATISTICS_PAUSE_MS, NO_ROWS);
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
      {!readOnly && session.modelRowCount > 0 && (
        <ModelReviewPanel
          rows={deferredRows}
          playhead={playhead}
          targetAt={(at) => reviewTarget(session, at)}
          operations={lookups.operations}
          span={actions.reviewSpan ?? { from: 0, to: knownDuration }}
          onSpan={actions.setReviewSpan}
          onReview={(decision, scope) => actions.ctx.reviewModel(decision, scope)}
        />
      )}
      <Timeline
        rows={session.rows}
        stamps={session.stamps}
        revision={session.revision}
        selectedKey={session.selectedKey}
        codingKey={session.codingKey}
        duration={editor.duration || meta.duration || 1}
        playhead={playhead}
        lanes={lanes}
        laneOf={laneKey}
        colorOf={(row) => operationById.get(row.operation_id ?? -1)?.color ?? '#9e9e9e'}
        colors={operationById}
        rowOf={(key) => session.row(key)}
        longest={session.longestRow}
        changedSince={session.rowsChangedSince}
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
        loading={!editor.loaded}
      />
      <StampList session={session} onSeek={player.seek} readOnly={readOnly} />
      <TimeBudgetPanel rows={deferredRows} duration={knownDuration} operations={lookups.operations} />
      <AgreementPanel rows={deferredRows} duration={knownDuration} operations={lookups.operations} onSeek={player.seek} />
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
