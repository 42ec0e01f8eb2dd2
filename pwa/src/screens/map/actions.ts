import type { MapAlgoTag } from '../../api/types';
import { ctrl, shortcutFor } from '../../ui/shortcuts';
import type { Tool } from './drawing';

/** What a toolbar action can reach: the screen's state and commands. */
export interface MapActionContext {
  canWrite: boolean;
  busy: boolean;
  hasProject: boolean;
  tool: Tool;
  canUndo: boolean;
  canRedo: boolean;
  sideOpen: boolean;
  setTool(tool: Tool): void;
  openGis(type: 'coords' | 'code'): void;
  deleteAll(): void;
  runAlgorithm(tag: MapAlgoTag): void;
  undo(): void;
  redo(): void;
  toggleSide(): void;
}

/**
 * One toolbar command (as the markup screen's actions.ts): label, shortcut, where it sits and
 * what it does. The toolbar, its menus and the keyboard handler are generated from this list.
 */
export interface MapAction {
  id: string;
  label: string;
  keys?: string;
  test?(event: KeyboardEvent): boolean;
  /** A button of its own, or an item of the "generate roads" / "optimise" menu. */
  place: 'tools' | 'generate' | 'optimise' | 'history' | 'view';
  /** Changes the project: only for roles with workspace.write (api/src/auth/permissions.ts, as whoami sent it). */
  writes: boolean;
  enabled?(ctx: MapActionContext): boolean;
  /** Asked first (a destructive action): the button becomes the question with «Да» and «Нет». */
  confirm?: { question: string; yes: string };
  /** A drawing tool that is on now. */
  pressed?(ctx: MapActionContext): boolean;
  /**
   * On a phone (issue 46: the toolbar wrapped over seven rows at 360 px) the toolbar is one row: a
   * 44 px icon button of its own (`icon`, toolbarIcons in Toolbar.tsx) or an item under «Ещё».
   */
  phoneRow?: boolean;
  perform(ctx: MapActionContext): void;
}

const editable = (c: MapActionContext) => c.hasProject && !c.busy;
const tool = (id: Tool, label: string): MapAction => ({
  id: `tool-${id}`,
  label,
  place: 'tools',
  writes: true,
  enabled: editable,
  pressed: (c) => c.tool === id,
  // «Удалить объект» under «Ещё» on a phone: the drawing tools keep the row.
  phoneRow: id !== 'remove',
  perform: (c) => c.setTool(c.tool === id && id !== 'select' ? 'select' : id),
});
const algorithm = (tag: MapAlgoTag, label: string, place: 'generate' | 'optimise'): MapAction => ({
  id: tag,
  label,
  place,
  writes: true,
  enabled: editable,
  perform: (c) => c.runAlgorithm(tag),
});

export const mapActions: MapAction[] = [
  tool('select', 'Изменить'),
  tool('area', 'Территория'),
  tool('road', 'Дорога'),
  tool('zone', 'Зона'),
  tool('object', 'Объект'),
  { id: 'gis-coords', label: 'Полигон по координатам', place: 'tools', writes: true, enabled: editable, perform: (c) => c.openGis('coords') },
  { id: 'gis-code', label: 'Полигон по кадастровому номеру', place: 'tools', writes: true, enabled: editable, perform: (c) => c.openGis('code') },
  tool('remove', 'Удалить объект'),
  {
    id: 'delete-all',
    label: 'Удалить всё',
    place: 'tools',
    writes: true,
    enabled: editable,
    confirm: { question: 'Удалить все объекты проекта?', yes: 'Да, удалить всё' },
    perform: (c) => c.deleteAll(),
  },
  algorithm('road_gen_grid', 'Сетка', 'generate'),
  algorithm('road_gen_voronoi', 'Территории', 'generate'),
  algorithm('road_subdivide', 'Дерево', 'generate'),
  algorithm('block_min_circle_cover', 'Зоны', 'generate'),
  algorithm('road_greed_types', 'Типы дорог', 'optimise'),
  algorithm('road_greed_remove', 'Удалить дороги', 'optimise'),
  {
    id: 'undo',
    label: 'Отменить',
    keys: 'Ctrl + Z',
    test: ctrl('z'),
    place: 'history',
    writes: true,
    phoneRow: true,
    enabled: (c) => c.canUndo && !c.busy,
    perform: (c) => c.undo(),
  },
  {
    id: 'redo',
    label: 'Повторить',
    keys: 'Ctrl + Shift + Z',
    test: ctrl('z', true),
    place: 'history',
    writes: true,
    enabled: (c) => c.canRedo && !c.busy,
    perform: (c) => c.redo(),
  },
  { id: 'side', label: 'Меню проекта', place: 'view', writes: false, pressed: (c) => c.sideOpen, perform: (c) => c.toggleSide() },
];

/** The actions this user may run (viewers and assessors see the map read-only). */
export const visibleActions = (ctx: MapActionContext) => mapActions.filter((a) => ctx.canWrite || !a.writes);

export const isEnabled = (action: MapAction, ctx: MapActionContext) => action.enabled?.(ctx) ?? true;

/** Runs the action of a key press (Ctrl+Z, Ctrl+Shift+Z); returns whether one ran. Nothing past the history's ends. */
export function runMapShortcut(event: KeyboardEvent, ctx: MapActionContext): boolean {
  const action = shortcutFor(visibleActions(ctx), event);
  if (!action) return false;
  event.preventDefault();
  if (isEnabled(action, ctx)) action.perform(ctx);
  return true;
}
