import { useEffect, useState, type RefObject } from 'react';
import { runShortcut, type ActionContext } from './actions';
import { OPERATION_KEYS, type Lane } from './coding';
import type { OperationOption } from './OperationRows';
import type { PlayerControls } from './player-controls';
import type { MarkupSession } from './session';
import type { Lookups } from './useVideoMarkupData';

/**
 * Where and when a key press codes: the lane new rows go to — the selected row's, else the one
 * chosen in "Разметка для", which starts as the lane of the video's last row, or the only
 * workplace/employee (spec 01 §4) — and the moment, less the reaction offset while playing.
 */
export function useCodingInput(
  session: MarkupSession,
  lookups: Lookups,
  loaded: boolean,
  videoRef: RefObject<HTMLVideoElement | null>,
  player: PlayerControls,
) {
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
    // Chosen once, when the markup is loaded: later rows leave the assessor's choice alone.
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

  return { lane, setLane, defaultLane, reactionMs, setReactionMs, keyTime };
}

/** Shown when an operation key comes before «Разметка для» is chosen: no row is made. */
export const CHOOSE_LANE_FIRST = 'Сначала выберите, для кого разметка: рабочее место в поле «Разметка для»';

/**
 * An operation key now would make a row without a workplace (refused only at save): no segment
 * is being coded, no row with a workplace is selected, and none is chosen in «Разметка для».
 */
export function laneMissing(session: MarkupSession, lane: Lane): boolean {
  const open = session.codingKey ? session.row(session.codingKey) : null;
  return (open ? open.workplace_id : lane.workplace_id) === null;
}

/**
 * The keyboard: outside fields, an operation's key (OPERATION_KEYS, in the order of the
 * operations) codes it; every other key goes to the actions. Subscribed anew on each render, so
 * the handler always sees the current state.
 */
export function useMarkupKeyboard(ctx: ActionContext, operations: OperationOption[], onOperationKey: (operationId: number) => void) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      const typing = !!target && ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
      if (!typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
        const index = OPERATION_KEYS.indexOf(event.key.toLowerCase());
        const operation = index >= 0 ? operations[index] : undefined;
        if (operation) {
          event.preventDefault();
          onOperationKey(operation.id);
          return;
        }
      }
      runShortcut(event, ctx);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });
}
