/**
 * The keyboard machinery of the screens' action lists (video markup, map): each screen keeps its
 * own list of actions (label, shortcut, what it does); finding the action of a key press lives here.
 */

/** Ctrl (⌘ on a Mac) with a letter, with or without Shift. */
export const ctrl =
  (key: string, shift = false) =>
  (event: KeyboardEvent) =>
    (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === key && event.shiftKey === shift;

/** The key press goes into a field: a shortcut must not take it (unless the action says so). */
function isTyping(target: EventTarget | null) {
  const element = target as HTMLElement | null;
  return !!element && (element.tagName === 'INPUT' || element.tagName === 'TEXTAREA' || element.tagName === 'SELECT' || element.isContentEditable);
}

interface Shortcut {
  test?(event: KeyboardEvent): boolean;
  /** Runs even while typing in a field (Ctrl+S). */
  inInputs?: boolean;
}

/** The first action of the list whose shortcut is this key press (none while typing, but for those `inInputs`). */
export function shortcutFor<A extends Shortcut>(actions: readonly A[], event: KeyboardEvent): A | undefined {
  const typing = isTyping(event.target);
  return actions.find((action) => (!typing || action.inInputs) && (action.test?.(event) ?? false));
}
