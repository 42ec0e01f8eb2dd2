import { ctrl, shortcutFor } from '../../ui/shortcuts';
import type { MarkupSession } from './session';

/** What an action can reach: the session, the player and the screen's commands. */
export interface ActionContext {
  session: MarkupSession;
  player: {
    time(): number;
    seek(seconds: number): void;
    togglePlay(): void;
    stepRate(direction: 1 | -1): void;
    /** Seconds of one frame. */
    frame(): number;
    duration(): number;
  };
  save(): void;
  addOperation(): void;
  addNote(): void;
  endCoding(): void;
  nextGap(): void;
  previousSegment(): void;
  nextSegment(): void;
  toggleLoop(): void;
  nudge(edge: 'start' | 'end', seconds: number): void;
  deleteSelected(): void;
  toggleHelp(): void;
  /** Leave for the task list, asking first when there are unsaved changes. */
  cancel(): void;
  fillGaps(): void;
  finish(): void;
  openModel(): void;
  markStands(): void;
  downloadTsv(): void;
  /** Codes the operation the chosen model suggests for this moment (docs/vision.md). */
  acceptSuggestion(): void;
  /** Turns on or off coding every settled suggestion as the video plays. */
  toggleFollowSuggestions(): void;
  /** Accepts or rejects the model segment under review, or every model segment of the review span (review.ts). */
  reviewModel(decision: 'accept' | 'reject', scope: 'segment' | 'span'): void;
  /** The user may only look (no markup.write): actions that edit do nothing and are not shown. */
  readOnly: boolean;
}

/**
 * One user command (as Excalidraw's actions): its label, shortcut and what it does. The keyboard
 * handler, the `?` help and the command bar are all generated from this list.
 */
export interface Action {
  id: string;
  label: string;
  /** How the shortcut is written in the help; none for a command with no shortcut. */
  keys?: string;
  test?(event: KeyboardEvent): boolean;
  perform(ctx: ActionContext, event?: KeyboardEvent): void;
  /** Runs even while typing in a field (Ctrl+S). */
  inInputs?: boolean;
  /**
   * Changes the markup (a save needs markup.write): not offered on a read-only screen (a viewer),
   * neither as a button nor as a shortcut.
   */
  edits?: boolean;
  /** A button of the command bar (above and below the editor), in list order. */
  toolbar?: { primary?: boolean; disabledWhileBusy?: boolean };
}

const plain = (key: string) => (e: KeyboardEvent) => e.key === key && !e.ctrlKey && !e.metaKey && !e.altKey;
/** A letter key with or without Shift (either case, so Caps Lock does not change its meaning). */
const letter = (key: string, shift: boolean) => (e: KeyboardEvent) =>
  e.key.toLowerCase() === key && e.shiftKey === shift && !e.ctrlKey && !e.metaKey && !e.altKey;

