import { useMemo, useRef, useState } from 'react';
import { useCameraModels, useLiveSuggestion, type SettledChange } from '../../ml/useLiveSuggestion';
import type { MarkupRow } from '../../offline/markup-rows';
import { useAllows } from '../../state/login';
import { endCoding, pressOperationKey } from './coding';
import { usePlayerControls } from './player-controls';
import { Playhead } from './playhead';
import { MarkupSession } from './session';
import { useCodingInput } from './useCodingInput';
import { useSessionValue } from './useSessionValue';
import { useDraftAutosave, useMarkupPersistence } from './useMarkupPersistence';
import { useKeptOffline, useQueuedSaveReplay } from './useOfflineSync';
import { useActivities, useIdleAfter, useOtherCameras, useVideoMarkupData } from './useVideoMarkupData';

/**
 * The markup editor's state, outside its components: the session (rows, stamps, history), the
 * player, the model suggesting the operation, the video's data, saving and the offline queue, and
 * the coding input. One per video (the screen is keyed by it).
 */
export function useMarkupEditor(videoId: number, startSecond: number) {
  // Saving markups needs markup.write (api/src/auth/permissions.ts): without it the screen only shows.
  const readOnly = !useAllows('markup.write');
  // Not subscribed here: each part of the screen follows the session values it shows
  // (useSessionValue), so a key press does not draw the whole editor again.
  const [session] = useState(() => new MarkupSession());
  const [playhead] = useState(() => new Playhead());
  const videoRef = useRef<HTMLVideoElement>(null);
  /** Seconds: the server's, then the file's own length once the player reads it. */
  const [duration, setDuration] = useState(0);
  const player = usePlayerControls(videoRef, playhead, duration);
  // A trained model of this camera suggests the current operation; M accepts it, and with «Размечать
  // по подсказкам» (Shift+M) every settled suggestion is coded as it plays (docs/vision.md).
  const [suggestModel, setSuggestModel] = useState<number | null>(null);
  const [followSuggestions, setFollowSuggestions] = useState(false);
  const suggestion = useLiveSuggestion(videoRef, suggestModel, (change) => {
    if (followSuggestions && !videoRef.current?.paused) followSuggestion(change);
  });

  const closeOpenSegment = () => {
    if (session.codingKey) endCoding(session, player.time());
  };

  // Called after a save, once reloadActivities (below) is there.
  const persistence = useMarkupPersistence({ videoId, session, closeOpenSegment, onSaved: () => void reloadActivities() });
  const { meta, lookups, loadError, loaded } = useVideoMarkupData(videoId, session, {
    readDraft: persistence.readDraft,
    applyDraft: persistence.applyDraft,
    onDuration: setDuration,
  });
  // The markup is on screen and the browser idle since: what is not needed to start coding — the side
  // panels' and suggestions' reads, the statistics, the recording's date — comes now (useIdleAfter).
  const settled = useIdleAfter(loaded || loadError !== null);
  const cameraModels = useCameraModels(videoId, settled);
  const { activities, reload: reloadActivities } = useActivities(videoId, settled);
  const otherCameras = useOtherCameras(videoId, playhead, startSecond, settled);
  useDraftAutosave(videoId, session, loaded, persistence.conflict, persistence.keepDraft);
  useQueuedSaveReplay({ videoId, session, setQueued: persistence.setQueued, setConflict: persistence.setConflict, onSent: reloadActivities });
  const keptOffline = useKeptOffline(videoId, meta?.structure_id);
  const coding = useCodingInput(session, lookups, loaded, videoRef, player);
  const operationById = useMemo(() => new Map(lookups.operations.map((o) => [o.id, o])), [lookups.operations]);

  // Nothing is coded before the markup is in: loading it replaces the session's rows.
  const pressOperation = (operationId: number) => !readOnly && loaded && pressOperationKey(session, operationId, coding.keyTime(), coding.defaultLane());
  /** A settled suggestion coded from the second the model saw it begin; the segment already coded as it is left alone. */
  const followSuggestion = (change: SettledChange) => {
    const open = session.codingKey ? session.row(session.codingKey) : null;
    if (change.operationId === null) {
      if (open) endCoding(session, change.onsetSecond);
    } else if (operationById.has(change.operationId) && open?.operation_id !== change.operationId) {
      pressOperationKey(session, change.operationId, change.onsetSecond, coding.defaultLane());
    }
  };
  const seekToRow = (row: MarkupRow | null) => {
    if (row) {
      session.select(row.key);
      player.seek(row.start);
    }
  };

  return {
    videoId,
    startSecond,
    readOnly,
    session,
    playhead,
    videoRef,
    duration,
    setDuration,
    player,
    cameraModels,
    settled,
    suggestModel,
    setSuggestModel,
    followSuggestions,
    setFollowSuggestions,
    suggestion,
    closeOpenSegment,
    activities,
    otherCameras,
    persistence,
    meta,
    lookups,
    loadError,
    /** The markup is in the session (the screen shows before it, with the player, and edits nothing until then). */
    loaded,
    keptOffline,
    coding,
    operationById,
    pressOperation,
    seekToRow,
  };
}

export type MarkupEditor = ReturnType<typeof useMarkupEditor>;

/** The timeline's lanes: one per workplace and employee in the rows (the default lane when there are none). */
export function useLanes({ session, lookups, coding }: MarkupEditor) {
  // The session counts the rows of each lane: its lane revision rises only when a lane comes or goes.
  const laneRevision = useSessionValue(session, (s) => s.laneRevision);
  const empty = useSessionValue(session, (s) => s.rows.length === 0);
  return useMemo(() => {
    const keys = new Map<string, string>();
    const label = (row: Pick<MarkupRow, 'workplace_id' | 'employee_id'>) =>
      [lookups.workplaces.find((w) => w.id === row.workplace_id)?.name ?? 'без рабочего места', lookups.employees.find((e) => e.id === row.employee_id)?.name]
        .filter(Boolean)
        .join(' — ');
    // The session counts the rows of each lane as they change: no pass over 10,000 rows per key press.
    for (const key of session.laneKeys()) {
      const [workplace, employee] = key.split(':');
      const id = (part: string | undefined) => (part === undefined || part === 'null' ? null : Number(part));
      keys.set(key, label({ workplace_id: id(workplace), employee_id: id(employee) }));
    }
    if (keys.size === 0) {
      const lane = coding.defaultLane();
      keys.set(`${lane.workplace_id}:${lane.employee_id}`, label(lane));
    }
    return [...keys.entries()].map(([key, text]) => ({ key, label: text }));
    // With no rows the one lane shown is the default lane (the lane chosen in «Разметка для»).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [laneRevision, empty ? coding.lane : null, lookups]);
}
