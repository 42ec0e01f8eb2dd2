import type { NamedItem } from '../../api/types';
import type { Lane } from './coding';
import type { MarkupSession } from './session';
import { num } from '../reports/format';
import { NamedSelect } from '../../ui/NamedSelect';
import { useSessionValue } from './useSessionValue';

interface Props {
  session: MarkupSession;
  offline: { kept: boolean; progress: number | null };
  loop: { start: number; end: number } | null;
  lane: Lane;
  workplaces: NamedItem[];
  employees: NamedItem[];
  reactionMs: number;
  onAddOperation(): void;
  onAddNote(): void;
  onShare(): void;
  onKeepOffline(): void;
  onLane(lane: Lane): void;
  onReactionMs(ms: number): void;
  /** Look only (no markup.write): share and keep offline, nothing that edits. */
  readOnly?: boolean;
}

/** The row under the player: add, note, share, keep offline, undo/redo, the lane of new rows and the reaction offset. */
export function MarkupTools({
  session,
  offline,
  loop,
  lane,
  workplaces,
  employees,
  reactionMs,
  onAddOperation,
  onAddNote,
  onShare,
  onKeepOffline,
  onLane,
  onReactionMs,
  readOnly = false,
}: Props) {
  const canUndo = useSessionValue(session, (s) => s.canUndo);
  const canRedo = useSessionValue(session, (s) => s.canRedo);
  return (
    <div className="markup-tools">
      {!readOnly && (
        <>
          <button type="button" className="button" onClick={onAddOperation} aria-label="Добавить операцию">
            +
          </button>
          <button type="button" className="button secondary" onClick={onAddNote} aria-label="Заметка на текущей секунде">
            ⚑
          </button>
        </>
      )}
      <button type="button" className="button secondary" onClick={onShare}>
        Поделиться
      </button>
      <button type="button" className="button secondary" onClick={onKeepOffline} disabled={offline.progress !== null}>
        {offline.progress !== null ? `Сохраняю… ${offline.progress.toFixed(0)} %` : offline.kept ? 'Убрать с устройства' : 'Сохранить для работы без сети'}
      </button>
      {!readOnly && (
        <>
          <button type="button" className="button secondary" onClick={() => session.undo()} disabled={!canUndo}>
            Отменить
          </button>
          <button type="button" className="button secondary" onClick={() => session.redo()} disabled={!canRedo}>
            Повторить
          </button>
        </>
      )}
      {loop && (
        <span className="badge">
          повтор {num(loop.start)}–{num(loop.end)} с
        </span>
      )}
      {!readOnly && (
        <>
          <label className="inline">
            Разметка для
            <NamedSelect
              aria-label="Рабочее место новых операций"
              placeholder="— рабочее место —"
              items={workplaces}
              value={lane.workplace_id}
              onChange={(workplace_id) => {
                session.select(null);
                onLane({ ...lane, workplace_id });
              }}
            />
            <NamedSelect
              aria-label="Сотрудник новых операций"
              placeholder="— сотрудник —"
              items={employees}
              value={lane.employee_id}
              onChange={(employee_id) => {
                session.select(null);
                onLane({ ...lane, employee_id });
              }}
            />
          </label>
          <label className="inline">
            Реакция, мс
            <input type="number" min={0} max={2000} step={50} value={reactionMs} onChange={(e) => onReactionMs(Math.max(0, Number(e.target.value) || 0))} />
          </label>
        </>
      )}
    </div>
  );
}