export const actions: Action[] = [
  { id: 'play', label: 'Пуск / пауза', keys: 'Пробел', test: plain(' '), perform: (c) => c.player.togglePlay() },
  { id: 'back5', label: 'Назад на 5 с', keys: '←', test: (e) => plain('ArrowLeft')(e) && !e.shiftKey, perform: (c) => c.player.seek(c.player.time() - 5) },
  { id: 'forward5', label: 'Вперёд на 5 с', keys: '→', test: (e) => plain('ArrowRight')(e) && !e.shiftKey, perform: (c) => c.player.seek(c.player.time() + 5) },
  {
    id: 'back1',
    label: 'Назад на 1 с',
    keys: 'Shift + ←',
    test: (e) => e.key === 'ArrowLeft' && e.shiftKey && !e.ctrlKey,
    perform: (c) => c.player.seek(c.player.time() - 1),
  },
  {
    id: 'forward1',
    label: 'Вперёд на 1 с',
    keys: 'Shift + →',
    test: (e) => e.key === 'ArrowRight' && e.shiftKey && !e.ctrlKey,
    perform: (c) => c.player.seek(c.player.time() + 1),
  },
  { id: 'frameBack', label: 'Кадр назад', keys: ',', test: plain(','), perform: (c) => c.player.seek(c.player.time() - c.player.frame()) },
  { id: 'frameForward', label: 'Кадр вперёд', keys: '.', test: plain('.'), perform: (c) => c.player.seek(c.player.time() + c.player.frame()) },
  { id: 'slower', label: 'Медленнее', keys: '[', test: plain('['), perform: (c) => c.player.stepRate(-1) },
  { id: 'faster', label: 'Быстрее', keys: ']', test: plain(']'), perform: (c) => c.player.stepRate(1) },
  { id: 'endCoding', edits: true, label: 'Завершить текущую операцию', keys: 'Enter', test: plain('Enter'), perform: (c) => c.endCoding() },
  { id: 'note', edits: true, label: 'Заметка на текущей секунде', keys: 'N', test: (e) => plain('n')(e) || plain('N')(e), perform: (c) => c.addNote() },
  { id: 'add', edits: true, label: 'Добавить операцию', keys: '+', test: plain('+'), perform: (c) => c.addOperation() },
  { id: 'previous', label: 'К предыдущей операции', keys: 'J', test: (e) => plain('j')(e) || plain('J')(e), perform: (c) => c.previousSegment() },
  { id: 'next', label: 'К следующей операции', keys: 'K', test: (e) => plain('k')(e) || plain('K')(e), perform: (c) => c.nextSegment() },
  { id: 'gap', label: 'К следующему неразмеченному месту', keys: 'G', test: (e) => plain('g')(e) || plain('G')(e), perform: (c) => c.nextGap() },
  { id: 'loop', label: 'Повтор выбранной операции', keys: 'L', test: (e) => plain('l')(e) || plain('L')(e), perform: (c) => c.toggleLoop() },
  {
    id: 'startEarlier',
    edits: true,
    label: 'Начало раньше на 0,1 с (Shift — на 1 с)',
    keys: 'A',
    test: (e) => e.key.toLowerCase() === 'a' && !e.ctrlKey && !e.metaKey,
    perform: (c, e) => c.nudge('start', -1 * (e?.shiftKey ? 1 : 0.1)),
  },
  {
    id: 'startLater',
    edits: true,
    label: 'Начало позже на 0,1 с (Shift — на 1 с)',
    keys: 'S',
    test: (e) => e.key.toLowerCase() === 's' && !e.ctrlKey && !e.metaKey,
    perform: (c, e) => c.nudge('start', 1 * (e?.shiftKey ? 1 : 0.1)),
  },
  {
    id: 'endEarlier',
    edits: true,
    label: 'Конец раньше на 0,1 с (Shift — на 1 с)',
    keys: 'D',
    test: (e) => e.key.toLowerCase() === 'd' && !e.ctrlKey && !e.metaKey,
    perform: (c, e) => c.nudge('end', -1 * (e?.shiftKey ? 1 : 0.1)),
  },
  {
    id: 'endLater',
    edits: true,
    label: 'Конец позже на 0,1 с (Shift — на 1 с)',
    keys: 'F',
    test: (e) => e.key.toLowerCase() === 'f' && !e.ctrlKey && !e.metaKey,
    perform: (c, e) => c.nudge('end', 1 * (e?.shiftKey ? 1 : 0.1)),
  },
  {
    id: 'followSuggestions',
    edits: true,
    label: 'Размечать по подсказкам модели (вкл./выкл.)',
    keys: 'Shift + M',
    test: (e) => e.key.toLowerCase() === 'm' && e.shiftKey && !e.ctrlKey && !e.metaKey && !e.altKey,
    perform: (c) => c.toggleFollowSuggestions(),
  },
  {
    id: 'suggestion',
    edits: true,
    label: 'Принять подсказку модели',
    keys: 'M',
    test: (e) => plain('m')(e) || plain('M')(e),
    perform: (c) => c.acceptSuggestion(),
  },
  {
    id: 'acceptModelSegment',
    edits: true,
    label: 'Принять отрезок модели (выбранный или под курсором)',
    keys: 'V',
    test: letter('v', false),
    perform: (c) => c.reviewModel('accept', 'segment'),
  },
  {
    id: 'rejectModelSegment',
    edits: true,
    label: 'Отклонить отрезок модели',
    keys: 'X',
    test: letter('x', false),
    perform: (c) => c.reviewModel('reject', 'segment'),
  },
  {
    id: 'acceptModelSpan',
    edits: true,
    label: 'Принять все отрезки модели в отрезке проверки',
    keys: 'Shift + V',
    test: letter('v', true),
    perform: (c) => c.reviewModel('accept', 'span'),
  },
  {
    id: 'rejectModelSpan',
    edits: true,
    label: 'Отклонить все отрезки модели в отрезке проверки',
    keys: 'Shift + X',
    test: letter('x', true),
    perform: (c) => c.reviewModel('reject', 'span'),
  },
  { id: 'delete', edits: true, label: 'Удалить выбранную операцию', keys: 'Delete', test: plain('Delete'), perform: (c) => c.deleteSelected() },
  { id: 'undo', edits: true, label: 'Отменить', keys: 'Ctrl + Z', test: ctrl('z'), perform: (c) => c.session.undo() },
  {
    id: 'redo',
    edits: true,
    label: 'Повторить',
    keys: 'Ctrl + Shift + Z, Ctrl + Y',
    test: (e) => ctrl('z', true)(e) || ctrl('y')(e),
    perform: (c) => c.session.redo(),
  },
  { id: 'cancel', label: 'Отмена', perform: (c) => c.cancel(), toolbar: {} },
  { id: 'fillGaps', edits: true, label: 'Заполнить пропуски', perform: (c) => c.fillGaps(), toolbar: { disabledWhileBusy: true } },
  { id: 'model', label: 'Настроить модель', perform: (c) => c.openModel(), toolbar: {} },
  { id: 'stands', label: 'Отметить стенды', perform: (c) => c.markStands(), toolbar: {} },
  { id: 'tsv', label: 'Скачать TSV', perform: (c) => c.downloadTsv(), toolbar: {} },
  {
    id: 'save',
    edits: true,
    label: 'Сохранить',
    keys: 'Ctrl + S',
    test: ctrl('s'),
    perform: (c) => c.save(),
    inInputs: true,
    toolbar: { primary: true, disabledWhileBusy: true },
  },
  { id: 'finish', edits: true, label: 'Завершить', perform: (c) => c.finish(), toolbar: { primary: true, disabledWhileBusy: true } },
  { id: 'help', label: 'Подсказка по клавишам', keys: '?', test: plain('?'), perform: (c) => c.toggleHelp() },
];

/** Finds and runs the action for a key press; returns whether one ran. */
export function runShortcut(event: KeyboardEvent, ctx: ActionContext): boolean {
  const action = shortcutFor(
    actions.filter((candidate) => !(candidate.edits && ctx.readOnly)),
    event,
  );
  if (!action) return false;
  event.preventDefault();
  action.perform(ctx, event);
  return true;
}

/** The commands with a shortcut, as the `?` help lists them (only those that look, on a read-only screen). */
export const shortcutActions = (readOnly = false) =>
  actions.filter((action): action is Action & { keys: string } => action.keys !== undefined && !(readOnly && action.edits));

/** The command bar's buttons, in order (only those that look, on a read-only screen). */
export const toolbarActions = (readOnly = false) => actions.filter((action) => action.toolbar && !(readOnly && action.edits));

/** Runs an action by id: on-screen buttons (touch) do exactly what their shortcut does. */
export function performAction(id: string, ctx: ActionContext) {
  const action = actions.find((candidate) => candidate.id === id);
  if (action && !(action.edits && ctx.readOnly)) action.perform(ctx);
}
