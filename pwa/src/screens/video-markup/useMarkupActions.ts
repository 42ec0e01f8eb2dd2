import { useState } from 'react';
import { useLocation } from 'wouter';
import { api, downloadFile } from '../../api/client';
import { waitForJob } from '../../api/jobs';
import { notify } from '../../status/notifications';
import type { ActionContext } from './actions';
import { nextGapStart, nextSegment, previousSegment } from './coding';
import { LINK_COPIED, NO_LONGER_AT_SECOND } from './model';
import { acceptModelRows, modelRowsIn, nextModelRow, rejectModelRows, reviewTarget } from './review';
import type { OtherVideo } from './SidePanels';
import { CHOOSE_LANE_FIRST, laneMissing, useMarkupKeyboard } from './useCodingInput';
import type { MarkupEditor } from './useMarkupEditor';

/** Saves unsaved work, then opens the other camera's video at the same second (if it still covers it). */
export async function switchCamera({ videoId, session, persistence, player, otherCameras }: MarkupEditor, other: OtherVideo, navigate: (to: string) => void) {
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
}

/**
 * «Анализ»: the model marks the whole video (the applying job, as on the models screen) and its
 * segments load into the editor for review; unsaved work is saved first, so nothing is lost.
 */
export async function analyse({ videoId, session, persistence, player, coding, closeOpenSegment }: MarkupEditor, modelId: number): Promise<string> {
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
  // The job's own words: rows written, segments under people's rows or rejected before, «не уверена» (issue 43).
  const summary = appliedSummary(job.result) ?? `Модель «${started.model_name}» применена.`;
  return `${summary} В отчёты отрезки модели не войдут, пока вы их не примете: V — принять, X — отклонить (Shift — все в отрезке проверки), J и K переходят по отрезкам; затем сохраните.`;
}

/** The applying job's message (its result's `message`), when it has one. */
function appliedSummary(result: unknown): string | null {
  const message = typeof result === 'object' && result !== null && 'message' in result ? result.message : null;
  return typeof message === 'string' ? message : null;
}

/** Copies the link to this video at the playhead's second. */
export async function share(videoId: number, second: number) {
  const link = `${location.origin}/#/video/${videoId}/${second}`;
  try {
    await navigator.clipboard.writeText(link);
    notify('success', LINK_COPIED);
  } catch {
    notify('error', `Не удалось скопировать ссылку, скопируйте её вручную: ${link}`);
  }
}

/** «Принять / отклонить»: every model segment in the review span, or the one under review (then on to the next). */
function reviewModel(editor: MarkupEditor, reviewSpan: { from: number; to: number } | null, ...[decision, scope]: Parameters<ActionContext['reviewModel']>) {
  const { session, player, seekToRow } = editor;
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
}

/**
 * The editor's commands (actions.ts: the command bars, the keyboard and the help overlay read them)
 * and the view state they switch: the help overlay, the loop over a segment, the review span.
 */
export function useMarkupActions(editor: MarkupEditor) {
  const { videoId, readOnly, session, player, persistence, coding, meta, suggestion, suggestModel, seekToRow } = editor;
  const [, navigate] = useLocation();
  const [help, setHelp] = useState(false);
  const [loop, setLoop] = useState<{ start: number; end: number } | null>(null);
  /** The span «accept / reject all» works on; its end defaults to the whole video. */
  const [reviewSpan, setReviewSpan] = useState<{ from: number; to: number } | null>(null);
  const backToTasks = () => navigate(meta ? `/markup/${meta.structure_id}` : '/projects');

  const addOperation = () => {
    // spec 01 §4: no operation, id -1; workplace/employee preselected. Start = end = the playhead
    // (not 0), so a row added by touch is already where the video is (docs/markup.md).
    const at = Math.round(player.time() * 10) / 10;
    const row = session.addRow({ ...coding.defaultLane(), start: at, end: at });
    session.select(row.key);
  };
  const addNote = () => session.addStamp({ type: 'note', time: Math.floor(player.time()), comment: '', employee_id: coding.defaultLane().employee_id });

  // An operation key or button before «Разметка для» is chosen makes no row without a workplace: it says what to do.
  const pressOperationKey = (operationId: number) => {
    if (!readOnly && laneMissing(session, coding.defaultLane())) return notify('error', CHOOSE_LANE_FIRST);
    editor.pressOperation(operationId);
  };
  // Read when a command runs: the screen is not drawn again on each change of the session.
  const selectedRow = () => (session.selectedKey ? session.row(session.selectedKey) : null);
  const ctx: ActionContext = {
    readOnly,
    session,
    player,
    save: () => void persistence.save(),
    addOperation,
    addNote,
    endCoding: editor.closeOpenSegment,
    nextGap: () =>
      void nextGapStart(session.rows, player.time(), player.duration()).then(
        (at) => (at === null ? notify('info', 'Неразмеченных мест дальше нет') : player.seek(at)),
        (err: unknown) => notify('error', `Не удалось найти неразмеченное место: ${err instanceof Error ? err.message : String(err)}`),
      ),
    previousSegment: () => seekToRow(previousSegment(session.rows, player.time())),
    nextSegment: () => seekToRow(nextSegment(session.rows, player.time())),
    toggleLoop: () => {
      const selected = selectedRow();
      if (loop || !selected || !(selected.end > selected.start)) return setLoop(null);
      setLoop({ start: selected.start, end: selected.end });
      player.seek(selected.start);
      void editor.videoRef.current?.play().catch(() => {});
    },
    nudge: (edge, seconds) => {
      const selected = selectedRow();
      if (!selected) return;
      const value = Math.round(Math.max(0, (edge === 'start' ? selected.start : selected.end) + seconds) * 10) / 10;
      session.updateRow(selected.key, edge === 'start' ? { start: value } : { end: value }, 'Сдвинуть границу');
    },
    deleteSelected: () => {
      const selected = selectedRow();
      if (selected) session.removeRow(selected.key);
    },
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
      editor.setFollowSuggestions((on) => !on);
    },
    acceptSuggestion: () => {
      const operationId = suggestion.suggestion?.operationId;
      if (operationId != null && editor.operationById.has(operationId)) pressOperationKey(operationId);
      else notify('info', suggestModel === null ? 'Выберите модель для подсказки' : 'Модель сейчас не подсказывает операцию');
    },
    reviewModel: (decision, scope) => reviewModel(editor, reviewSpan, decision, scope),
    downloadTsv: () =>
      void downloadFile('/api/v1/video_markups/{videoId}', { path: { videoId }, query: { format: 'tsv' } }, `${meta?.filename}.tsv`).catch(() => {}),
  };
  // Until the markup is in, the keys only look (loading it replaces the rows).
  useMarkupKeyboard(editor.loaded ? ctx : { ...ctx, readOnly: true }, editor.lookups.operations, pressOperationKey);
  return { ctx, help, setHelp, loop, reviewSpan, setReviewSpan, addOperation, addNote, navigate, pressOperationKey };
}

export type MarkupActions = ReturnType<typeof useMarkupActions>;
